import { listHeldPayoutsResponseSchema, runPayoutResponseSchema } from '@portal/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  completeVerification,
  enableTwoFactor,
  verifyAccount,
} from '../../../test/support/bank-verification';
import { freshIssuer, payoutOn, sentInvoices, TEST_OPERATOR, todayOf } from '../../../test/support/money';
import { bearer } from '../../../test/support/test-app';
import { totpCode } from '../../../test/support/totp-code';
import { useTestApp } from '../../../test/support/use-test-app';
import {
  auditLog,
  invoiceEvents,
  issuers,
  messages,
  postings,
  settlements,
  verifiedBankAccounts,
} from '../../db/schema';
import { decideCredit } from '../invoices/invoices.service';
import { checkBooks } from './money.service';

/**
 * Payout holds (issue #13, docs/MONEY.md "Payout holds"): an issuer without a verified bank account is
 * not paid; the run writes nothing for it, pays the others, tells the back office why, and the first
 * run after the issuer verifies its account pays what waited, to that account.
 */

const t = useTestApp({ resetEach: true });

const today = () => todayOf(t);
const payout = () => payoutOn(t);

async function issuerId(name: string): Promise<string> {
  const [row] = await t.db.select({ id: issuers.id }).from(issuers).where(eq(issuers.name, name));
  if (!row) throw new Error(name);
  return row.id;
}

/** What a run may write for an issuer: settlements, postings, open postings, events, messages. */
async function writtenFor(id: string) {
  return {
    settlements: await t.db.$count(settlements, eq(settlements.issuerId, id)),
    postings: await t.db.$count(postings, eq(postings.issuerId, id)),
    open: await t.db.$count(
      postings,
      and(eq(postings.issuerId, id), eq(postings.account, 'issuer_payable'), isNull(postings.settlementId)),
    ),
    events: await t.db.$count(invoiceEvents, eq(invoiceEvents.issuerId, id)),
    messages: await t.db.$count(messages, eq(messages.issuerId, id)),
  };
}

async function accountIdOf(issuer: string, masked: string): Promise<string> {
  const [row] = await t.db
    .select({ id: verifiedBankAccounts.id })
    .from(verifiedBankAccounts)
    .where(and(eq(verifiedBankAccounts.issuerId, issuer), eq(verifiedBankAccounts.masked, masked)));
  if (!row) throw new Error(masked);
  return row.id;
}

