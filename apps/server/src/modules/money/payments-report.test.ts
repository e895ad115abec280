import { addDays } from '@portal/domain/calendar-date';
import { and, eq, gte, inArray, lte } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { readCsv } from '../../../test/support/csv-reader';
import { fullPartOverPayments, paidToBygg, sentInvoices, todayOf } from '../../../test/support/money';
import { bearer } from '../../../test/support/test-app';
import { useTestApp } from '../../../test/support/use-test-app';
import { payments } from '../../db/schema';
import { importBgmaxFile } from './money.service';

const t = useTestApp({ resetEach: true });

const today = () => todayOf(t);

/**
 * Three approved invoices of Demo Bygg paid today from a BGMAX file (one in full, one in part, one
 * over), and one payment that matches nothing.
 */
async function paidToday() {
  const [full, part, over] = await sentInvoices(t, { n: 3, service: 'factoring', approve: true });
  if (!full || !part || !over) throw new Error('no invoices');
  const bytes = paidToBygg(t, fullPartOverPayments([full, part, over], 'Betalare "Ett"; AB'), {
    firstSerial: 900_000,
    firstDeposit: 900,
  });
  const result = await importBgmaxFile(t.db, bytes, {
    filename: 'report.bgmax',
    operatorId: null,
    now: t.clock.now(),
  });
  expect(result).toMatchObject({ matched: 3, unmatched: 1 });
  return { full, part, over };
}

