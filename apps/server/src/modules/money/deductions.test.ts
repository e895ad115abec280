// The process of BGMAX TK21 deductions (issue #16, docs/MONEY.md "Deductions (TK21)"): each scenario
// through the real import (files written with our writer, read by our reader) and payout paths, over
// the back office's HTTP routes, with the books checked after every step.
import { readBgmax } from '@portal/domain/bgmax';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { backofficeCli } from '../../../test/support/backoffice-cli';
import { freshIssuer, payoutOn, sentInvoices, todayOf } from '../../../test/support/money';
import { bearer } from '../../../test/support/test-app';
import { useTestApp } from '../../../test/support/use-test-app';
import { auditLog, invoices, invoiceTimeline, payments, settlementRows } from '../../db/schema';
import { DEMO_BANKGIROS } from '../../db/seed/demo';
import {
  checkBooks,
  type IncomingPayment,
  importBgmaxFile,
  incomingPaymentsFile,
  runDailyJob,
} from './money.service';

const t = useTestApp({ resetEach: true });

let serial = 0;

/** Imports one day's BGMAX file into Nystart Måleri's bankgiro, as Bankgirot would deliver it. */
async function imported(list: IncomingPayment[]) {
  serial++;
  const bytes = incomingPaymentsFile({
    paymentDate: todayOf(t),
    deposits: [{ bankgiro: DEMO_BANKGIROS.unverified, payments: list }],
    firstSerial: 770_000 + serial * 100,
    firstDeposit: 77_000 + serial,
  });
  const result = await importBgmaxFile(t.db, bytes, {
    filename: `tk21-${serial}.txt`,
    operatorId: null,
    now: t.clock.now(),
  });
  await booksSound();
  return { bytes, result };
}

async function booksSound() {
  expect(await checkBooks(t.db)).toEqual([]);
}

