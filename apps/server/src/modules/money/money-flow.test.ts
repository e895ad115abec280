// Over 500 lines on purpose: the money flow end to end (send, decide, pay out, import, assign, dun,
// charge back, settle), each scenario through the real import and payout paths with the books checked.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bgmaxEndCounts, bgmaxSectionTotals, readBgmax, writeBgmax } from '@portal/domain/bgmax';
import { addDays } from '@portal/domain/calendar-date';
import { DEFAULT_REFERENCE_RATE_BP, feeFor } from '@portal/domain/money-flow';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  freshIssuer,
  fullPartOverPayments,
  paidToBygg,
  payoutOn,
  sentInvoices,
  TEST_OPERATOR,
  todayOf,
} from '../../../test/support/money';
import { whileRefusing } from '../../../test/support/refuse-writes';
import { bearer } from '../../../test/support/test-app';
import { useTestApp } from '../../../test/support/use-test-app';
import { migrationsDir } from '../../db/migrate';
import {
  invoiceEvents,
  invoices,
  invoiceTimeline,
  issuers,
  messages,
  paymentFiles,
  payments,
  postings,
  settlementRows,
  timelineOrder,
} from '../../db/schema';
import { DEMO_BANKGIROS } from '../../db/seed/demo';
import { decideCredit, loadDetails } from '../invoices/invoices.service';
import {
  assignPayment,
  checkBooks,
  importBgmaxFile,
  incomingPaymentsFile,
  runDailyJob,
  runPayout,
} from './money.service';
import { settlementBgmax } from './settlement-bgmax';

const t = useTestApp({ resetEach: true });

/** Postings the issuer is owed that no settlement has paid yet. */
const openPayable = (issuerId: string) =>
  and(eq(postings.issuerId, issuerId), eq(postings.account, 'issuer_payable'), isNull(postings.settlementId));

const OPERATOR = TEST_OPERATOR;

async function bygg() {
  const [issuer] = await t.db.select().from(issuers).where(eq(issuers.name, 'Demo Bygg AB'));
  if (!issuer) throw new Error('no Demo Bygg AB');
  return issuer;
}

/** Invoices of Demo Bygg, registered, sent and approved now: on the book and owed to the issuer. */
function approvedInvoices(n: number, service = 'factoring') {
  return sentInvoices(t, { n, service, approve: true });
}

const today = () => todayOf(t);

/** The rows an import writes, counted: files, payments, postings and timeline events. */
async function writtenCounts() {
  return {
    files: (await t.db.select({ n: count() }).from(paymentFiles))[0]?.n,
    payments: (await t.db.select({ n: count() }).from(payments))[0]?.n,
    postings: (await t.db.select({ n: count() }).from(postings))[0]?.n,
    events: (await t.db.select({ n: count() }).from(invoiceTimeline))[0]?.n,
  };
}

async function booksOf(ids: string[]) {
  const issuer = await bygg();
  return (await checkBooks(t.db, issuer.id)).filter((v) => ids.includes(v.id));
}