describe('payout holds', () => {
  it('holds an unverified issuer’s payout, writing nothing for it, pays the others, and pays what waited once the account is verified', async () => {
    const fresh = await freshIssuer(t, { verified: false });
    const held = await fresh.invoicesOf(2, '2026-04-01');
    const byggId = await issuerId('Demo Bygg AB');
    await sentInvoices(t, { n: 1, approve: true });
    const expected = held.reduce((s, i) => s + fresh.netOf(i.toPayMinor), 0);

    const before = await writtenFor(fresh.issuer.id);
    expect(before.open).toBe(2);
    const operator = bearer(await t.loginOperator());
    // The back office sees the hold before any run, with the reason.
    const listed = await t.app.inject({ url: '/api/backoffice/payouts/held', headers: operator });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listHeldPayoutsResponseSchema.parse(listed.json()).items).toEqual([
      {
        issuerID: fresh.issuer.id,
        issuerName: 'Nystart Måleri AB',
        currency: 'SEK',
        rowCount: 2,
        grossMinor: held.reduce((s, i) => s + i.toPayMinor, 0),
        reason: 'bank_account_unverified',
      },
    ]);
    // Through the back office's API, as an operator runs it.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/backoffice/payouts',
      headers: operator,
      payload: { payoutDate: today() },
    });
    expect(res.statusCode, res.body).toBe(200);
    const run = runPayoutResponseSchema.parse(res.json());
    expect(run.held).toEqual([
      {
        issuerID: fresh.issuer.id,
        currency: 'SEK',
        rowCount: 2,
        totalMinor: expected,
        reason: 'bank_account_unverified',
      },
    ]);
    expect(run.settlements.filter((s) => s.issuerID === fresh.issuer.id)).toEqual([]);
    expect(run.failed).toEqual([]);
    // Nothing half-way: no settlement, posting, event or message; the postings wait open.
    expect(await writtenFor(fresh.issuer.id)).toEqual(before);
    // Demo Bygg AB is paid, to its verified account, recorded on the settlement.
    const bygg = run.settlements.filter((s) => s.issuerID === byggId);
    expect(bygg).toHaveLength(1);
    expect(bygg[0]?.paidTo).toBe('6123-••••6789');
    const [byggSettlement] = await t.db
      .select()
      .from(settlements)
      .where(eq(settlements.id, bygg[0]?.settlementID ?? ''));
    expect(byggSettlement?.bankAccountId).toBe(await accountIdOf(byggId, '6123-••••6789'));
    // The run's audit row names the hold.
    const audits = await t.db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.event, 'backoffice.payout'));
    const nystartAudit = audits.find((a) => a.details?.issuerId === fresh.issuer.id);
    expect(nystartAudit?.details).toMatchObject({
      settlements: [],
      held: [{ currency: 'SEK', reason: 'bank_account_unverified' }],
    });
    expect(audits.find((a) => a.details?.issuerId === undefined)?.details).toMatchObject({ held: 1 });
    expect(await checkBooks(t.db)).toEqual([]);

    // A run again before verification: still held, still nothing written.
    expect((await payout()).held.map((h) => h.issuerId)).toEqual([fresh.issuer.id]);
    expect(await writtenFor(fresh.issuer.id)).toEqual(before);

    // The issuer verifies its account; the next run pays everything that waited, to that account.
    const token = await t.login('demo-unverified');
    expect((await verifyAccount(t, token, 'se-norrbanken', 'nb-nystart')).status).toBe('verified');
    const paid = await payout();
    expect(paid.held).toEqual([]);
    const mine = paid.settlements.filter((s) => s.issuerId === fresh.issuer.id);
    expect(mine.map((s) => [s.rowCount, s.totalPayoutMinor, s.paidTo])).toEqual([
      [2, expected, '6123-••••4321'],
    ]);
    const [settlement] = await t.db
      .select()
      .from(settlements)
      .where(eq(settlements.issuerId, fresh.issuer.id));
    expect(settlement?.bankAccountId).toBe(await accountIdOf(fresh.issuer.id, '6123-••••4321'));
    expect((await writtenFor(fresh.issuer.id)).open).toBe(0);
    expect(await checkBooks(t.db)).toEqual([]);
    expect(
      (await t.app.inject({ url: '/api/backoffice/payouts/held', headers: operator })).json().items,
    ).toEqual([]);
    // And only once.
    expect((await payout()).settlements.filter((s) => s.issuerId === fresh.issuer.id)).toEqual([]);
  });

  it('pays to the old account while a change waits for its two-factor code, and to the new one after', async () => {
    const byggId = await issuerId('Demo Bygg AB');
    // Sent now, approved one by one below (the user cannot sign in without its code once two-factor is on).
    const [first, second] = await sentInvoices(t, { n: 2 });
    const approve = (id: string) =>
      decideCredit(t.db, TEST_OPERATOR, id, { decision: 'approved' }, t.clock.now(), '127.0.0.1');
    const token = await t.login('demo');
    const secret = await enableTwoFactor(t, token);
    t.clock.advance(31_000);
    await payout();
    const change = await verifyAccount(t, token, 'se-sparbanken-vast', 'sv-bygg');
    expect(change.status).toBe('confirmation_required');

    await approve(first?.id ?? '');
    const during = await payout();
    expect(during.settlements.filter((s) => s.issuerId === byggId).map((s) => s.paidTo)).toEqual([
      '6123-••••6789',
    ]);

    const confirmed = await t.call(token, 'POST', '/api/limited/bank-verification/confirm', {
      state: change.query.state,
      code: totpCode(secret, t.clock.now()),
    });
    expect(confirmed.json().status).toBe('verified');
    // The callback of that verification, read again, answers the outcome now stored.
    expect((await completeVerification(t, token, change.query)).json().status).toBe('verified');
    await approve(second?.id ?? '');
    const after = await payout();
    expect(after.settlements.filter((s) => s.issuerId === byggId).map((s) => s.paidTo)).toEqual([
      'BG •••-0141',
    ]);
    expect(await checkBooks(t.db)).toEqual([]);
  });
});
