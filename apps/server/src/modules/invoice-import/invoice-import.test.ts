import { FILE_MAX_BYTES, importInvoicesResponseSchema, importPreviewResponseSchema } from '@portal/contracts';
import { eq, like } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRecipient } from '../../../test/support/factories';
import { VALID_RECIPIENT_BODY } from '../../../test/support/route-samples';
import { bearer } from '../../../test/support/test-app';
import { useLogins, useTestApp } from '../../../test/support/use-test-app';
import { invoiceRows, invoices } from '../../db/schema';
import { decodeCsv, parseCsv } from './import-check';

const HEADER =
  'invoiceNumber;recipientOrganizationNumber;invoiceDate;dueDate;service;currency;description;quantity;unit;unitPrice;vatPercent';

describe('invoice import from CSV and Excel', () => {
  const t = useTestApp();
  const who = useLogins(t, { demo: 'demo', other: 'demo-other' });
  beforeAll(async () => {
    await createRecipient(t, who.demo, { name: 'Import Kund AB', organizationNumber: '559123-4561' });
  });

  const post = (
    token: string,
    path: string,
    format: 'csv' | 'xlsx',
    body: Buffer,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method: 'POST',
      url: `/api/limited/invoices/import${path}?format=${format}`,
      headers: {
        ...bearer(token),
        'content-type': format === 'csv' ? 'text/csv' : 'application/octet-stream',
        ...headers,
      },
      payload: body,
    });

  const csv = [
    HEADER,
    'IMP-1;559123-4561;2026-03-01;2026-03-31;factoring;SEK;Arbetstimme;8;h;650,00;25',
    'IMP-1;559123-4561;2026-03-01;2026-03-31;factoring;SEK;Material;1,5;st;1 234,50;12',
    'IMP-2;559123-4561;2026-03-02;2026-04-01;factoring;SEK;"Konsult; halvdag";1;st;4000;25',
    'IMP-3;000000-0000;2026-03-02;2026-02-01;factoring;SEK;Okänd;1;st;abc;24',
  ].join('\r\n');

  it('parses quoted CSV fields with the separator inside', () => {
    expect(parseCsv('a;b\r\n"x;y";"say ""hi"""\r\n')).toEqual([
      ['a', 'b'],
      ['x;y', 'say "hi"'],
    ]);
  });

  it('previews every invoice and marks each bad line with its reason, saving nothing', async () => {
    const before = (await t.db.select().from(invoices)).length;
    const res = await post(who.demo, '/preview', 'csv', Buffer.from(csv));
    expect(res.statusCode, res.body).toBe(200);
    const preview = importPreviewResponseSchema.parse(res.json());
    expect(preview).toMatchObject({ valid: 2, invalid: 1 });
    const bad = preview.invoices.find((i) => i.invoiceNumber === 'IMP-3');
    expect(bad?.issues).toEqual(
      expect.arrayContaining([
        { line: 5, column: 'recipientOrganizationNumber', code: 'import.unknown_recipient' },
        { line: 5, column: 'dueDate', code: 'validation.due_before_invoice_date' },
        { line: 5, column: 'unitPrice', code: 'import.invalid_amount' },
        { line: 5, column: 'vatPercent', code: 'import.invalid_vat' },
      ]),
    );
    const first = preview.invoices.find((i) => i.invoiceNumber === 'IMP-1');
    // 8 × 650,00 = 5 200,00 + 25 %; 1,5 × 1 234,50 = 1 851,75 + 12 % (222,21).
    expect(first).toMatchObject({
      rows: 2,
      lines: [2, 3],
      grossMinor: 520_000 + 130_000 + 185_175 + 22_221,
      issues: [],
    });
    expect(await t.db.select().from(invoices)).toHaveLength(before);
  });

  it("reads quantities and VAT with the invoice form's rule (@portal/domain/quantity), a lone comma as decimal", async () => {
    const line = (n: string, quantity: string, vat = '25') =>
      `${n};559123-4561;2026-03-01;2026-03-31;factoring;SEK;Rad;${quantity};st;100,00;${vat}`;
    const file = [
      HEADER,
      line('QTY-1', '1,5'),
      line('QTY-2', '1.5'),
      line('QTY-3', '1 000'),
      line('QTY-4', '2,500', '25 %'),
      line('QTY-5', '1 2'),
      line('QTY-6', '0,0001'),
      line('QTY-7', '-1'),
      line('QTY-8', '2000000'),
      line('QTY-9', '1', '12,5'),
    ].join('\r\n');
    const res = await post(who.demo, '/preview', 'csv', Buffer.from(file));
    expect(res.statusCode, res.body).toBe(200);
    const preview = importPreviewResponseSchema.parse(res.json());
    const of = (n: string) => preview.invoices.find((i) => i.invoiceNumber === n);
    // 1,5 × 100,00 + 25 %; 1 000 × 100,00 + 25 %; 2,5 × 100,00 + 25 %.
    expect(of('QTY-1')).toMatchObject({ issues: [], grossMinor: 18_750 });
    expect(of('QTY-2')).toMatchObject({ issues: [], grossMinor: 18_750 });
    expect(of('QTY-3')).toMatchObject({ issues: [], grossMinor: 12_500_000 });
    expect(of('QTY-4')).toMatchObject({ issues: [], grossMinor: 31_250 });
    for (const n of ['QTY-5', 'QTY-6', 'QTY-7'])
      expect(of(n)?.issues, n).toEqual([
        { line: expect.any(Number), column: 'quantity', code: 'import.invalid_quantity' },
      ]);
    expect(of('QTY-8')?.issues).toEqual([{ line: 9, column: 'quantity', code: 'validation.amount_range' }]);
    expect(of('QTY-9')?.issues).toEqual([{ line: 10, column: 'vatPercent', code: 'import.invalid_vat' }]);
  });

  it('a missing column is a file issue', async () => {
    const res = await post(who.demo, '/preview', 'csv', Buffer.from('invoiceNumber;description\r\nX;Y\r\n'));
    const preview = importPreviewResponseSchema.parse(res.json());
    expect(preview.fileIssues).toContainEqual({
      line: 1,
      column: 'invoiceDate',
      code: 'import.missing_column',
    });
    expect(preview.valid).toBe(0);
  });

  it('registers the valid invoices in one go, once per idempotency key', async () => {
    const headers = { 'idempotency-key': 'import-imp-1-2-abc' };
    const res = await post(who.demo, '', 'csv', Buffer.from(csv), headers);
    expect(res.statusCode, res.body).toBe(200);
    const result = importInvoicesResponseSchema.parse(res.json());
    expect(result.created.map((c) => c.invoiceNumber).sort()).toEqual(['IMP-1', 'IMP-2']);
    expect(result.skipped).toBe(1);
    const again = await post(who.demo, '', 'csv', Buffer.from(csv), headers);
    expect(again.json()).toEqual(res.json());
    const saved = await t.db.select().from(invoices).where(like(invoices.invoiceNumber, 'IMP-%'));
    expect(saved.map((i) => i.invoiceNumber).sort()).toEqual(['IMP-1', 'IMP-2']);
    const imp1 = saved.find((i) => i.invoiceNumber === 'IMP-1');
    expect(imp1).toMatchObject({ state: 1, source: 'import', grossMinor: 857_396 });
    expect(
      await t.db
        .select()
        .from(invoiceRows)
        .where(eq(invoiceRows.invoiceId, imp1?.id ?? '')),
    ).toHaveLength(2);
    // The same file again: the numbers exist now, so nothing is valid.
    const twice = await post(who.demo, '', 'csv', Buffer.from(csv));
    expect(twice.statusCode).toBe(400);
    expect(twice.json().code).toBe('import.nothing_valid');
  });

  it('the Excel template downloads, opens in a real reader, and imports back', async () => {
    const tpl = await t.app.inject({
      url: '/api/limited/invoices/import/template?format=xlsx',
      headers: bearer(who.demo),
    });
    expect(tpl.statusCode).toBe(200);
    expect(tpl.headers['content-disposition']).toContain('fakturaimport-mall.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(tpl.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    // The demo user has no stored language: Swedish, the portal's default (csv-exports.test.ts has the others).
    expect(sheet?.getRow(1).getCell(1).value).toBe('Fakturanummer');
    // Fill the template as a customer would: a new number, our recipient, and save it.
    sheet?.eachRow((row, n) => {
      if (n === 1) return;
      row.getCell(1).value = 'XLSX-1';
      row.getCell(2).value = '559123-4561';
    });
    const filled = Buffer.from(await wb.xlsx.writeBuffer());
    const preview = importPreviewResponseSchema.parse(
      (await post(who.demo, '/preview', 'xlsx', filled)).json(),
    );
    expect(preview).toMatchObject({ valid: 1, invalid: 0 });
    expect(preview.invoices[0]).toMatchObject({
      invoiceNumber: 'XLSX-1',
      recipientName: 'Import Kund AB',
      rows: 2,
    });

    const csvTpl = await t.app.inject({
      url: '/api/limited/invoices/import/template?format=csv',
      headers: bearer(who.demo),
    });
    const table = parseCsv(csvTpl.body);
    expect(table[0]?.[0]).toBe('Fakturanummer');
    expect(table).toHaveLength(3);
  });

  it('rejects a file that is not a spreadsheet and another issuer’s recipients', async () => {
    const junk = await post(who.demo, '/preview', 'xlsx', Buffer.from('not a zip at all'));
    expect(junk.statusCode).toBe(400);
    expect(junk.json().code).toBe('import.unreadable');
    const foreign = importPreviewResponseSchema.parse(
      (await post(who.other, '/preview', 'csv', Buffer.from(csv.replaceAll(';SEK;', ';EUR;')))).json(),
    );
    expect(foreign.valid).toBe(0);
    expect(foreign.invoices[0]?.issues).toContainEqual({
      line: 2,
      column: 'recipientOrganizationNumber',
      code: 'import.unknown_recipient',
    });
  });

  it('numbers lines as a spreadsheet shows them, blank lines and multi-line cells included', async () => {
    const file = [
      HEADER,
      'GAP-1;559123-4561;2026-03-01;2026-03-31;factoring;SEK;"Rad ett\nfortsättning";1;st;100;25',
      '',
      ';;;',
      'GAP-2;559123-4561;2026-03-01;2026-13-01;factoring;SEK;Rad;1;st;100;25',
    ].join('\r\n');
    const preview = importPreviewResponseSchema.parse(
      (await post(who.demo, '/preview', 'csv', Buffer.from(`${file}\r\n\r\n`))).json(),
    );
    expect(preview.invoices.map((i) => [i.invoiceNumber, i.lines])).toEqual([
      ['GAP-1', [2]],
      ['GAP-2', [5]],
    ]);
    expect(preview.invoices[1]?.issues).toEqual([
      { line: 5, column: 'dueDate', code: 'import.invalid_date' },
    ]);

    // A line without an invoice number is an invoice of its own, shown without a made-up number.
    const unnumbered = importPreviewResponseSchema.parse(
      (
        await post(
          who.demo,
          '/preview',
          'csv',
          Buffer.from(`${HEADER}\r\n;559123-4561;2026-03-01;2026-03-31;factoring;SEK;Rad;1;st;100;25\r\n`),
        )
      ).json(),
    );
    expect(unnumbered.invoices[0]).toMatchObject({
      invoiceNumber: '',
      lines: [2],
      issues: [{ line: 2, column: 'invoiceNumber', code: 'validation.required' }],
    });

    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Fakturor');
    sheet.getRow(1).values = HEADER.split(';');
    sheet.getRow(4).values = 'GAP-3;559123-4561;2026-03-01;2026-03-31;factoring;SEK;Rad;1;st;x;25'.split(';');
    const xlsx = importPreviewResponseSchema.parse(
      (await post(who.demo, '/preview', 'xlsx', Buffer.from(await wb.xlsx.writeBuffer()))).json(),
    );
    expect(xlsx.invoices[0]?.issues).toEqual([
      { line: 4, column: 'unitPrice', code: 'import.invalid_amount' },
    ]);
  });

  it('marks a rule of the invoice on the line and column it broke, never cutting text silently', async () => {
    const file = [
      HEADER,
      'LONG-1;559123-4561;2026-03-01;2026-03-31;factoring;SEK;Kort;1;st;100;25',
      `LONG-1;559123-4561;2026-03-01;2026-03-31;factoring;SEK;${'x'.repeat(101)};1;st;100;25`,
    ].join('\r\n');
    const preview = importPreviewResponseSchema.parse(
      (await post(who.demo, '/preview', 'csv', Buffer.from(file))).json(),
    );
    expect(preview).toMatchObject({ valid: 0, invalid: 1 });
    expect(preview.invoices[0]?.issues).toEqual([
      { line: 3, column: 'description', code: 'validation.max_length' },
    ]);
  });

  it('reads a CSV that Excel saved in Windows-1252 and a body sent as text/plain', async () => {
    const r = await t.call(who.demo, 'POST', '/api/limited/recipients', {
      ...VALID_RECIPIENT_BODY,
      name: 'Åkesson Bygg AB',
      organizationNumber: '',
    });
    expect(r.statusCode, r.body).toBe(200);
    const text = [
      'invoiceNumber;recipientName;invoiceDate;dueDate;description;quantity;unitPrice;vatPercent',
      'ANSI-1;Åkesson Bygg AB;2026-03-01;2026-03-31;Målning;2;500,00;25',
    ].join('\r\n');
    const ansi = Buffer.from(new Uint8Array([...text].map((c) => c.charCodeAt(0))));
    expect(decodeCsv(ansi)).toBe(text);
    const res = await post(who.demo, '/preview', 'csv', ansi, { 'content-type': 'text/plain' });
    expect(res.statusCode, res.body).toBe(200);
    expect(importPreviewResponseSchema.parse(res.json()).invoices[0]).toMatchObject({
      invoiceNumber: 'ANSI-1',
      recipientName: 'Åkesson Bygg AB',
      grossMinor: 125_000,
      issues: [],
    });
  });

  it('an empty file, a file of blank lines and a header without lines are told apart', async () => {
    for (const body of ['', '\r\n \r\n;;\r\n']) {
      const res = await post(who.demo, '/preview', 'csv', Buffer.from(body));
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('import.empty');
    }
    const headerOnly = importPreviewResponseSchema.parse(
      (await post(who.demo, '/preview', 'csv', Buffer.from(`${HEADER}\r\n`))).json(),
    );
    expect(headerOnly).toMatchObject({
      invoices: [],
      fileIssues: [{ line: 2, column: '', code: 'import.no_invoices' }],
    });
  });

  it('a file over the size limit is refused with files.too_large before it is read', async () => {
    const res = await post(who.demo, '/preview', 'csv', Buffer.alloc(FILE_MAX_BYTES + 1, 0x41));
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('files.too_large');
  });
});