async function operatorCall(method: 'GET' | 'POST', url: string, payload?: unknown) {
  const res = await t.app.inject({
    method,
    url,
    headers: bearer(await t.loginOperator()),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

const resolve = (id: string, body: unknown) =>
  operatorCall('POST', `/api/backoffice/deductions/${id}/resolve`, body);

async function openDeductions() {
  const res = await operatorCall('GET', '/api/backoffice/deductions?pageSize=100');
  expect(res.status).toBe(200);
  return res.body as { items: { paymentID: string }[]; total: number };
}

/** The deduction the import registered with this reference. */
async function deductionOf(reference: string) {
  const [found] = await t.db
    .select()
    .from(payments)
    .where(and(eq(payments.reference, reference), eq(payments.status, 'deduction')));
  if (!found) throw new Error(`no deduction ${reference}`);
  return found;
}

/**
 * A day's file in which the payer pays the invoice in full and takes `taken` off the same deposit as a
 * deduction (TK21): the deduction the import registered.
 */
async function paidLessDeduction(
  invoice: { ocr: string | null; toPayMinor: number },
  taken: Pick<IncomingPayment, 'reference' | 'amountMinor' | 'name'>,
) {
  await imported([
    { reference: invoice.ocr ?? '', amountMinor: invoice.toPayMinor },
    { ...taken, deduction: true },
  ]);
  return deductionOf(taken.reference);
}

async function eventsOf(invoiceId: string) {
  return t.db.select().from(invoiceTimeline).where(eq(invoiceTimeline.invoiceId, invoiceId));
}

async function invoiceOf(id: string) {
  const [found] = await t.db.select().from(invoices).where(eq(invoices.id, id));
  if (!found) throw new Error('no invoice');
  return found;
}

async function paymentsReport(username: string) {
  const day = todayOf(t);
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/limited/reports/payments?from=${day}&to=${day}&pageSize=100`,
    headers: bearer(await t.login(username)),
  });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    items: { paymentID: string; amountMinor: number; appliedMinor: number; deduction: string | null }[];
  };
}

/** The rows of one of the customer's settlements, as its transfer-cost detail answers them. */
async function transferCostRows(username: string, settlementId: string | undefined) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/limited/transfercosts/${settlementId}`,
    headers: bearer(await t.login(username)),
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as { rows: { items: Record<string, unknown>[] } }).rows.items;
}

describe('deductions: charged to the issuer', () => {
  it('lists it, charges it once, and the next payout run sets it off as a deduction row with the payer’s reference', async () => {
    const fresh = await freshIssuer(t);
    const [a] = await fresh.invoicesOf(1, '2026-04-01');
    if (!a) throw new Error('one invoice');
    // The purchase is paid out first: what the issuer is owed afterwards is only what the test makes.
    await payoutOn(t);
    // The payer pays the invoice and takes a credit note of the issuer's off the deposit.
    const { bytes } = await imported([
      { reference: a.ocr ?? '', amountMinor: a.toPayMinor, name: 'Betalare AB' },
      { reference: a.ocr ?? '', amountMinor: 40_000, deduction: true, name: 'Betalare AB' },
    ]);
    expect(readBgmax(bytes).file.sections[0]?.deposit.amountMinor).toBe(a.toPayMinor - 40_000);
    const deduction = await deductionOf(a.ocr ?? '');

    const open = await openDeductions();
    expect(open.items).toContainEqual({
      paymentID: deduction.id,
      issuerID: fresh.issuer.id,
      issuerName: 'Nystart Måleri AB',
      receivingBankgiro: DEMO_BANKGIROS.unverified,
      reference: a.ocr,
      payerName: 'Betalare AB',
      amountMinor: 40_000,
      currency: 'SEK',
      paymentDate: todayOf(t),
    });

    const done = await resolve(deduction.id, { action: 'chargeIssuer' });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toEqual({
      paymentID: deduction.id,
      action: 'chargeIssuer',
      issuerID: fresh.issuer.id,
      invoiceID: a.id,
      amountMinor: 40_000,
      currency: 'SEK',
      invoiceState: null,
      remainingMinor: null,
    });
    await booksSound();
    // Resolved once: gone from the queue, a second time refused with the way it was resolved.
    expect((await openDeductions()).items.map((d) => d.paymentID)).not.toContain(deduction.id);
    const again = await resolve(deduction.id, { action: 'settleInvoice', invoiceID: a.id });
    expect(again).toEqual({
      status: 409,
      body: expect.objectContaining({
        code: 'deductions.already_resolved',
        details: { action: 'chargeIssuer' },
      }),
    });
    // The invoice the reference names stays paid; its timeline tells the customer (event 29).
    expect(await invoiceOf(a.id)).toMatchObject({ state: 4, remainingMinor: 0 });
    const credit = (await eventsOf(a.id)).find((e) => e.event === 29);
    expect(credit?.details).toEqual({ amountMinor: 40_000, reference: a.ocr, paymentDate: todayOf(t) });
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.event, 'backoffice.deduction.resolved'));
    const audit = audits.find((a) => (a.details as { paymentId?: string }).paymentId === deduction.id);
    expect(audit?.details).toMatchObject({ paymentId: deduction.id, action: 'chargeIssuer' });
    // The payments report shows it with how it was handled.
    const report = await paymentsReport(fresh.username);
    expect(report.items.find((p) => p.paymentID === deduction.id)).toMatchObject({
      amountMinor: -40_000,
      appliedMinor: 0,
      deduction: 'chargeIssuer',
    });

    // Nothing else is owed to the issuer: the charge alone would be a negative settlement, so the run
    // carries it (the issuer owes us) and writes nothing.
    const carried = await payoutOn(t);
    expect(carried.carried).toContainEqual({
      issuerId: fresh.issuer.id,
      currency: 'SEK',
      rowCount: 1,
      totalMinor: -40_000,
    });
    expect(carried.settlements.some((s) => s.issuerId === fresh.issuer.id)).toBe(false);
    await booksSound();

    // The next purchase covers it: one settlement, its payout less the deduction, no fee on it.
    const [b] = await fresh.invoicesOf(1, '2026-04-15');
    if (!b) throw new Error('second invoice');
    const run = await payoutOn(t);
    const mine = run.settlements.find((s) => s.issuerId === fresh.issuer.id);
    expect(mine).toMatchObject({ rowCount: 2, totalPayoutMinor: fresh.netOf(b.toPayMinor) - 40_000 });
    await booksSound();
    const rows = await t.db
      .select()
      .from(settlementRows)
      .where(eq(settlementRows.settlementId, mine?.settlementId ?? ''));
    expect(rows.find((r) => r.kind === 'deduction')).toMatchObject({
      invoiceId: a.id,
      paymentId: deduction.id,
      grossMinor: -40_000,
      feeMinor: 0,
      netMinor: -40_000,
    });

    // The customer's transfer cost shows the row with the payer's reference; its BGMAX file has the
    // deduction as a TK21 with it.
    const shown = await transferCostRows(fresh.username, mine?.settlementId);
    expect(shown.find((r) => r.kind === 'deduction')).toMatchObject({
      invoiceNumber: a.invoiceNumber,
      reference: a.ocr,
      grossMinor: -40_000,
      feeMinor: 0,
    });
    expect(shown.find((r) => r.kind === 'payout')?.reference).toBeNull();
    const file = await t.app.inject({
      method: 'GET',
      url: `/api/limited/transfercosts/${mine?.settlementId}/bgmax`,
      headers: bearer(await t.login(fresh.username)),
    });
    expect(file.statusCode).toBe(200);
    const section = readBgmax(file.rawPayload).file.sections[0];
    expect(
      section?.payments.filter((p) => p.kind === 'deduction').map((p) => [p.reference, p.amountMinor]),
    ).toEqual([[a.ocr, 40_000]]);
    expect(section?.deposit.amountMinor).toBe(mine?.totalPayoutMinor);
  });

  it('a deduction whose reference names no invoice is a row of its own, with the reference only', async () => {
    const fresh = await freshIssuer(t);
    const [a, b] = await fresh.invoicesOf(2, '2026-04-01');
    if (!a || !b) throw new Error('two invoices');
    const deduction = await paidLessDeduction(a, { reference: 'KREDIT 7', amountMinor: 25_000 });
    expect((await resolve(deduction.id, { action: 'chargeIssuer' })).body).toMatchObject({ invoiceID: null });
    await booksSound();
    const run = await payoutOn(t);
    const mine = run.settlements.find((s) => s.issuerId === fresh.issuer.id);
    expect(mine).toMatchObject({
      rowCount: 3,
      totalPayoutMinor: fresh.netOf(a.toPayMinor) + fresh.netOf(b.toPayMinor) - 25_000,
    });
    await booksSound();
    const shown = await transferCostRows(fresh.username, mine?.settlementId);
    expect(shown).toHaveLength(3);
    expect(shown.find((r) => r.kind === 'deduction')).toMatchObject({
      invoiceID: null,
      invoiceNumber: '',
      recipientName: '',
      reference: 'KREDIT 7',
      netMinor: -25_000,
    });
  });
});