describe('payout runs', () => {
  it('settles approved invoices with the issuer’s fees, once', async () => {
    // What the demo's last payout run left (approvals since) is settled first.
    await payoutOn(t);
    const approved = await approvedInvoices(3, 'factoring');
    const run = await payoutOn(t);
    const mine = run.settlements.filter((s) => s.currency === 'SEK' && s.issuerId === approved[0]?.issuerId);
    expect(mine).toHaveLength(1);
    const settlement = mine[0];
    const rowsOf = await t.db
      .select()
      .from(settlementRows)
      .where(eq(settlementRows.settlementId, settlement?.settlementId ?? ''));
    expect(rowsOf.map((r) => r.invoiceId).sort()).toEqual(approved.map((i) => i.id).sort());
    for (const row of rowsOf) {
      const invoice = approved.find((i) => i.id === row.invoiceId);
      expect(row.kind).toBe('payout');
      expect(row.grossMinor).toBe(invoice?.toPayMinor);
      expect(row.feeMinor).toBe(feeFor(row.grossMinor, { percentBasisPoints: 150, fixedMinor: 2_500 }));
      expect(row.netMinor).toBe(row.grossMinor - row.feeMinor);
    }
    expect(settlement?.totalPayoutMinor).toBe(rowsOf.reduce((s, r) => s + r.netMinor, 0));
    const events = await t.db
      .select()
      .from(invoiceEvents)
      .where(
        and(
          inArray(
            invoiceEvents.invoiceId,
            approved.map((i) => i.id),
          ),
          eq(invoiceEvents.event, 5),
        ),
      );
    expect(events).toHaveLength(3);
    expect(await booksOf(approved.map((i) => i.id))).toEqual([]);

    const again = await payoutOn(t);
    expect(again.settlements).toEqual([]);
  });

  it('pays once when two runs start at the same moment (each issuer under its own lock)', async () => {
    // Everything the demo left open, and three fresh approvals, are up for both runs at once. On
    // PostgreSQL the two runs hold connections of their own and meet at each issuer's advisory lock.
    const approved = await approvedInvoices(3, 'factoring');
    // (Postings a debt claim took are no run's: docs/MONEY.md "Debt claims".)
    const open = await t.db
      .select({ id: postings.id })
      .from(postings)
      .where(
        and(eq(postings.account, 'issuer_payable'), isNull(postings.settlementId), isNull(postings.claimId)),
      );
    expect(open.length).toBeGreaterThan(3);
    // Each run holds its issuer's transaction open until the other run has reached the same point or
    // half a second has passed: without the lock both would settle the same postings; with it the
    // second waits at the lock and then finds them settled.
    let recorded = 0;
    const record = async () => {
      recorded++;
      const until = Date.now() + 500;
      while (recorded < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    };
    const run = () => runPayout(t.db, { payoutDate: today(), now: t.clock.now(), operatorId: null, record });
    const [a, b] = await Promise.all([run(), run()]);
    expect([...a.failed, ...b.failed]).toEqual([]);

    // Each posting is taken by exactly one settlement, and each invoice is paid out once.
    const taken = await t.db
      .select({ id: postings.id, settlementId: postings.settlementId })
      .from(postings)
      .where(
        inArray(
          postings.id,
          open.map((p) => p.id),
        ),
      );
    expect(taken.every((p) => p.settlementId !== null)).toBe(true);
    const made = [...a.settlements, ...b.settlements];
    expect(new Set(made.map((s) => `${s.issuerId}|${s.currency}`)).size).toBe(made.length);
    const payoutRows = await t.db
      .select({ invoiceId: settlementRows.invoiceId })
      .from(settlementRows)
      .where(
        and(
          inArray(
            settlementRows.invoiceId,
            approved.map((i) => i.id),
          ),
          eq(settlementRows.kind, 'payout'),
        ),
      );
    expect(payoutRows.map((r) => r.invoiceId).sort()).toEqual(approved.map((i) => i.id).sort());
    expect(await booksOf(approved.map((i) => i.id))).toEqual([]);
  });
});

describe('payouts with charge backs', () => {
  const dueDate = '2026-04-01';
  const later = '2026-09-01';
  const payout = (payoutDate: string) => payoutOn(t, payoutDate);
  const daily = (date: string) =>
    runDailyJob(t.db, {
      date,
      now: new Date(`${date}T05:00:00Z`),
      referenceRateBp: DEFAULT_REFERENCE_RATE_BP,
    });
  const bankOf = async (issuerId: string) =>
    t.db
      .select()
      .from(postings)
      .where(and(eq(postings.issuerId, issuerId), eq(postings.account, 'bank')));
  const eventsOf = async (invoiceId: string, event: number) =>
    t.db
      .select()
      .from(invoiceTimeline)
      .where(and(eq(invoiceTimeline.invoiceId, invoiceId), eq(invoiceTimeline.event, event)));

  it('leaves an issuer whose charge backs exceed its payouts unsettled, then sets the debt off against the next payouts', async () => {
    const { issuer, invoicesOf, netOf } = await freshIssuer(t);
    const day = addDays(dueDate, issuer.recourseDays);
    const [a] = await invoicesOf(1, dueDate);
    if (!a) throw new Error('one invoice');
    const first = await payout(today());
    const paidA = first.settlements.filter((s) => s.issuerId === issuer.id);
    expect(paidA.map((s) => s.totalPayoutMinor)).toEqual([netOf(a.toPayMinor)]);
    await daily(day);
    const [charged] = await t.db.select().from(invoices).where(eq(invoices.id, a.id));
    expect(charged).toMatchObject({ state: 5, remainingMinor: a.toPayMinor });

    // A new invoice pays out less than the charge back takes: the issuer owes us the difference.
    const [b] = await invoicesOf(1, later);
    if (!b) throw new Error('one invoice');
    expect(netOf(b.toPayMinor)).toBeLessThan(a.toPayMinor);
    const bankBefore = await bankOf(issuer.id);
    const [noticesBefore] = await t.db
      .select({ n: count() })
      .from(messages)
      .where(eq(messages.issuerId, issuer.id));
    const second = await payout(day);
    expect(second.settlements.filter((s) => s.issuerId === issuer.id)).toEqual([]);
    expect(second.carried.filter((c) => c.issuerId === issuer.id)).toEqual([
      { issuerId: issuer.id, currency: 'SEK', rowCount: 2, totalMinor: netOf(b.toPayMinor) - a.toPayMinor },
    ]);
    // Nothing settled, nothing on the bank, no notice, no payout or settlement event: the charge back
    // and the payout wait open for the next run.
    expect(
      await t.db
        .select()
        .from(settlementRows)
        .where(inArray(settlementRows.invoiceId, [b.id])),
    ).toEqual([]);
    expect(
      await t.db
        .select()
        .from(settlementRows)
        .where(and(eq(settlementRows.invoiceId, a.id), eq(settlementRows.kind, 'chargeBack'))),
    ).toEqual([]);
    expect(await bankOf(issuer.id)).toEqual(bankBefore);
    const [noticesAfter] = await t.db
      .select({ n: count() })
      .from(messages)
      .where(eq(messages.issuerId, issuer.id));
    expect(noticesAfter?.n).toBe(noticesBefore?.n);
    expect(await eventsOf(a.id, 11)).toEqual([]);
    expect(await eventsOf(b.id, 5)).toEqual([]);
    const open = await t.db
      .select({ invoiceId: postings.invoiceId, kind: postings.kind, amountMinor: postings.amountMinor })
      .from(postings)
      .where(openPayable(issuer.id));
    expect(open.sort((x, y) => x.amountMinor - y.amountMinor)).toEqual([
      { invoiceId: b.id, kind: 'recognise', amountMinor: -b.toPayMinor },
      { invoiceId: a.id, kind: 'chargeBack', amountMinor: a.toPayMinor },
    ]);
    expect(await checkBooks(t.db, issuer.id)).toEqual([]);

    // The next run with enough payouts settles it all: the charge back is a negative row.
    const [c] = await invoicesOf(1, later);
    if (!c) throw new Error('one invoice');
    const third = await payout(day);
    const mine = third.settlements.filter((s) => s.issuerId === issuer.id);
    expect(mine).toHaveLength(1);
    const settlement = mine[0];
    if (!settlement) throw new Error('a settlement');
    const rowsOf = await t.db
      .select()
      .from(settlementRows)
      .where(eq(settlementRows.settlementId, settlement.settlementId))
      .orderBy(asc(settlementRows.position));
    expect(rowsOf.map((r) => [r.invoiceId, r.kind, r.grossMinor, r.feeMinor, r.netMinor])).toEqual([
      [a.id, 'chargeBack', -a.toPayMinor, 0, -a.toPayMinor],
      [b.id, 'payout', b.toPayMinor, b.toPayMinor - netOf(b.toPayMinor), netOf(b.toPayMinor)],
      [c.id, 'payout', c.toPayMinor, c.toPayMinor - netOf(c.toPayMinor), netOf(c.toPayMinor)],
    ]);
    const total = netOf(b.toPayMinor) + netOf(c.toPayMinor) - a.toPayMinor;
    expect(total).toBeGreaterThan(0);
    expect(settlement).toMatchObject({ rowCount: 3, totalPayoutMinor: total });
    expect(third.carried.filter((c) => c.issuerId === issuer.id)).toEqual([]);
    // The bank paid exactly the two settlements' totals, each once, and took in nothing.
    const bank = await bankOf(issuer.id);
    expect(bank.map((p) => [p.settlementId, p.amountMinor]).sort()).toEqual(
      [
        [paidA[0]?.settlementId, -netOf(a.toPayMinor)],
        [settlement.settlementId, -total],
      ].sort(),
    );
    // Event 11 on the charged-back invoice and 5 on the payouts, now that they are settled.
    const [settledA] = await eventsOf(a.id, 11);
    expect(settledA?.details).toEqual({
      settlementNumber: settlement.number,
      grossMinor: -a.toPayMinor,
      feeMinor: 0,
      netMinor: -a.toPayMinor,
    });
    for (const inv of [b, c]) expect(await eventsOf(inv.id, 5)).toHaveLength(1);
    expect(await checkBooks(t.db, issuer.id)).toEqual([]);
    expect(await t.db.select().from(postings).where(openPayable(issuer.id))).toEqual([]);

    // The customer's BGMAX file of it: the payouts as payments, the charge back as a deduction.
    const file = await t.app.inject({
      method: 'GET',
      url: `/api/limited/transfercosts/${settlement.settlementId}/bgmax`,
      headers: bearer(await t.login('demo-unverified')),
    });
    expect(file.statusCode).toBe(200);
    const [section] = readBgmax(new Uint8Array(file.rawPayload)).file.sections;
    expect(section?.deposit.amountMinor).toBe(total);
    expect(section?.payments.map((p) => [p.kind, p.reference, p.amountMinor])).toEqual([
      ['payment', b.ocr, netOf(b.toPayMinor)],
      ['payment', c.ocr, netOf(c.toPayMinor)],
      ['deduction', a.ocr, a.toPayMinor],
    ]);
  });

  it('settles a charge back that exactly takes up the payouts: a settlement of zero, no money moves', async () => {
    const { issuer, invoicesOf, netOf } = await freshIssuer(t);
    const day = addDays(dueDate, issuer.recourseDays);
    const [a] = await invoicesOf(1, dueDate);
    const [b] = await invoicesOf(1, later, false);
    if (!a || !b) throw new Error('two invoices');
    await payout(today());
    // The recipient pays part of a, so that what is charged back is exactly what b pays out.
    const paid = a.toPayMinor - netOf(b.toPayMinor);
    expect(paid).toBeGreaterThan(0);
    await importBgmaxFile(
      t.db,
      incomingPaymentsFile({
        paymentDate: today(),
        deposits: [
          {
            bankgiro: DEMO_BANKGIROS.unverified,
            payments: [{ reference: a.ocr ?? '', amountMinor: paid }],
          },
        ],
      }),
      { filename: 'part.txt', operatorId: null, now: t.clock.now() },
    );
    await daily(day);
    const [charged] = await t.db.select().from(invoices).where(eq(invoices.id, a.id));
    expect(charged).toMatchObject({ state: 5, remainingMinor: netOf(b.toPayMinor) });
    await decideCredit(t.db, TEST_OPERATOR, b.id, { decision: 'approved' }, t.clock.now(), '127.0.0.1');
    const bankBefore = await bankOf(issuer.id);
    const run = await payout(day);
    const mine = run.settlements.filter((s) => s.issuerId === issuer.id);
    expect(mine.map((s) => [s.rowCount, s.totalPayoutMinor])).toEqual([[2, 0]]);
    expect(run.carried.filter((c) => c.issuerId === issuer.id)).toEqual([]);
    expect(await bankOf(issuer.id)).toEqual(bankBefore);
    expect(await eventsOf(a.id, 11)).toHaveLength(1);
    expect(await eventsOf(b.id, 5)).toHaveLength(1);
    expect(await checkBooks(t.db, issuer.id)).toEqual([]);
    const file = await t.app.inject({
      method: 'GET',
      url: `/api/limited/transfercosts/${mine[0]?.settlementId}/bgmax`,
      headers: bearer(await t.login('demo-unverified')),
    });
    expect(file.statusCode).toBe(200);
    const [section] = readBgmax(new Uint8Array(file.rawPayload)).file.sections;
    expect(section?.deposit.amountMinor).toBe(0);
    expect(section?.payments.map((p) => p.kind)).toEqual(['payment', 'deduction']);
  });

  it('refuses a negative settlement as a BGMAX file (only settlements made before carrying debts can be one)', () => {
    expect(() =>
      settlementBgmax(
        { number: 7, payoutDate: '2026-03-03', currency: 'SEK', day: '2026-03-03', totalPayoutMinor: -100 },
        '5050109',
        [{ reference: '1234567897', netMinor: -100 }],
      ),
    ).toThrow(expect.objectContaining({ code: 'settlements.negative_total' }));
  });
});

describe('BGMAX import', () => {
  it('pays in full, in part and over, keeps the unknown unmatched, and imports a file once', async () => {
    const [full, part, over] = await approvedInvoices(3, 'factoring');
    if (!full || !part || !over) throw new Error('three invoices');
    const bytes = paidToBygg(t, fullPartOverPayments([full, part, over], 'Betalare Ett AB'), {
      deposits: [{ bankgiro: '9912346', payments: [{ reference: full.ocr ?? '', amountMinor: 777 }] }],
    });
    const result = await importBgmaxFile(t.db, bytes, {
      filename: 'in.bgmax',
      operatorId: null,
      now: t.clock.now(),
    });
    expect(result).toMatchObject({
      duplicateFile: false,
      payments: 5,
      registered: 5,
      matched: 3,
      unmatched: 2,
      overpayments: 1,
    });
    const after = await t.db
      .select()
      .from(invoices)
      .where(inArray(invoices.id, [full.id, part.id, over.id]));
    const byId = new Map(after.map((i) => [i.id, i]));
    expect(byId.get(full.id)).toMatchObject({ state: 4, remainingMinor: 0 });
    expect(byId.get(part.id)).toMatchObject({ state: 3, remainingMinor: part.toPayMinor - 10_000 });
    expect(byId.get(over.id)).toMatchObject({ state: 4, remainingMinor: 0 });
    const overEvent = await t.db
      .select()
      .from(invoiceTimeline)
      .where(and(eq(invoiceTimeline.invoiceId, over.id), eq(invoiceTimeline.event, 21)));
    expect(overEvent[0]?.details).toMatchObject({ overpaidMinor: 5_000 });
    expect(await booksOf([full.id, part.id, over.id])).toEqual([]);

    const [before] = await t.db.select({ n: count() }).from(postings);
    const twice = await importBgmaxFile(t.db, bytes, {
      filename: 'in.bgmax',
      operatorId: null,
      now: t.clock.now(),
    });
    expect(twice).toMatchObject({ duplicateFile: true, registered: 0 });
    const [afterTwice] = await t.db.select({ n: count() }).from(postings);
    expect(afterTwice?.n).toBe(before?.n);
  });

  it('refuses a broken file whole, naming the line and the rule, and writes nothing', async () => {
    const [inv] = await approvedInvoices(1);
    const good = incomingPaymentsFile({
      paymentDate: today(),
      deposits: [
        { bankgiro: DEMO_BANKGIROS.bygg, payments: [{ reference: inv?.ocr ?? '', amountMinor: 100 }] },
      ],
    });
    const text = Buffer.from(good).toString('latin1');
    // Break the deposit total of the TK15 record.
    const broken = text.replace(
      /^15(.{48})(\d{18})/m,
      (_m, head: string, amount: string) => `15${head}${String(Number(amount) + 1).padStart(18, '0')}`,
    );
    expect(broken).not.toBe(text);
    const before = await writtenCounts();
    await expect(
      importBgmaxFile(t.db, Buffer.from(broken, 'latin1'), {
        filename: 'x',
        operatorId: null,
        now: t.clock.now(),
      }),
    ).rejects.toMatchObject({
      code: 'bgmax.invalid',
      details: { rule: expect.stringMatching(/^bgmax\./), line: expect.any(Number) },
    });
    expect(await writtenCounts()).toEqual(before);
  });

  it('applies a file written in many batches in file order: an invoice paid across two batches ends paid', async () => {
    const [a, b] = await approvedInvoices(2, 'factoring');
    if (!a || !b) throw new Error('two invoices');
    const half = Math.floor(a.toPayMinor / 2);
    const bytes = paidToBygg(t, [
      { reference: a.ocr ?? '', amountMinor: half },
      { reference: '88888888888', amountMinor: 500 },
      { reference: b.ocr ?? '', amountMinor: b.toPayMinor },
      { reference: '77777777777', amountMinor: 600 },
      { reference: a.ocr ?? '', amountMinor: a.toPayMinor - half + 250 },
    ]);
    const result = await importBgmaxFile(t.db, bytes, {
      filename: 'batches.bgmax',
      operatorId: null,
      now: t.clock.now(),
      batchSize: 2,
    });
    expect(result).toMatchObject({ payments: 5, registered: 5, matched: 3, unmatched: 2, overpayments: 1 });
    const [file] = await t.db.select().from(paymentFiles).where(eq(paymentFiles.id, result.fileId));
    expect(file).toMatchObject({ paymentCount: 5, registeredCount: 5, matchedCount: 3, unmatchedCount: 2 });
    const after = new Map(
      (
        await t.db
          .select()
          .from(invoices)
          .where(inArray(invoices.id, [a.id, b.id]))
      ).map((i) => [i.id, i]),
    );
    expect(after.get(a.id)).toMatchObject({ state: 4, remainingMinor: 0 });
    expect(after.get(b.id)).toMatchObject({ state: 4, remainingMinor: 0 });
    const timeline = await t.db
      .select({ event: invoiceTimeline.event, details: invoiceTimeline.details })
      .from(invoiceTimeline)
      .where(and(eq(invoiceTimeline.invoiceId, a.id), inArray(invoiceTimeline.event, [6, 7, 21])))
      .orderBy(...timelineOrder);
    expect(timeline).toEqual([
      {
        event: 7,
        details: expect.objectContaining({ amountMinor: half, remainingMinor: a.toPayMinor - half }),
      },
      { event: 6, details: expect.objectContaining({ amountMinor: a.toPayMinor - half, remainingMinor: 0 }) },
      { event: 21, details: expect.objectContaining({ overpaidMinor: 250 }) },
    ]);
    expect(await booksOf([a.id, b.id])).toEqual([]);
  });

  it('registers a payment that is in one file more than once once, within a batch and across batches', async () => {
    const [a] = await approvedInvoices(1, 'factoring');
    if (!a) throw new Error('an invoice');
    const { file } = readBgmax(
      paidToBygg(t, [
        { reference: a.ocr ?? '', amountMinor: 1_000 },
        { reference: '44444444444', amountMinor: 300 },
      ]),
    );
    const section = file.sections[0];
    const [paying, other] = section?.payments ?? [];
    if (!section || !paying || !other) throw new Error('two payments');
    // In batches of two: the copies of `paying` in the first batch, and again in the second.
    section.payments = [paying, paying, other, paying];
    section.deposit.amountMinor = Number(bgmaxSectionTotals(section.payments).amountMinor);
    section.deposit.paymentCount = section.payments.length;
    const bytes = writeBgmax({ ...file, end: bgmaxEndCounts(file.sections) });
    const result = await importBgmaxFile(t.db, bytes, {
      filename: 'copies.bgmax',
      operatorId: null,
      now: t.clock.now(),
      batchSize: 2,
    });
    expect(result).toMatchObject({ payments: 4, registered: 2, matched: 1, unmatched: 1 });
    const written = await t.db.select().from(payments).where(eq(payments.fileId, result.fileId));
    expect(written.map((p) => p.amountMinor).sort((x, y) => x - y)).toEqual([300, 1_000]);
    const [after] = await t.db.select().from(invoices).where(eq(invoices.id, a.id));
    expect(after?.remainingMinor).toBe(a.toPayMinor - 1_000);
  });

  it('shows a payment’s events on the timeline from the payment itself, and events stored before that once', async () => {
    const [a, b] = await approvedInvoices(2, 'factoring');
    if (!a || !b) throw new Error('two invoices');
    const half = Math.floor(a.toPayMinor / 2);
    const bytes = paidToBygg(t, [
      { reference: a.ocr ?? '', amountMinor: half },
      { reference: 'okänd', amountMinor: b.toPayMinor },
      { reference: a.ocr ?? '', amountMinor: a.toPayMinor - half + 250 },
    ]);
    const importedAt = t.clock.now();
    const imported = await importBgmaxFile(t.db, bytes, { filename: 'x', operatorId: null, now: importedAt });
    // Nothing of the payments is stored as an event row: the payments carry it.
    const stored = await t.db
      .select()
      .from(invoiceEvents)
      .where(and(inArray(invoiceEvents.invoiceId, [a.id, b.id]), inArray(invoiceEvents.event, [6, 7, 21])));
    expect(stored).toEqual([]);
    const [waiting] = await t.db
      .select()
      .from(payments)
      .where(and(eq(payments.status, 'unmatched'), eq(payments.fileId, imported.fileId)));
    if (!waiting) throw new Error('no unmatched payment');
    const assignedAt = new Date(importedAt.getTime() + 60_000);
    await assignPayment(t.db, waiting.id, b.id, OPERATOR, assignedAt, '127.0.0.1');

    const timelineOf = async (invoiceId: string) => {
      const [detail] = await loadDetails(t.db, a.issuerId, [invoiceId], today());
      return (detail?.events ?? []).filter((e) => [6, 7, 21].includes(e.event));
    };
    const paymentDate = today();
    expect(await timelineOf(a.id)).toEqual([
      expect.objectContaining({
        event: 7,
        date: importedAt.toISOString(),
        details: { amountMinor: half, paymentDate, remainingMinor: a.toPayMinor - half },
      }),
      expect.objectContaining({
        event: 6,
        details: { amountMinor: a.toPayMinor - half, paymentDate, remainingMinor: 0 },
      }),
      expect.objectContaining({ event: 21, details: { overpaidMinor: 250, paymentDate } }),
    ]);
    // An event stored at the same instant after the import comes after the payments' events: one
    // order of writing for both.
    await t.db
      .insert(invoiceEvents)
      .values({ invoiceId: a.id, issuerId: a.issuerId, event: 23, at: importedAt });
    const [withMessage] = await loadDetails(t.db, a.issuerId, [a.id], today());
    expect(
      (withMessage?.events ?? []).filter((e) => [6, 7, 21, 23].includes(e.event)).map((e) => e.event),
    ).toEqual([7, 6, 21, 23]);
    // An assigned payment's event is dated when it was assigned.
    const paidB = await timelineOf(b.id);
    expect(paidB).toEqual([
      expect.objectContaining({
        event: 6,
        date: assignedAt.toISOString(),
        details: { amountMinor: b.toPayMinor, paymentDate, remainingMinor: 0 },
      }),
    ]);
    // A payment applied before migration 0017 has no remaining amount kept: its stored event shows,
    // once.
    await t.db.update(payments).set({ remainingAfterMinor: null }).where(eq(payments.id, waiting.id));
    await t.db.insert(invoiceEvents).values({
      invoiceId: b.id,
      issuerId: b.issuerId,
      event: 6,
      at: assignedAt,
      details: { amountMinor: b.toPayMinor, paymentDate, remainingMinor: 0 },
    });
    expect((await timelineOf(b.id)).map(({ eventID, ...e }) => e)).toEqual(
      paidB.map(({ eventID, ...e }) => e),
    );
  });

  it('writes nothing when a later batch fails: the batches before it are rolled back too', async () => {
    const [a, b] = await approvedInvoices(2, 'factoring');
    if (!a || !b) throw new Error('two invoices');
    const bytes = paidToBygg(t, [
      { reference: a.ocr ?? '', amountMinor: a.toPayMinor },
      { reference: '66666666666', amountMinor: 500 },
      { reference: b.ocr ?? '', amountMinor: 1_000 },
      { reference: '55555555555', amountMinor: 700 },
    ]);
    const before = await writtenCounts();
    // The database refuses the last payment, which is in the second batch of two.
    await whileRefusing(t.db, 'payments', `new.reference = '55555555555'`, async () => {
      await expect(
        importBgmaxFile(t.db, bytes, {
          filename: 'fails.bgmax',
          operatorId: null,
          now: t.clock.now(),
          batchSize: 2,
        }),
      ).rejects.toThrow();
    });
    expect(await writtenCounts()).toEqual(before);
    const untouched = await t.db
      .select()
      .from(invoices)
      .where(inArray(invoices.id, [a.id, b.id]));
    expect(untouched.map((i) => i.remainingMinor).sort()).toEqual([a.toPayMinor, b.toPayMinor].sort());
  });

  it('counts a payment once when it comes again in another file', async () => {
    const [inv] = await approvedInvoices(1);
    const deposit = {
      bankgiro: DEMO_BANKGIROS.bygg,
      payments: [{ reference: inv?.ocr ?? '', amountMinor: 100 }],
    };
    const a = incomingPaymentsFile({ paymentDate: today(), deposits: [deposit] });
    const b = incomingPaymentsFile({
      paymentDate: today(),
      deposits: [deposit],
      writtenAt: `${today()}T07:00:00.000000`,
    });
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
    await importBgmaxFile(t.db, a, { filename: 'a', operatorId: null, now: t.clock.now() });
    const second = await importBgmaxFile(t.db, b, { filename: 'b', operatorId: null, now: t.clock.now() });
    expect(second).toMatchObject({ duplicateFile: false, payments: 1, registered: 0 });
    const [after] = await t.db
      .select()
      .from(invoices)
      .where(eq(invoices.id, inv?.id ?? ''));
    expect(after?.remainingMinor).toBe((inv?.toPayMinor ?? 0) - 100);
  });

  it('an operator assigns an unmatched payment; a second assignment is refused', async () => {
    const [inv] = await approvedInvoices(1);
    if (!inv) throw new Error('one invoice');
    const bytes = incomingPaymentsFile({
      paymentDate: today(),
      deposits: [
        {
          bankgiro: DEMO_BANKGIROS.bygg,
          payments: [{ reference: 'fel referens', amountMinor: inv.toPayMinor }],
        },
      ],
    });
    const imported = await importBgmaxFile(t.db, bytes, {
      filename: 'x',
      operatorId: null,
      now: t.clock.now(),
    });
    // This file's payment (the demo has unmatched payments of its own).
    const [waiting] = await t.db
      .select()
      .from(payments)
      .where(and(eq(payments.status, 'unmatched'), eq(payments.fileId, imported.fileId)));
    if (!waiting) throw new Error('no unmatched payment');
    const done = await assignPayment(t.db, waiting.id, inv.id, OPERATOR, t.clock.now(), '127.0.0.1');
    expect(done).toMatchObject({ state: 4, remainingMinor: 0, appliedMinor: inv.toPayMinor });
    await expect(
      assignPayment(t.db, waiting.id, inv.id, OPERATOR, t.clock.now(), '127.0.0.1'),
    ).rejects.toMatchObject({
      code: 'payments.already_assigned',
    });
    expect(await booksOf([inv.id])).toEqual([]);
    // In and out of the unmatched payments again: the payment left nothing there.
    const unmatched = await t.db
      .select()
      .from(postings)
      .where(and(eq(postings.account, 'unmatched_payments'), eq(postings.paymentId, waiting.id)));
    expect(unmatched).toHaveLength(2);
    expect(unmatched.reduce((s, p) => s + p.amountMinor, 0)).toBe(0);
  });
});

describe('BGMAX deductions and extra references', () => {
  const unmatchedQueue = async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/backoffice/payments/unmatched?pageSize=100',
      headers: bearer(await t.loginOperator()),
    });
    expect(res.statusCode).toBe(200);
    return res.json() as { items: { paymentID: string }[]; total: number };
  };

  it('keeps a TK21 deduction as a deduction: out of the unmatched queue, never assignable, booked off the deposit', async () => {
    const issuer = await bygg();
    const [inv] = await approvedInvoices(1);
    if (!inv) throw new Error('one invoice');
    const queueBefore = await unmatchedQueue();
    const bytes = paidToBygg(t, [
      { reference: inv.ocr ?? '', amountMinor: inv.toPayMinor },
      // A credit invoice of the issuer's that the payer took off what it paid.
      { reference: '89853', amountMinor: 50_000, deduction: true },
    ]);
    const [deposit] = readBgmax(bytes).file.sections.map((s) => s.deposit.amountMinor);
    expect(deposit).toBe(inv.toPayMinor - 50_000);
    const result = await importBgmaxFile(t.db, bytes, {
      filename: 'tk21.txt',
      operatorId: null,
      now: t.clock.now(),
    });
    expect(result).toMatchObject({ payments: 2, registered: 2, matched: 1, unmatched: 0, deductions: 1 });
    const [file] = await t.db.select().from(paymentFiles).where(eq(paymentFiles.id, result.fileId));
    expect(file).toMatchObject({ matchedCount: 1, unmatchedCount: 0 });
    const of = await t.db.select().from(payments).where(eq(payments.fileId, result.fileId));
    const deduction = of.find((p) => p.amountMinor < 0);
    expect(deduction).toMatchObject({
      status: 'deduction',
      amountMinor: -50_000,
      reference: '89853',
      issuerId: issuer.id,
      invoiceId: null,
    });
    if (!deduction) throw new Error('no deduction');
    // The invoice was paid in full by its payment; the deduction is no payment of it.
    const [after] = await t.db.select().from(invoices).where(eq(invoices.id, inv.id));
    expect(after).toMatchObject({ state: 4, remainingMinor: 0 });

    // Not in the operator's queue, and refused if an operator tries to assign it anyway.
    const queue = await unmatchedQueue();
    expect(queue.total).toBe(queueBefore.total);
    expect(queue.items.map((p) => p.paymentID)).not.toContain(deduction.id);
    await expect(
      assignPayment(t.db, deduction.id, inv.id, OPERATOR, t.clock.now(), '127.0.0.1'),
    ).rejects.toMatchObject({ code: 'payments.deduction' });

    // The book: the bank holds exactly the deposit; the deduction waits on its own account.
    const booked = await t.db
      .select()
      .from(postings)
      .where(
        inArray(
          postings.paymentId,
          of.map((p) => p.id),
        ),
      );
    const sumOf = (account: string) =>
      booked.filter((p) => p.account === account).reduce((s, p) => s + p.amountMinor, 0);
    expect(sumOf('bank')).toBe(deposit);
    expect(sumOf('payment_deductions')).toBe(50_000);
    expect(sumOf('unmatched_payments')).toBe(0);
    expect(
      booked.filter((p) => p.paymentId === deduction.id).map((p) => [p.account, p.amountMinor, p.kind]),
    ).toEqual(
      expect.arrayContaining([
        ['bank', -50_000, 'deduction'],
        ['payment_deductions', 50_000, 'deduction'],
      ]),
    );
    expect(await checkBooks(t.db, issuer.id)).toEqual([]);
  });

  it('matches a payment on its only TK22 reference when its own reference names no invoice', async () => {
    const [one, two, three, four] = await approvedInvoices(4);
    if (!one || !two || !three || !four) throw new Error('four invoices');
    const ocr = (i: { ocr: string | null }) => i.ocr ?? '';
    const bytes = paidToBygg(t, [
      // Extended form registration: a blank reference (code 0), the OCR comes as a TK22.
      {
        reference: '',
        amountMinor: one.toPayMinor,
        extraReferences: [{ reference: ocr(one), amountMinor: 0 }],
      },
      // A reference the payer wrote wrong (code 3) and the correct one as a TK22 of the whole amount.
      {
        reference: 'faktura två',
        amountMinor: 10_000,
        extraReferences: [{ reference: ocr(two), amountMinor: 10_000 }],
      },
      // Two invoices in one payment, split by the payer: each part pays its own (issue #16).
      {
        reference: '',
        amountMinor: 20_000,
        extraReferences: [
          { reference: ocr(three), amountMinor: 15_000 },
          { reference: ocr(four), amountMinor: 5_000 },
        ],
      },
      // A TK22 split off a larger payment is not the whole payment either.
      {
        reference: '',
        amountMinor: 30_000,
        extraReferences: [{ reference: ocr(three), amountMinor: 20_000 }],
      },
      // Its own reference comes first.
      {
        reference: ocr(four),
        amountMinor: 1_000,
        extraReferences: [{ reference: ocr(three), amountMinor: 0 }],
      },
    ]);
    const result = await importBgmaxFile(t.db, bytes, {
      filename: 'tk22.txt',
      operatorId: null,
      now: t.clock.now(),
    });
    expect(result).toMatchObject({ payments: 5, registered: 6, matched: 5, unmatched: 1, deductions: 0 });
    const byId = new Map(
      (
        await t.db
          .select()
          .from(invoices)
          .where(inArray(invoices.id, [one.id, two.id, three.id, four.id]))
      ).map((i) => [i.id, i]),
    );
    expect(byId.get(one.id)).toMatchObject({ state: 4, remainingMinor: 0 });
    expect(byId.get(two.id)).toMatchObject({ state: 3, remainingMinor: two.toPayMinor - 10_000 });
    expect(byId.get(three.id)).toMatchObject({ state: 3, remainingMinor: three.toPayMinor - 15_000 });
    expect(byId.get(four.id)).toMatchObject({ state: 3, remainingMinor: four.toPayMinor - 5_000 - 1_000 });
    const of = await t.db
      .select()
      .from(payments)
      .where(eq(payments.fileId, result.fileId))
      .orderBy(asc(payments.bgcSerial), asc(payments.part));
    expect(of.map((p) => [p.status, p.invoiceId, p.reference, p.amountMinor])).toEqual([
      ['matched', one.id, ocr(one), one.toPayMinor],
      ['matched', two.id, ocr(two), 10_000],
      ['matched', three.id, ocr(three), 15_000],
      ['matched', four.id, ocr(four), 5_000],
      ['unmatched', null, ocr(three), 30_000],
      ['matched', four.id, ocr(four), 1_000],
    ]);
    expect(await booksOf([one.id, two.id, three.id, four.id])).toEqual([]);
  });

  it('migration 0013 turns the deductions imported as unmatched payments into deductions', async () => {
    const issuer = await bygg();
    // A deduction as the import wrote it before: unmatched, negative, Dr unmatched_payments / Cr bank.
    const fileId = randomUUID();
    await t.db.insert(paymentFiles).values({
      id: fileId,
      sha256: 'f'.repeat(64),
      filename: 'old.txt',
      writtenAt: '2026-03-01T06:00:00.000000',
      testMark: 'T',
      paymentCount: 1,
      registeredCount: 1,
      matchedCount: 0,
      unmatchedCount: 1,
      operatorId: null,
      importedAt: t.clock.now(),
    });
    const paymentId = randomUUID();
    await t.db.insert(payments).values({
      id: paymentId,
      fileId,
      dedupeKey: `${DEMO_BANKGIROS.bygg}|2026-03-01|1|000000000001|TK21`,
      receivingBankgiro: DEMO_BANKGIROS.bygg,
      issuerId: issuer.id,
      status: 'unmatched',
      reference: '89853',
      amountMinor: -50_000,
      currency: 'SEK',
      paymentDate: '2026-03-01',
      channel: 1,
      bgcSerial: '000000000001',
    });
    const journalId = randomUUID();
    await t.db.insert(postings).values([
      {
        journalId,
        issuerId: issuer.id,
        account: 'bank',
        amountMinor: -50_000,
        currency: 'SEK',
        kind: 'unmatched',
        paymentId,
      },
      {
        journalId,
        issuerId: issuer.id,
        account: 'unmatched_payments',
        amountMinor: 50_000,
        currency: 'SEK',
        kind: 'unmatched',
        paymentId,
      },
    ]);
    const migration = readFileSync(join(migrationsDir(), '0013_payment_deductions.sql'), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint'))
      if (statement.trim()) await t.db.execute(sql.raw(statement));

    const [moved] = await t.db.select().from(payments).where(eq(payments.id, paymentId));
    expect(moved?.status).toBe('deduction');
    const [file] = await t.db.select().from(paymentFiles).where(eq(paymentFiles.id, fileId));
    expect(file?.unmatchedCount).toBe(0);
    const booked = await t.db.select().from(postings).where(eq(postings.paymentId, paymentId));
    const sumOf = (account: string) =>
      booked.filter((p) => p.account === account).reduce((s, p) => s + p.amountMinor, 0);
    expect([sumOf('bank'), sumOf('unmatched_payments'), sumOf('payment_deductions')]).toEqual([
      -50_000, 0, 50_000,
    ]);
    expect((await checkBooks(t.db, issuer.id)).filter((v) => v.id === paymentId)).toEqual([]);
  });
});

