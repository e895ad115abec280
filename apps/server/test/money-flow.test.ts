import { readBgmax } from '@portal/domain/bgmax';
import { addDays } from '@portal/domain/calendar-date';
import { DEFAULT_REFERENCE_RATE_BP, feeFor } from '@portal/domain/money-flow';
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  invoiceEvents,
  invoices,
  issuers,
  paymentFiles,
  payments,
  postings,
  settlementRows,
  settlements,
} from '../src/db/schema';
import { DEMO_BANKGIROS } from '../src/db/seed/demo';
import { runDailyJob } from '../src/services/daily-job';
import { incomingPaymentsFile } from '../src/services/incoming-payments-file';
import { todayIn } from '../src/services/invoice-math';
import { checkBooks } from '../src/services/ledger';
import { assignPayment, importBgmaxFile } from '../src/services/payment-import';
import { runPayout } from '../src/services/payouts';
import { sentInvoices, TEST_OPERATOR } from './support/money';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
beforeEach(() => t.reset());
afterAll(() => t.close());

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

const today = () => todayIn(t.clock.now());

async function booksOf(ids: string[]) {
  const issuer = await bygg();
  return (await checkBooks(t.db, issuer.id)).filter((v) => ids.includes(v.id));
}

describe('payout runs', () => {
  it('settles approved invoices with the issuer’s fees, once', async () => {
    // What the demo's last payout run left (approvals since) is settled first.
    await runPayout(t.db, { payoutDate: today(), now: t.clock.now(), operatorId: null });
    const approved = await approvedInvoices(3, 'factoring');
    const run = await runPayout(t.db, { payoutDate: today(), now: t.clock.now(), operatorId: null });
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

    const again = await runPayout(t.db, { payoutDate: today(), now: t.clock.now(), operatorId: null });
    expect(again.settlements).toEqual([]);
  });
});

describe('BGMAX import', () => {
  it('pays in full, in part and over, keeps the unknown unmatched, and imports a file once', async () => {
    const [full, part, over] = await approvedInvoices(3, 'factoring');
    if (!full || !part || !over) throw new Error('three invoices');
    const bytes = incomingPaymentsFile({
      paymentDate: today(),
      deposits: [
        {
          bankgiro: DEMO_BANKGIROS.bygg,
          payments: [
            { reference: full.ocr ?? '', amountMinor: full.toPayMinor, name: 'Betalare Ett AB' },
            { reference: part.ocr ?? '', amountMinor: 10_000 },
            { reference: over.ocr ?? '', amountMinor: over.toPayMinor + 5_000 },
            { reference: '99999999999', amountMinor: 1_234 },
          ],
        },
        { bankgiro: '9912346', payments: [{ reference: full.ocr ?? '', amountMinor: 777 }] },
      ],
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
      .from(invoiceEvents)
      .where(and(eq(invoiceEvents.invoiceId, over.id), eq(invoiceEvents.event, 21)));
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
    const counts = async () => ({
      files: (await t.db.select({ n: count() }).from(paymentFiles))[0]?.n,
      payments: (await t.db.select({ n: count() }).from(payments))[0]?.n,
      postings: (await t.db.select({ n: count() }).from(postings))[0]?.n,
    });
    const before = await counts();
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
    expect(await counts()).toEqual(before);
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
    await importBgmaxFile(t.db, bytes, { filename: 'x', operatorId: null, now: t.clock.now() });
    const [waiting] = await t.db.select().from(payments).where(eq(payments.status, 'unmatched'));
    if (!waiting) throw new Error('no unmatched payment');
    const done = await assignPayment(t.db, waiting.id, inv.id, OPERATOR, t.clock.now(), '127.0.0.1');
    expect(done).toMatchObject({ state: 4, remainingMinor: 0, appliedMinor: inv.toPayMinor });
    await expect(
      assignPayment(t.db, waiting.id, inv.id, OPERATOR, t.clock.now(), '127.0.0.1'),
    ).rejects.toMatchObject({
      code: 'payments.already_assigned',
    });
    expect(await booksOf([inv.id])).toEqual([]);
    const unmatched = await t.db.select().from(postings).where(eq(postings.account, 'unmatched_payments'));
    expect(unmatched.reduce((s, p) => s + p.amountMinor, 0)).toBe(0);
  });
});

describe('daily job', () => {
  it('takes an unpaid invoice through every step on its day, once, then charges it back', async () => {
    const [inv] = await approvedInvoices(1, 'factoring');
    if (!inv) throw new Error('one invoice');
    const issuer = await bygg();
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
          .from(invoiceEvents)
          .where(eq(invoiceEvents.invoiceId, inv.id))
          .orderBy(asc(invoiceEvents.seq))
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

    // The charge back is deducted in the next settlement (the invoice was paid out before).
    const payout = await runPayout(t.db, { payoutDate: today(), now: t.clock.now(), operatorId: null });
    const rowsOf = await t.db.select().from(settlementRows).where(eq(settlementRows.invoiceId, inv.id));
    expect(rowsOf.map((r) => [r.kind, r.grossMinor]).sort()).toEqual(
      [
        ['chargeBack', -inv.toPayMinor],
        ['payout', inv.toPayMinor],
      ].sort(),
    );
    expect(payout.settlements.length).toBeGreaterThan(0);
    const all = await t.db.select().from(settlements);
    expect(all.length).toBeGreaterThan(0);
    expect(
      await checkBooks(t.db, issuer.id).then((v) => v.filter((x) => x.rule !== 'invoice_remaining')),
    ).toEqual([]);
  });

  it('a payment on a charged-back invoice is passed on to the issuer', async () => {
    const [inv] = await approvedInvoices(1, 'factoring');
    if (!inv) throw new Error('one invoice');
    const issuer = await bygg();
    const day = addDays(inv.dueDate, issuer.recourseDays);
    await runDailyJob(t.db, { date: day, now: new Date(`${day}T05:00:00Z`), referenceRateBp: 200 });
    const bytes = incomingPaymentsFile({
      paymentDate: day,
      deposits: [
        {
          bankgiro: DEMO_BANKGIROS.bygg,
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
      .from(invoiceEvents)
      .where(and(eq(invoiceEvents.invoiceId, inv.id), eq(invoiceEvents.event, 6)));
    expect(paid?.details).toMatchObject({ forwarded: 1, amountMinor: inv.toPayMinor });
    expect(await booksOf([inv.id])).toEqual([]);
    const run = await runPayout(t.db, { payoutDate: day, now: t.clock.now(), operatorId: null });
    const rowsOf = await t.db.select().from(settlementRows).where(eq(settlementRows.invoiceId, inv.id));
    expect(rowsOf.map((r) => r.kind).sort()).toEqual(['chargeBack', 'payment', 'payout']);
    const forwarded = rowsOf.find((r) => r.kind === 'payment');
    expect(forwarded).toMatchObject({ grossMinor: inv.toPayMinor, feeMinor: 0 });
    expect(run.settlements.length).toBeGreaterThan(0);
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