describe('deductions: settled against an invoice', () => {
  it('takes the deduction off what was paid on the invoice: paid back to part paid, then paid again', async () => {
    const fresh = await freshIssuer(t);
    const [a] = await fresh.invoicesOf(1, '2026-04-01');
    if (!a) throw new Error('one invoice');
    const deduction = await paidLessDeduction(a, { reference: '4711', amountMinor: 30_000 });
    const done = await resolve(deduction.id, { action: 'settleInvoice', invoiceID: a.id });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({
      action: 'settleInvoice',
      invoiceID: a.id,
      amountMinor: 30_000,
      invoiceState: 3,
      remainingMinor: 30_000,
    });
    await booksSound();
    expect(await invoiceOf(a.id)).toMatchObject({ state: 3, remainingMinor: 30_000 });
    const reversed = (await eventsOf(a.id)).find((e) => e.event === 12);
    expect(reversed?.details).toEqual({
      amountMinor: 30_000,
      reference: '4711',
      paymentDate: todayOf(t),
      remainingMinor: 30_000,
    });
    const report = await paymentsReport(fresh.username);
    expect(report.items.find((p) => p.paymentID === deduction.id)).toMatchObject({
      amountMinor: -30_000,
      appliedMinor: -30_000,
      deduction: 'settleInvoice',
    });
    // The export names how it was handled, in the last column.
    const day = todayOf(t);
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/limited/reports/payments/export?from=${day}&to=${day}&format=csv&language=en-US`,
      headers: bearer(await t.login(fresh.username)),
    });
    expect(csv.statusCode).toBe(200);
    const line = csv.body.split('\r\n').find((l) => l.includes(',4711,'));
    expect(line).toMatch(/,-300\.00,-300\.00,0\.00,SEK,"Deduction, settled against the invoice"$/);
    expect(await resolve(deduction.id, { action: 'chargeIssuer' })).toMatchObject({
      status: 409,
      body: { code: 'deductions.already_resolved' },
    });
    // The payer pays what it took: the invoice is paid again.
    await imported([{ reference: a.ocr ?? '', amountMinor: 30_000 }]);
    expect(await invoiceOf(a.id)).toMatchObject({ state: 4, remainingMinor: 0 });
    // No payout row comes of a financed invoice's settled deduction (the receivable took it).
    await payoutOn(t);
    const rows = await t.db.select().from(settlementRows).where(eq(settlementRows.paymentId, deduction.id));
    expect(rows).toEqual([]);
    await booksSound();
  });

  it('on an invoice we only collect, the issuer (passed the whole payment) bears it in its next settlement', async () => {
    const fresh = await freshIssuer(t);
    const [a] = await sentInvoices(t, { n: 1, service: 'invoicingService', username: fresh.username });
    if (!a) throw new Error('one invoice');
    expect(a.state).toBe(6);
    // Distributed by the next day's job: then on our book as a claim we hold for the issuer.
    t.clock.advance(24 * 60 * 60 * 1000);
    await runDailyJob(t.db, { date: todayOf(t), now: t.clock.now(), referenceRateBp: 200 });
    expect(await invoiceOf(a.id)).toMatchObject({ state: 2 });
    const deduction = await paidLessDeduction(a, { reference: '4712', amountMinor: 20_000 });
    const done = await resolve(deduction.id, { action: 'settleInvoice', invoiceID: a.id });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ action: 'settleInvoice', invoiceState: 3, remainingMinor: 20_000 });
    expect(await invoiceOf(a.id)).toMatchObject({ state: 3, remainingMinor: 20_000 });
    await booksSound();
    // The payment was passed on whole; the deduction comes back off the issuer as a row of its own.
    await payoutOn(t);
    const rows = await t.db.select().from(settlementRows).where(eq(settlementRows.paymentId, deduction.id));
    expect(rows.map((r) => [r.kind, r.invoiceId, r.grossMinor, r.feeMinor, r.netMinor])).toEqual([
      ['deduction', a.id, -20_000, 0, -20_000],
    ]);
    await booksSound();
  });

  it('refuses what cannot take it, writing nothing: unknown, another issuer’s or currency, a state, more than paid', async () => {
    const fresh = await freshIssuer(t);
    const [paid, unpaid, small, chargedBack] = await fresh.invoicesOf(4, '2026-04-01');
    if (!paid || !unpaid || !small || !chargedBack) throw new Error('four invoices');
    const [eur] = await sentInvoices(t, {
      n: 1,
      currency: 'EUR',
      approve: true,
      username: fresh.username,
    });
    const [byggs] = await sentInvoices(t, { n: 1, approve: true });
    if (!eur || !byggs) throw new Error('other invoices');
    await imported([
      { reference: paid.ocr ?? '', amountMinor: paid.toPayMinor },
      { reference: small.ocr ?? '', amountMinor: 10_000 },
      { reference: '5150', amountMinor: 20_000, deduction: true },
    ]);
    const deduction = await deductionOf('5150');
    const refused: [unknown, number, string][] = [
      [
        { action: 'settleInvoice', invoiceID: '00000000-0000-4000-8000-0000000000ff' },
        404,
        'invoices.not_found',
      ],
      [{ action: 'settleInvoice', invoiceID: byggs.id }, 409, 'deductions.other_issuer'],
      [{ action: 'settleInvoice', invoiceID: eur.id }, 409, 'deductions.other_currency'],
      [{ action: 'settleInvoice', invoiceID: unpaid.id }, 409, 'deductions.invoice_state'],
      [{ action: 'settleInvoice', invoiceID: small.id }, 409, 'deductions.exceeds_paid'],
      [{ action: 'settleInvoice' }, 400, 'validation.invalid'],
      [{ action: 'writeOff' }, 400, 'validation.invalid'],
    ];
    for (const [body, status, code] of refused) {
      const res = await resolve(deduction.id, body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([status, code]);
      expect(await deductionOf('5150')).toMatchObject({ deductionAction: null, invoiceId: null });
      await booksSound();
    }
    // A charged-back invoice (5) is off our book: refused too (the state alone decides, so it is set
    // here for the one call and put back).
    await t.db.update(invoices).set({ state: 5 }).where(eq(invoices.id, chargedBack.id));
    expect(await resolve(deduction.id, { action: 'settleInvoice', invoiceID: chargedBack.id })).toMatchObject(
      {
        status: 409,
        body: { code: 'deductions.invoice_state', details: { state: 5 } },
      },
    );
    await t.db.update(invoices).set({ state: 2 }).where(eq(invoices.id, chargedBack.id));
    await booksSound();
    expect((await openDeductions()).items.map((d) => d.paymentID)).toContain(deduction.id);
    // Unknown ids, and a payment that is no deduction, are not found.
    const [payment] = await t.db
      .select()
      .from(payments)
      .where(eq(payments.reference, paid.ocr ?? ''));
    for (const id of ['00000000-0000-4000-8000-0000000000ee', payment?.id ?? ''])
      expect(await resolve(id, { action: 'chargeIssuer' })).toMatchObject({
        status: 404,
        body: { code: 'deductions.not_found' },
      });
    expect((await resolve('not-a-uuid', { action: 'chargeIssuer' })).status).toBe(400);
    // A customer's token opens no back-office route.
    const customer = await t.app.inject({
      method: 'POST',
      url: `/api/backoffice/deductions/${deduction.id}/resolve`,
      headers: bearer(await t.login(fresh.username)),
      payload: { action: 'chargeIssuer' },
    });
    expect(customer.statusCode).toBe(401);
    // It still settles against the paid invoice.
    expect((await resolve(deduction.id, { action: 'settleInvoice', invoiceID: paid.id })).status).toBe(200);
    expect(await invoiceOf(paid.id)).toMatchObject({ state: 3, remainingMinor: 20_000 });
    await booksSound();
  });

  it('a deduction into a bankgiro of no issuer’s cannot be resolved', async () => {
    const [a] = await sentInvoices(t, { n: 1, approve: true });
    if (!a) throw new Error('one invoice');
    const bytes = incomingPaymentsFile({
      paymentDate: todayOf(t),
      deposits: [
        {
          bankgiro: '9999999',
          payments: [
            { reference: '1', amountMinor: 50_000 },
            { reference: '8080', amountMinor: 10_000, deduction: true },
          ],
        },
      ],
      firstSerial: 990_001,
      firstDeposit: 99_001,
    });
    await importBgmaxFile(t.db, bytes, { filename: 'x.txt', operatorId: null, now: t.clock.now() });
    const deduction = await deductionOf('8080');
    expect((await openDeductions()).items).toContainEqual(
      expect.objectContaining({ paymentID: deduction.id, issuerID: null, issuerName: null }),
    );
    expect(await resolve(deduction.id, { action: 'chargeIssuer' })).toMatchObject({
      status: 409,
      body: { code: 'deductions.no_issuer' },
    });
    await booksSound();
  });
});

describe('deductions: the CLI', () => {
  it('deductions lists the open ones; resolve-deduction charges one, and refuses it the second time', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const cli = (...argv: string[]) => backofficeCli(base, ...argv);
    const fresh = await freshIssuer(t);
    const [a] = await fresh.invoicesOf(1, '2026-04-01');
    if (!a) throw new Error('one invoice');
    const deduction = await paidLessDeduction(a, {
      reference: '6060',
      amountMinor: 12_345,
      name: 'Betalare AB',
    });
    const list = await cli('deductions');
    expect(list.code).toBe(0);
    expect(list.out.split('\n')).toContain(
      `${deduction.id}\t${todayOf(t)}\tNystart Måleri AB\t123.45 SEK\t"6060"\tBetalare AB`,
    );
    expect((await cli('resolve-deduction', deduction.id, 'settle-invoice')).code).toBe(2);
    expect(await cli('resolve-deduction', deduction.id, 'charge-issuer')).toMatchObject({
      code: 0,
      out: `Deduction ${deduction.id} of 123.45 SEK charged to issuer ${fresh.issuer.id}: its next payout run sets it off.`,
    });
    const again = await cli('resolve-deduction', deduction.id, 'settle-invoice', a.id);
    expect(again.code).toBe(1);
    expect(again.err).toContain('HTTP 409 deductions.already_resolved');
    expect((await cli('check-books')).code).toBe(0);
    expect((await cli('deductions')).out).not.toContain(deduction.id);
  });
});
