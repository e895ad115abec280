// Payments split over their extra references and zero amounts (issue #16, docs/MONEY.md "Incoming
// payments"): BGMAX files written with our writer and read by our reader through the real import, the
// operator's list and assignment, and the books checked after each scenario.
import { readBgmax } from '@portal/domain/bgmax';
import { asc, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { paidToBygg, sentInvoices, TEST_OPERATOR, todayOf } from '../../../test/support/money';
import { useTestApp } from '../../../test/support/use-test-app';
import { invoices, payments, postings } from '../../db/schema';
import { assignPayment, checkBooks, importBgmaxFile } from './money.service';

const t = useTestApp({ resetEach: true });

const importFile = (bytes: Uint8Array, filename = 'split.txt') =>
  importBgmaxFile(t.db, bytes, { filename, operatorId: null, now: t.clock.now() });

/** The rows a file registered, in file order (a split payment's parts by their number). */
const rowsOf = (fileId: string) =>
  t.db
    .select()
    .from(payments)
    .where(eq(payments.fileId, fileId))
    .orderBy(asc(payments.bgcSerial), asc(payments.part));

/** The postings of these payments, summed per account (accounts with none left out). */
async function bookedFor(ids: string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const p of await t.db.select().from(postings).where(inArray(postings.paymentId, ids)))
    out[p.account] = (out[p.account] ?? 0) + p.amountMinor;
  return out;
}

const invoiceOf = async (id: string) => (await t.db.select().from(invoices).where(eq(invoices.id, id)))[0];

/** The operator's list (`status` unmatched by default, or information). */
async function operatorList(query = '') {
  const res = await t.call(
    await t.loginOperator(),
    'GET',
    `/api/backoffice/payments/unmatched?pageSize=100${query}`,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    items: {
      paymentID: string;
      status: string;
      part: number | null;
      amountMinor: number;
      reference: string;
    }[];
    total: number;
  };
}

const ocr = (i: { ocr: string | null }) => i.ocr ?? '';

describe('a payment split over several TK22 references', () => {
  it('applies each part to the invoice its reference names, as its own payment row, once', async () => {
    const [a, b] = await sentInvoices(t, { n: 2, approve: true });
    if (!a || !b) throw new Error('two invoices');
    const pays = [
      {
        reference: '',
        amountMinor: 30_000,
        extraReferences: [
          { reference: ocr(a), amountMinor: 20_000 },
          { reference: ocr(b), amountMinor: 10_000 },
        ],
      },
    ];
    const bytes = paidToBygg(t, pays);
    const result = await importFile(bytes);
    expect(result).toMatchObject({
      payments: 1,
      registered: 2,
      matched: 2,
      unmatched: 0,
      deductions: 0,
      information: 0,
      totalMinor: 30_000,
    });
    const rows = await rowsOf(result.fileId);
    expect(
      rows.map((r) => [r.part, r.status, r.invoiceId, r.reference, r.amountMinor, r.appliedMinor]),
    ).toEqual([
      [1, 'matched', a.id, ocr(a), 20_000, 20_000],
      [2, 'matched', b.id, ocr(b), 10_000, 10_000],
    ]);
    // One dedupe key per part: the payment's with the part's number.
    const [first, second] = rows.map((r) => r.dedupeKey);
    expect(first?.replace(/\|1$/, '|2')).toBe(second);
    expect(await invoiceOf(a.id)).toMatchObject({ state: 3, remainingMinor: a.toPayMinor - 20_000 });
    expect(await invoiceOf(b.id)).toMatchObject({ state: 3, remainingMinor: b.toPayMinor - 10_000 });
    // The bank took exactly the deposit.
    const deposit = readBgmax(bytes).file.sections[0]?.deposit.amountMinor;
    expect(deposit).toBe(30_000);
    expect((await bookedFor(rows.map((r) => r.id))).bank).toBe(deposit);
    expect(await checkBooks(t.db)).toEqual([]);

    // The same payment in another file (another time stamp) is known by its parts: nothing again.
    const again = await importFile(
      paidToBygg(t, pays, { writtenAt: `${todayOf(t)}T07:00:00.000000` }),
      'b.txt',
    );
    expect(again).toMatchObject({ duplicateFile: false, payments: 1, registered: 0, matched: 0 });
    expect(await invoiceOf(a.id)).toMatchObject({ remainingMinor: a.toPayMinor - 20_000 });
    expect(await checkBooks(t.db)).toEqual([]);
  });

  it('with a TK23 and a part naming nothing: the TK23 is a deduction, the unknown part waits and is assigned alone', async () => {
    const [a, b, c] = await sentInvoices(t, { n: 3, approve: true });
    if (!a || !b || !c) throw new Error('three invoices');
    // Bankgirot's own example (shared/domain/bgmax.md §3): 100 000 + 50 000 + 40 000 − 50 000.
    const bytes = paidToBygg(t, [
      {
        reference: '',
        amountMinor: 140_000,
        extraReferences: [
          { reference: ocr(a), amountMinor: 100_000 },
          { reference: ocr(b), amountMinor: 50_000 },
          { reference: '8988777', amountMinor: 40_000, referenceCode: 5 },
          { reference: '74450', amountMinor: 50_000, negative: true },
        ],
      },
    ]);
    const result = await importFile(bytes);
    expect(result).toMatchObject({
      payments: 1,
      registered: 4,
      matched: 2,
      unmatched: 1,
      deductions: 1,
      information: 0,
      totalMinor: 140_000,
    });
    const rows = await rowsOf(result.fileId);
    expect(rows.map((r) => [r.part, r.status, r.invoiceId, r.issuerId, r.reference, r.amountMinor])).toEqual([
      [1, 'matched', a.id, a.issuerId, ocr(a), 100_000],
      [2, 'matched', b.id, a.issuerId, ocr(b), 50_000],
      [3, 'unmatched', null, a.issuerId, '8988777', 40_000],
      [4, 'deduction', null, a.issuerId, '74450', -50_000],
    ]);
    expect(await bookedFor(rows.map((r) => r.id))).toEqual({
      bank: 140_000,
      receivable: -150_000,
      unmatched_payments: -40_000,
      payment_deductions: 50_000,
    });
    expect(await checkBooks(t.db)).toEqual([]);

    // The operator's list shows the unknown part with its number, never the TK23's deduction.
    const [, , unknown, credit] = rows;
    if (!unknown || !credit) throw new Error('four rows');
    const listed = await operatorList();
    expect(listed.items.find((i) => i.paymentID === unknown.id)).toMatchObject({
      status: 'unmatched',
      part: 3,
      amountMinor: 40_000,
      reference: '8988777',
    });
    expect(listed.items.map((i) => i.paymentID)).not.toContain(credit.id);
    await expect(
      assignPayment(t.db, credit.id, c.id, TEST_OPERATOR, t.clock.now(), '127.0.0.1'),
    ).rejects.toMatchObject({ code: 'payments.deduction' });

    // Assigned alone: only its 40 000 goes to c; a and b keep what their parts paid.
    const done = await assignPayment(t.db, unknown.id, c.id, TEST_OPERATOR, t.clock.now(), '127.0.0.1');
    expect(done).toMatchObject({ appliedMinor: 40_000, state: 3, remainingMinor: c.toPayMinor - 40_000 });
    expect(await invoiceOf(a.id)).toMatchObject({ remainingMinor: a.toPayMinor - 100_000 });
    expect(await invoiceOf(b.id)).toMatchObject({ remainingMinor: b.toPayMinor - 50_000 });
    expect((await operatorList()).items.map((i) => i.paymentID)).not.toContain(unknown.id);
    expect((await bookedFor(rows.map((r) => r.id))).unmatched_payments ?? 0).toBe(0);
    expect(await checkBooks(t.db)).toEqual([]);
  });
});

