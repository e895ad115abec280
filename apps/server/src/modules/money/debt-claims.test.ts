import {
  claimIssuerDebtsResponseSchema,
  dashboardResponseSchema,
  debtClaimDetailSchema,
  issuerFeesResponseSchema,
  listDebtClaimsResponseSchema,
  listIssuerDebtClaimsResponseSchema,
} from '@portal/contracts';
import { readBgmax } from '@portal/domain/bgmax';
import { addDays } from '@portal/domain/calendar-date';
import { DEFAULT_REFERENCE_RATE_BP, OUR_BANKGIRO } from '@portal/domain/money-flow';
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { freshIssuer, payoutOn, TEST_OPERATOR, todayOf } from '../../../test/support/money';
import { bearer } from '../../../test/support/test-app';
import { useTestApp } from '../../../test/support/use-test-app';
import { invoices, issuerDebtClaims, messages, payments, postings } from '../../db/schema';
import { decideCredit } from '../invoices/invoices.service';
import {
  checkBooks,
  type IncomingPayment,
  importBgmaxFile,
  incomingPaymentsFile,
  runDailyJob,
} from './money.service';

/**
 * Debt claims (issue #16, docs/MONEY.md "Debt claims"): an issuer's debt that no payouts cover is
 * claimed after its days, through the real payout runs, daily job and BGMAX import, with the books
 * checked after each step.
 */

const t = useTestApp({ resetEach: true });

const dueDate = '2026-04-01';
const later = '2026-09-01';

const daily = (date: string) =>
  runDailyJob(t.db, {
    date,
    now: new Date(`${date}T05:00:00Z`),
    referenceRateBp: DEFAULT_REFERENCE_RATE_BP,
  });

/** A BGMAX file (written by our writer) of payments to our own bankgiro on `date`. */
function paidToUs(date: string, list: IncomingPayment[], firstSerial = 1, currency: 'SEK' | 'EUR' = 'SEK') {
  const bytes = incomingPaymentsFile({
    paymentDate: date,
    deposits: [{ bankgiro: OUR_BANKGIRO, currency, payments: list }],
    firstSerial,
    firstDeposit: firstSerial,
  });
  // Our reader reads back what the import will read.
  expect(readBgmax(bytes).file.sections[0]?.payeeBankgiro).toBe(OUR_BANKGIRO);
  return importBgmaxFile(t.db, bytes, {
    filename: `in-${firstSerial}.txt`,
    operatorId: null,
    now: t.clock.now(),
  });
}

const claimsOf = (issuerId: string) =>
  t.db.select().from(issuerDebtClaims).where(eq(issuerDebtClaims.issuerId, issuerId));

const noticesOf = async (issuerId: string, code: string) =>
  (await t.db.select().from(messages).where(eq(messages.issuerId, issuerId))).filter((m) => m.code === code);