describe('daily job', () => {
  it('takes an unpaid invoice through every step on its day, once, then charges it back', async () => {
    const [inv] = await approvedInvoices(1, 'factoring');
    if (!inv) throw new Error('one invoice');
    const issuer = await bygg();
    // The debt waits for payouts here; its claim after the issuer's days is debt-claims.test.ts's.
    await t.db.update(issuers).set({ debtClaimDays: 365 }).where(eq(issuers.id, issuer.id));
    const run = (days: number) =>
      runDailyJob(t.db, {
        date: addDays(inv.dueDate, days),
        now: new Date(`${addDays(inv.dueDate, days)}T05:00:00Z`),
        referenceRateBp: DEFAULT_REFERENCE_RATE_BP,
      });
    const eventsOf = async () =>
      (
        await t.db
          .select()
          .from(invoiceTimeline)
          .where(eq(invoiceTimeline.invoiceId, inv.id))
          .orderBy(...timelineOrder)
      ).map((e) => e.event);
    const base = await eventsOf();
    await run(0);
    expect(await eventsOf()).toEqual(base);
    await run(1);
    expect((await eventsOf()).slice(base.length)).toEqual([25]);
    await run(1);
    expect((await eventsOf()).slice(base.length)).toEqual([25]);
    await run(9);
    expect((await eventsOf()).slice(base.length)).toEqual([25]);
    await run(10);
    expect((await eventsOf()).slice(base.length)).toEqual([25, 8]);
    // Missed days: reminder 2 and collection come together, with an interest item.
    await run(40);
    expect((await eventsOf()).slice(base.length)).toEqual([25, 8, 9, 10, 14]);
    await run(issuer.recourseDays);
    const [charged] = await t.db.select().from(invoices).where(eq(invoices.id, inv.id));
    expect(charged).toMatchObject({ state: 5, remainingMinor: inv.toPayMinor });
    expect((await eventsOf()).slice(base.length)).toEqual([25, 8, 9, 10, 14, 22]);
    expect(await booksOf([inv.id])).toEqual([]);
    await run(issuer.recourseDays);
    expect((await eventsOf()).slice(base.length)).toEqual([25, 8, 9, 10, 14, 22]);

    // The charge back is set off in a settlement only once payouts cover it. Here the demo's own charge
    // backs leave Demo Bygg owing us more than we owe it: the run settles nothing for it, and the
    // invoice's payout and charge back wait open, with no money moved and no settlement event.
    const payout = await payoutOn(t);
    expect(payout.settlements.filter((s) => s.issuerId === issuer.id)).toEqual([]);
    const [owed] = payout.carried.filter((c) => c.issuerId === issuer.id);
    expect(owed?.currency).toBe('SEK');
    expect(owed?.totalMinor).toBeLessThan(0);
    expect(await t.db.select().from(settlementRows).where(eq(settlementRows.invoiceId, inv.id))).toEqual([]);
    const open = await t.db
      .select()
      .from(postings)
      .where(and(eq(postings.invoiceId, inv.id), eq(postings.account, 'issuer_payable')));
    expect(open.map((p) => [p.kind, p.amountMinor, p.settlementId]).sort()).toEqual(
      [
        ['chargeBack', inv.toPayMinor, null],
        ['recognise', -inv.toPayMinor, null],
      ].sort(),
    );
    expect((await eventsOf()).slice(base.length)).toEqual([25, 8, 9, 10, 14, 22]);
    expect(await checkBooks(t.db, issuer.id)).toEqual([]);
  });

  it('a payment on a charged-back invoice is passed on to the issuer', async () => {
    const { issuer, invoicesOf, netOf } = await freshIssuer(t);
    const [inv] = await invoicesOf(1, '2026-04-01');
    if (!inv) throw new Error('one invoice');
    const day = addDays(inv.dueDate, issuer.recourseDays);
    await runDailyJob(t.db, { date: day, now: new Date(`${day}T05:00:00Z`), referenceRateBp: 200 });
    const bytes = incomingPaymentsFile({
      paymentDate: day,
      deposits: [
        {
          bankgiro: DEMO_BANKGIROS.unverified,
          payments: [{ reference: inv.ocr ?? '', amountMinor: inv.toPayMinor }],
        },
      ],
    });
    expect(readBgmax(bytes).file.sections).toHaveLength(1);
    await importBgmaxFile(t.db, bytes, { filename: 'x', operatorId: null, now: t.clock.now() });
    const [after] = await t.db.select().from(invoices).where(eq(invoices.id, inv.id));
    expect(after).toMatchObject({ state: 5, remainingMinor: 0 });
    const [paid] = await t.db
      .select()
      .from(invoiceTimeline)
      .where(and(eq(invoiceTimeline.invoiceId, inv.id), eq(invoiceTimeline.event, 6)));
    expect(paid?.details).toMatchObject({ forwarded: 1, amountMinor: inv.toPayMinor });
    expect(await checkBooks(t.db, issuer.id)).toEqual([]);
    // Never paid out before: the payout, its charge back and the payment passed on settle together.
    const run = await payoutOn(t, day);
    const rowsOf = await t.db.select().from(settlementRows).where(eq(settlementRows.invoiceId, inv.id));
    expect(rowsOf.map((r) => [r.kind, r.grossMinor, r.feeMinor]).sort()).toEqual(
      [
        ['chargeBack', -inv.toPayMinor, 0],
        ['payment', inv.toPayMinor, 0],
        ['payout', inv.toPayMinor, inv.toPayMinor - netOf(inv.toPayMinor)],
      ].sort(),
    );
    expect(run.settlements.filter((s) => s.issuerId === issuer.id).map((s) => s.totalPayoutMinor)).toEqual([
      netOf(inv.toPayMinor),
    ]);
    expect(await checkBooks(t.db, issuer.id)).toEqual([]);
  });

  it('distributes queued invoices the day after sending and books them', async () => {
    const queued = await sentInvoices(t, { n: 2, service: 'invoicingService' });
    expect(queued.map((q) => q.state)).toEqual([6, 6]);
    const day = addDays(today(), 1);
    const result = await runDailyJob(t.db, {
      date: day,
      now: new Date(`${day}T05:00:00Z`),
      referenceRateBp: 200,
    });
    expect(result.distributed).toBeGreaterThanOrEqual(queued.length);
    const after = await t.db
      .select()
      .from(invoices)
      .where(
        inArray(
          invoices.id,
          queued.map((q) => q.id),
        ),
      );
    expect(after.every((i) => i.state === 2)).toBe(true);
    expect(await booksOf(queued.map((q) => q.id))).toEqual([]);
  });
});