/** The payments report with `query`, or with `/export` its file. */
async function report(token: string, query: Record<string, string | number>, suffix: '' | '/export' = '') {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/limited/reports/payments${suffix}`,
    headers: bearer(token),
    query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
  });
  return res;
}

describe('payments report', () => {
  it('lists the issuer’s matched payments of the period with totals per currency, filtered and paged', async () => {
    const { full, part, over } = await paidToday();
    const token = await t.login('demo');
    const day = today();

    const res = await report(token, { from: day, to: day, pageSize: 100 });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // What the database holds for Demo Bygg on the day, matched or assigned: the report shows all of it.
    const expected = await t.db
      .select()
      .from(payments)
      .where(
        and(
          eq(payments.issuerId, full.issuerId),
          inArray(payments.status, ['matched', 'assigned']),
          gte(payments.paymentDate, day),
          lte(payments.paymentDate, day),
        ),
      );
    expect(body.total).toBe(expected.length);
    expect(body.items.map((p: { paymentID: string }) => p.paymentID).sort()).toEqual(
      expected.map((p) => p.id).sort(),
    );
    const sekSum = expected.filter((p) => p.currency === 'SEK').reduce((s, p) => s + p.amountMinor, 0);
    expect(body.totals).toContainEqual({
      currency: 'SEK',
      count: expected.filter((p) => p.currency === 'SEK').length,
      amountMinor: sekSum,
    });
    // The unmatched payment is not there.
    expect(body.items.some((p: { reference: string }) => p.reference === '99999999999')).toBe(false);

    const row = (id: string) => body.items.find((p: { invoiceID: string }) => p.invoiceID === id);
    expect(row(full.id)).toMatchObject({
      invoiceNumber: full.invoiceNumber,
      reference: full.ocr,
      payerName: 'Betalare "Ett"; AB',
      amountMinor: full.toPayMinor,
      appliedMinor: full.toPayMinor,
      overpaidMinor: 0,
      currency: 'SEK',
    });
    expect(row(part.id)).toMatchObject({ amountMinor: 10_000, appliedMinor: 10_000, overpaidMinor: 0 });
    expect(row(over.id)).toMatchObject({
      amountMinor: over.toPayMinor + 5_000,
      appliedMinor: over.toPayMinor,
      overpaidMinor: 5_000,
    });

    // Invoice number filter (prefix) finds exactly the one.
    const one = (await report(token, { from: day, to: day, invoiceNumber: part.invoiceNumber })).json();
    expect(one.items.map((p: { invoiceID: string }) => p.invoiceID)).toEqual([part.id]);
    expect(one.totals).toEqual([{ currency: 'SEK', count: 1, amountMinor: 10_000 }]);

    // Recipient filter: the invoices' recipient has all three; paging splits them without overlap.
    const byRecipient = { from: day, to: day, recipientID: full.recipientId, invoiceNumber: 'T' };
    const p1 = (await report(token, { ...byRecipient, page: 1, pageSize: 2 })).json();
    const p2 = (await report(token, { ...byRecipient, page: 2, pageSize: 2 })).json();
    expect(p1.total).toBeGreaterThanOrEqual(3);
    expect(p1.items).toHaveLength(2);
    const seen = [...p1.items, ...p2.items].map((p: { paymentID: string }) => p.paymentID);
    expect(new Set(seen).size).toBe(seen.length);
    const all = (await report(token, { ...byRecipient, pageSize: 100 })).json();
    expect(seen).toEqual(all.items.slice(0, 4).map((p: { paymentID: string }) => p.paymentID));
    for (const id of [full.id, part.id, over.id])
      expect(all.items.some((p: { invoiceID: string }) => p.invoiceID === id)).toBe(true);

    // A period without the day shows none of today's payments.
    const before = (
      await report(token, { from: addDays(day, -400), to: addDays(day, -1), invoiceNumber: 'T' })
    ).json();
    expect(
      before.items.some((p: { invoiceID: string }) => [full.id, part.id, over.id].includes(p.invoiceID)),
    ).toBe(false);

    // Another issuer sees none of Demo Bygg's payments, not even by its recipient's id.
    const otherToken = await t.login('demo-other');
    const theirs = (await report(otherToken, { from: day, to: day, recipientID: full.recipientId })).json();
    expect(theirs.total).toBe(0);
    expect(theirs.items).toEqual([]);
    const theirsAll = (await report(otherToken, { from: addDays(day, -400), to: day })).json();
    expect(
      theirsAll.items.some((p: { invoiceID: string }) => [full.id, part.id, over.id].includes(p.invoiceID)),
    ).toBe(false);
  });

  it('refuses a range whose end is before its start with a translated code', async () => {
    const token = await t.login('demo');
    const res = await report(token, { from: '2026-03-10', to: '2026-03-01' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('reports.wrong_date_range');
  });

  it('exports the same rows as Excel and CSV, read back', async () => {
    const { full, part, over } = await paidToday();
    const token = await t.login('demo');
    const day = today();
    const api = (
      await report(token, { from: day, to: day, recipientID: full.recipientId, pageSize: 100 })
    ).json();
    expect(api.items.length).toBeGreaterThanOrEqual(3);
    const expectedRows = api.items.map(
      (p: {
        paymentDate: string;
        invoiceNumber: string;
        recipientName: string;
        reference: string;
        payerName: string;
        amountMinor: number;
        appliedMinor: number;
        overpaidMinor: number;
        currency: string;
      }) => [
        p.paymentDate,
        p.invoiceNumber,
        p.recipientName,
        p.reference,
        p.payerName,
        p.amountMinor,
        p.appliedMinor,
        p.overpaidMinor,
        p.currency,
      ],
    );

    const xlsx = await report(
      token,
      { from: day, to: day, recipientID: full.recipientId, format: 'excel', language: 'en-US' },
      '/export',
    );
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-disposition']).toContain(`payments-${day}-${day}.xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Payments');
    if (!sheet) throw new Error('no sheet named Payments');
    // Array.from: exceljs leaves an empty cell as a hole in the array.
    const values = (r: number) => Array.from(sheet.getRow(r).values as unknown[]).slice(1);
    expect(values(1)).toEqual([
      'Payment date',
      'Invoice number',
      'Recipient',
      'Reference',
      'Payer',
      'Amount',
      'Applied to invoice',
      'Overpaid',
      'Currency',
      'Deduction',
    ]);
    const excelRows: unknown[][] = [];
    for (let r = 2; r <= sheet.rowCount; r++) excelRows.push(values(r));
    expect(excelRows).toHaveLength(expectedRows.length);
    expect(
      excelRows.map((r) => [
        ...r.slice(0, 5).map((c) => c ?? ''), // an empty text is an empty cell
        Math.round((r[5] as number) * 100),
        Math.round((r[6] as number) * 100),
        Math.round((r[7] as number) * 100),
        r[8],
      ]),
    ).toEqual(expectedRows);
    const overRow = excelRows.find((r) => r[1] === over.invoiceNumber);
    expect(overRow?.[7]).toBe(50);

    const csv = await report(
      token,
      { from: day, to: day, recipientID: full.recipientId, format: 'csv', language: 'sv-SE' },
      '/export',
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain('.csv');
    const rows = readCsv(csv.rawPayload, ';').filter((r) => r.length > 1);
    expect(rows[0]?.[0]).toBe('Betaldatum');
    expect(rows).toHaveLength(expectedRows.length + 1);
    // Swedish: a decimal comma (and `;` between fields), written from the öre without a float.
    const decimal = (minor: number) =>
      `${(minor - (minor % 100)) / 100},${String(minor % 100).padStart(2, '0')}`;
    const csvRows = rows.slice(1);
    for (const [i, e] of expectedRows.entries()) {
      const r = csvRows[i] ?? [];
      expect(r.slice(0, 5)).toEqual(e.slice(0, 5).map((c: unknown) => c ?? ''));
      expect(r.slice(5, 8).map((c) => c)).toEqual((e.slice(5, 8) as number[]).map(decimal));
      expect(r[8]).toBe(e[8]);
    }
    expect(csvRows.find((r) => r[1] === part.invoiceNumber)?.[5]).toBe('100,00');
    expect(csvRows.find((r) => r[1] === full.invoiceNumber)?.[4]).toBe('Betalare "Ett"; AB');
  });
});