describe('zero amounts', () => {
  it('keeps a zero TK20 and a zero part as information: shown to operators, never booked or assigned', async () => {
    const [a, b] = await sentInvoices(t, { n: 2, approve: true });
    if (!a || !b) throw new Error('two invoices');
    const queueBefore = (await operatorList()).total;
    const result = await importFile(
      paidToBygg(t, [
        { reference: ocr(a), amountMinor: 0 },
        {
          reference: '',
          amountMinor: 25_000,
          extraReferences: [
            { reference: ocr(b), amountMinor: 25_000 },
            { reference: ocr(a), amountMinor: 0 },
          ],
        },
      ]),
    );
    expect(result).toMatchObject({
      payments: 2,
      registered: 3,
      matched: 1,
      unmatched: 0,
      information: 2,
      totalMinor: 25_000,
    });
    const rows = await rowsOf(result.fileId);
    expect(rows.map((r) => [r.part, r.status, r.invoiceId, r.reference, r.amountMinor])).toEqual([
      [null, 'information', null, ocr(a), 0],
      [1, 'matched', b.id, ocr(b), 25_000],
      [2, 'information', null, ocr(a), 0],
    ]);
    const [zero, , zeroPart] = rows;
    if (!zero || !zeroPart) throw new Error('three rows');
    // Nothing booked for them; a is untouched.
    expect(await bookedFor([zero.id, zeroPart.id])).toEqual({});
    expect(await invoiceOf(a.id)).toMatchObject({ state: 2, remainingMinor: a.toPayMinor });

    // Not in the queue of payments to assign; listed with status=information.
    expect((await operatorList()).total).toBe(queueBefore);
    const info = await operatorList('&status=information');
    expect(
      info.items.filter((i) => [zero.id, zeroPart.id].includes(i.paymentID)).map((i) => [i.status, i.part]),
    ).toEqual([
      ['information', null],
      ['information', 2],
    ]);

    // Never assigned: 409 with its code, through the route and the service alike; nothing changes.
    const operator = await t.loginOperator();
    const refused = await t.call(operator, 'POST', `/api/backoffice/payments/${zero.id}/assign`, {
      invoiceID: a.id,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'payments.information' });
    await expect(
      assignPayment(t.db, zeroPart.id, a.id, TEST_OPERATOR, t.clock.now(), '127.0.0.1'),
    ).rejects.toMatchObject({ code: 'payments.information' });
    expect(await invoiceOf(a.id)).toMatchObject({ state: 2, remainingMinor: a.toPayMinor });
    expect(await checkBooks(t.db)).toEqual([]);
  });

  it('answers a list status it does not know with 400, and the list to an operator only', async () => {
    const operator = await t.loginOperator();
    const bad = await t.call(operator, 'GET', '/api/backoffice/payments/unmatched?status=deduction');
    expect(bad.statusCode).toBe(400);
    const customer = await t.login('demo');
    const refused = await t.call(customer, 'GET', '/api/backoffice/payments/unmatched?status=information');
    expect([401, 403]).toContain(refused.statusCode);
  });
});