/** The back office's claimIssuerDebts (POST /api/backoffice/debtclaims) with the operator's `headers`. */
const claimDebts = (headers: { authorization: string }, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/backoffice/debtclaims', headers, payload });

async function soundBooks() {
  expect(await checkBooks(t.db)).toEqual([]);
}

/** Nystart Måleri AB with one invoice paid out and charged back: it owes us the invoice. */
async function chargedBack() {
  const fresh = await freshIssuer(t);
  const [a] = await fresh.invoicesOf(1, dueDate);
  if (!a) throw new Error('one invoice');
  await payoutOn(t, todayOf(t));
  const day = addDays(dueDate, fresh.issuer.recourseDays);
  await daily(day);
  const [charged] = await t.db.select().from(invoices).where(eq(invoices.id, a.id));
  expect(charged?.state).toBe(5);
  return { ...fresh, a, day };
}

describe('debt claims', () => {
  it('claims a debt no payouts covered after the issuer’s days, and a BGMAX payment to our bankgiro pays it in two parts', async () => {
    const { issuer, a, day } = await chargedBack();
    const token = await t.login('demo-unverified');
    // The payout run carries the debt: nothing settled.
    const run = await payoutOn(t, day);
    expect(run.carried.filter((c) => c.issuerId === issuer.id)).toEqual([
      { issuerId: issuer.id, currency: 'SEK', rowCount: 1, totalMinor: -a.toPayMinor },
    ]);
    await soundBooks();
    const dashboard = async () => {
      const res = await t.app.inject({ url: '/api/limited/dashboard', headers: bearer(token) });
      expect(res.statusCode, res.body).toBe(200);
      return dashboardResponseSchema.parse(res.json()).balance;
    };
    expect(await dashboard()).toEqual({ owedToYouMinor: 0, owedByYouMinor: a.toPayMinor, openClaims: 0 });

    // One day short of the 30 days: nothing yet. (Demo Bygg AB's demo invoices go through the same
    // days, so the counts are the issuer's own.)
    await daily(addDays(day, 29));
    expect(await claimsOf(issuer.id)).toEqual([]);
    const claimDay = addDays(day, 30);
    const made = await daily(claimDay);
    expect(made.failures).toEqual([]);
    expect(await claimsOf(issuer.id)).toHaveLength(1);
    const [claim] = await claimsOf(issuer.id);
    if (!claim) throw new Error('no claim');
    expect(claim).toMatchObject({
      state: 'open',
      amountMinor: a.toPayMinor,
      paidMinor: 0,
      rowCount: 1,
      claimDate: claimDay,
      dueDate: addDays(claimDay, 14),
    });
    expect(claim.ocr).toMatch(/^[0-9]+$/);
    // The charge back is taken: no payout run sees it again, and a second run of the day claims nothing.
    const open = await t.db
      .select()
      .from(postings)
      .where(
        and(
          eq(postings.issuerId, issuer.id),
          eq(postings.account, 'issuer_payable'),
          isNull(postings.settlementId),
          isNull(postings.claimId),
        ),
      );
    expect(open).toEqual([]);
    await daily(claimDay);
    expect(await claimsOf(issuer.id)).toHaveLength(1);
    const after = await payoutOn(t, claimDay);
    expect(after.carried.filter((c) => c.issuerId === issuer.id)).toEqual([]);
    expect(after.settlements.filter((s) => s.issuerId === issuer.id)).toEqual([]);
    expect(await noticesOf(issuer.id, 'debtClaim')).toHaveLength(1);
    await soundBooks();
    expect(await dashboard()).toEqual({ owedToYouMinor: 0, owedByYouMinor: a.toPayMinor, openClaims: 1 });

    // The customer's statement: the charge back, with its invoice, recipient and date.
    const listed = await t.app.inject({ url: '/api/limited/debtclaims', headers: bearer(token) });
    expect(listed.statusCode, listed.body).toBe(200);
    const items = listDebtClaimsResponseSchema.parse(listed.json()).items;
    expect(items.map((c) => [c.number, c.remainingMinor, c.ocr, c.bankgiro])).toEqual([
      [claim.number, a.toPayMinor, claim.ocr, '5050-1055'],
    ]);
    const statement = async () => {
      const res = await t.app.inject({ url: `/api/limited/debtclaims/${claim.id}`, headers: bearer(token) });
      expect(res.statusCode, res.body).toBe(200);
      return debtClaimDetailSchema.parse(res.json());
    };
    const first = await statement();
    expect(first.rows).toEqual([
      expect.objectContaining({
        invoiceID: a.id,
        invoiceNumber: a.invoiceNumber,
        kind: 'chargeBack',
        date: day,
        grossMinor: -a.toPayMinor,
        feeMinor: 0,
        netMinor: -a.toPayMinor,
      }),
    ]);
    expect(first.rows[0]?.recipientName).not.toBe('');
    expect(first.payments).toEqual([]);

    // A week after the due date: reminder 1, once.
    await daily(addDays(claim.dueDate, 6));
    expect(await noticesOf(issuer.id, 'debtClaimReminder')).toHaveLength(0);
    await daily(addDays(claim.dueDate, 7));
    await daily(addDays(claim.dueDate, 7));
    expect(await noticesOf(issuer.id, 'debtClaimReminder')).toHaveLength(1);
    expect((await claimsOf(issuer.id))[0]?.remindersSent).toBe(1);

    // Part of it, then the rest; a payment beyond what is left waits unmatched.
    const part = 100_000;
    const one = await paidToUs(claimDay, [
      { reference: claim.ocr, amountMinor: part, name: 'Nystart Måleri AB' },
    ]);
    expect(one).toMatchObject({ matched: 1, unmatched: 0 });
    await soundBooks();
    const [halfway] = await claimsOf(issuer.id);
    expect(halfway).toMatchObject({ state: 'open', paidMinor: part });
    expect(await dashboard()).toEqual({
      owedToYouMinor: 0,
      owedByYouMinor: a.toPayMinor - part,
      openClaims: 1,
    });
    const over = await paidToUs(claimDay, [{ reference: claim.ocr, amountMinor: a.toPayMinor }], 10);
    expect(over).toMatchObject({ matched: 0, unmatched: 1 });
    const rest = await paidToUs(claimDay, [{ reference: claim.ocr, amountMinor: a.toPayMinor - part }], 20);
    expect(rest).toMatchObject({ matched: 1, unmatched: 0 });
    await soundBooks();
    const paid = await statement();
    expect(paid.claim).toMatchObject({ state: 'paid', paidMinor: a.toPayMinor, remainingMinor: 0 });
    expect(paid.claim.paidDate).not.toBeNull();
    expect(paid.payments.map((p) => p.amountMinor)).toEqual([part, a.toPayMinor - part]);
    expect(await dashboard()).toEqual({ owedToYouMinor: 0, owedByYouMinor: 0, openClaims: 0 });
    // Paid: no more reminders, and another payment of it waits unmatched.
    await daily(addDays(claim.dueDate, 21));
    expect(await noticesOf(issuer.id, 'debtClaimReminder')).toHaveLength(1);
    expect(await paidToUs(claimDay, [{ reference: claim.ocr, amountMinor: 100 }], 30)).toMatchObject({
      matched: 0,
      unmatched: 1,
    });
    const claimPayments = await t.db.select().from(payments).where(eq(payments.claimId, claim.id));
    expect(claimPayments.map((p) => [p.status, p.invoiceId, p.issuerId])).toEqual([
      ['claim', null, issuer.id],
      ['claim', null, issuer.id],
    ]);
    await soundBooks();
  });

  it('sets the payouts off in the claim, with their fees, and pays a later payout in full', async () => {
    const { issuer, a, day, invoicesOf, netOf } = await chargedBack();
    const [b] = await invoicesOf(1, later, false);
    if (!b) throw new Error('one invoice');
    await decideCredit(t.db, TEST_OPERATOR, b.id, { decision: 'approved' }, t.clock.now(), '127.0.0.1');
    expect(netOf(b.toPayMinor)).toBeLessThan(a.toPayMinor);
    // The back office claims it at once, whatever its age.
    const operator = bearer(await t.loginOperator());
    const res = await claimDebts(operator, { issuerID: issuer.id, date: day });
    expect(res.statusCode, res.body).toBe(200);
    const { claims } = claimIssuerDebtsResponseSchema.parse(res.json());
    expect(claims.map((c) => [c.issuerID, c.rowCount, c.amountMinor])).toEqual([
      [issuer.id, 2, a.toPayMinor - netOf(b.toPayMinor)],
    ]);
    await soundBooks();
    const detail = await t.app.inject({
      url: `/api/limited/debtclaims/${claims[0]?.claimID}`,
      headers: bearer(await t.login('demo-unverified')),
    });
    const rows = debtClaimDetailSchema.parse(detail.json()).rows;
    expect(rows.map((r) => [r.invoiceID, r.kind, r.grossMinor, r.netMinor])).toEqual([
      [a.id, 'chargeBack', -a.toPayMinor, -a.toPayMinor],
      [b.id, 'payout', b.toPayMinor, netOf(b.toPayMinor)],
    ]);
    // A new invoice is paid out whole by the next run: the claim took the others.
    const [c] = await invoicesOf(1, later);
    if (!c) throw new Error('one invoice');
    const run = await payoutOn(t, day);
    expect(run.settlements.filter((s) => s.issuerId === issuer.id).map((s) => s.totalPayoutMinor)).toEqual([
      netOf(c.toPayMinor),
    ]);
    await soundBooks();
    // Nothing left to claim.
    const again = await claimDebts(operator, { issuerID: issuer.id, date: day });
    expect(claimIssuerDebtsResponseSchema.parse(again.json()).claims).toEqual([]);
    const all = await t.app.inject({ url: '/api/backoffice/debtclaims?state=open', headers: operator });
    expect(all.statusCode, all.body).toBe(200);
    expect(
      listIssuerDebtClaimsResponseSchema
        .parse(all.json())
        .items.filter((i) => i.issuerID === issuer.id)
        .map((i) => [i.issuerName, i.state, i.number]),
    ).toEqual([['Nystart Måleri AB', 'open', claims[0]?.number]]);
  });

  it('keeps a payment of an unknown reference, another currency or too much unmatched', async () => {
    const { issuer, a, day } = await chargedBack();
    await daily(addDays(day, 30));
    const [claim] = await claimsOf(issuer.id);
    if (!claim) throw new Error('no claim');
    const result = await paidToUs(day, [
      { reference: '8000000000', amountMinor: 100 },
      { reference: claim.ocr, amountMinor: a.toPayMinor + 1 },
    ]);
    expect(result).toMatchObject({ matched: 0, unmatched: 2 });
    expect(await paidToUs(day, [{ reference: claim.ocr, amountMinor: 100 }], 10, 'EUR')).toMatchObject({
      matched: 0,
      unmatched: 1,
    });
    const [still] = await claimsOf(issuer.id);
    expect(still).toMatchObject({ state: 'open', paidMinor: 0 });
    await soundBooks();
  });

  it('answers another issuer’s claim as not found, and bad input with 4xx', async () => {
    const { issuer, day } = await chargedBack();
    const operator = bearer(await t.loginOperator());
    const made = await claimDebts(operator, { issuerID: issuer.id, date: day });
    const claimId = claimIssuerDebtsResponseSchema.parse(made.json()).claims[0]?.claimID;
    const other = bearer(await t.login('demo'));
    const foreign = await t.app.inject({ url: `/api/limited/debtclaims/${claimId}`, headers: other });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'debtClaims.not_found' });
    const listed = await t.app.inject({ url: '/api/limited/debtclaims', headers: other });
    expect(listDebtClaimsResponseSchema.parse(listed.json()).items).toEqual([]);
    const notUuid = await t.app.inject({ url: '/api/limited/debtclaims/nope', headers: other });
    expect(notUuid.statusCode).toBeGreaterThanOrEqual(400);
    expect(notUuid.statusCode).toBeLessThan(500);
    const noSuchIssuer = '00000000-0000-4000-8000-00000000abcd';
    expect((await claimDebts(operator, { issuerID: noSuchIssuer })).statusCode).toBe(404);
    expect((await claimDebts(operator, { issuerID: 'nope' })).statusCode).toBe(400);
    const badState = await t.app.inject({ url: '/api/backoffice/debtclaims?state=gone', headers: operator });
    expect(badState.statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/backoffice/debtclaims' })).statusCode).toBe(401);
  });

  it('sets an issuer’s days with its fees, and the daily job claims after them', async () => {
    const { issuer, day } = await chargedBack();
    const operator = bearer(await t.loginOperator());
    const url = `/api/backoffice/issuers/${issuer.id}/fees`;
    const before = issuerFeesResponseSchema.parse((await t.app.inject({ url, headers: operator })).json());
    expect(before.debtClaimDays).toBe(30);
    /** setIssuerFees with the same fees and these days. */
    const setDays = (debtClaimDays: number) =>
      t.app.inject({ method: 'PUT', url, headers: operator, payload: { fees: before.fees, debtClaimDays } });
    expect((await setDays(0)).statusCode).toBe(400);
    const set = await setDays(10);
    expect(set.statusCode, set.body).toBe(200);
    expect(issuerFeesResponseSchema.parse(set.json())).toMatchObject({
      debtClaimDays: 10,
      fees: before.fees,
    });
    await daily(addDays(day, 9));
    expect(await claimsOf(issuer.id)).toEqual([]);
    await daily(addDays(day, 10));
    expect(await claimsOf(issuer.id)).toHaveLength(1);
    await soundBooks();
  });
});
