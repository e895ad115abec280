import { IMPORT_COLUMNS, importPreviewResponseSchema, type Language } from '@portal/contracts';
import { translate } from '@portal/i18n';
import { and, eq, ne } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { invoiceRows, invoices, recipients, users } from '../src/db/schema';
import { DEMO_BANKGIROS } from '../src/db/seed/demo';
import { csvAmount, csvDecimal, csvWriter } from '../src/lib/csv';
import { todayIn } from '../src/lib/today';
import { importBgmaxFile, incomingPaymentsFile } from '../src/modules/money/money.service';
import { readCsv } from './support/csv-reader';
import { sentInvoices } from './support/money';
import { VALID_RECIPIENT_BODY } from './support/route-samples';
import { bearer } from './support/test-app';
import { useTestApp } from './support/use-test-app';

/**
 * Every CSV the server writes goes through lib/csv.ts and opens in Excel in the user's language
 * (issue #11): `;` and a decimal comma in Swedish and Finnish, `,` and a decimal point in English,
 * UTF-8 with a BOM, CRLF line ends, RFC 4180 quoting. The import template's column names are in the
 * user's language, a file with the column names of any language comes back in, and the template's
 * example invoice never has a number the issuer already used.
 */

const SEPARATOR: Record<Language, ';' | ','> = { 'sv-SE': ';', 'fi-FI': ';', 'en-US': ',' };
const DECIMAL_MARK: Record<Language, ',' | '.'> = { 'sv-SE': ',', 'fi-FI': ',', 'en-US': '.' };
const LANGUAGES: Language[] = ['sv-SE', 'en-US', 'fi-FI'];

/** A decimal as the dialect writes it ("1234,50" / "-0.01"), in minor units, read without a float. */
function minorOf(text: string, mark: ',' | '.'): number {
  const m = new RegExp(`^(-?)(\\d+)\\${mark}(\\d{2})$`).exec(text);
  if (!m) throw new Error(`not an amount with ${mark} and two decimals: ${JSON.stringify(text)}`);
  const minor = Number(m[2]) * 100 + Number(m[3]);
  return m[1] ? -minor : minor;
}

describe('lib/csv: one writer, the dialect of each language', () => {
  it('writes Swedish and Finnish with `;` and a decimal comma, English with `,` and a decimal point', () => {
    const rows = [['Åkeri; "Nord" AB', csvAmount(123_456, 'SEK'), 3, null]];
    const sv = '\uFEFFNamn;Belopp;Antal;Tom\r\n"Åkeri; ""Nord"" AB";1234,56;3;\r\n';
    expect(csvWriter('sv-SE').document(['Namn', 'Belopp', 'Antal', 'Tom'], rows)).toBe(sv);
    expect(csvWriter('fi-FI').document(['Namn', 'Belopp', 'Antal', 'Tom'], rows)).toBe(sv);
    // In English only `,` (not `;`) makes a field quoted; the quotes inside are doubled all the same.
    expect(csvWriter('en-US').document(['Name', 'Amount', 'Count', 'Empty'], rows)).toBe(
      '\uFEFFName,Amount,Count,Empty\r\n"Åkeri; ""Nord"" AB",1234.56,3,\r\n',
    );
    expect(csvWriter('en-US').record(['a,b', 'c'])).toBe('"a,b",c\r\n');
    expect(csvWriter('sv-SE').record(['a,b', 'c'])).toBe('a,b;c\r\n');
  });

  it('quotes line breaks and keeps the formula-injection guard on text, not on amounts', () => {
    const sv = csvWriter('sv-SE');
    expect(sv.record(['x\ny', 'x\ry', '=1+1', '+46 70', '-2', '@SUM(A1)'])).toBe(
      `"x\ny";"x\ry";'=1+1;'+46 70;'-2;'@SUM(A1)\r\n`,
    );
    // A negative amount is a number Excel reads as one, never a formula: it keeps its minus sign.
    expect(sv.record([csvAmount(-250, 'SEK'), csvAmount(-1, 'EUR')])).toBe('-2,50;-0,01\r\n');
  });

  it('formats amounts exactly from minor units, up to the largest safe integer', () => {
    const sv = csvWriter('sv-SE');
    const en = csvWriter('en-US');
    expect(sv.record([csvAmount(Number.MAX_SAFE_INTEGER, 'SEK')])).toBe('90071992547409,91\r\n');
    expect(en.record([csvAmount(-Number.MAX_SAFE_INTEGER, 'SEK')])).toBe('-90071992547409.91\r\n');
    expect(sv.record([csvAmount(0, 'SEK'), csvAmount(5, 'SEK'), csvAmount(100, 'SEK')])).toBe(
      '0,00;0,05;1,00\r\n',
    );
    expect(sv.record([csvDecimal(2550, 2, true), csvDecimal(2500, 2, true), csvDecimal(1205, 2, true)])).toBe(
      '25,5;25;12,05\r\n',
    );
    expect(() => sv.record([0.1])).toThrow(RangeError);
    expect(() => csvAmount(10.5, 'SEK')).toThrow(RangeError);
  });
});

describe('CSV files the server writes', () => {
  const t = useTestApp({ resetEach: true });

  const get = async (token: string, url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return res;
  };
  const setLanguage = (username: string, language: Language | null) =>
    t.db.update(users).set({ language }).where(eq(users.username, username));
  const post = (token: string, path: string, body: Buffer, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/limited/invoices/import${path}?format=csv`,
      headers: { ...bearer(token), 'content-type': 'text/csv', ...headers },
      payload: body,
    });
  const preview = async (token: string, body: Buffer) => {
    const res = await post(token, '/preview', body);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return importPreviewResponseSchema.parse(res.json());
  };

  it('the payments report: the dialect of each language, and its amounts add up to the öre', async () => {
    const [a, b, c] = await sentInvoices(t, { n: 3, service: 'factoring', approve: true });
    if (!a?.ocr || !b?.ocr || !c?.ocr) throw new Error('approved invoices with OCR references');
    const day = todayIn(t.clock.now());
    // Amounts with öre that a float sum would drift on: 0,01 + 123,45 + 999,99.
    const paid = [1, 12_345, 99_999];
    await importBgmaxFile(
      t.db,
      incomingPaymentsFile({
        paymentDate: day,
        firstSerial: 910_000,
        firstDeposit: 910,
        deposits: [
          {
            bankgiro: DEMO_BANKGIROS.bygg,
            payments: [
              { reference: a.ocr, amountMinor: paid[0] as number, name: 'Betalare; "Ett", AB' },
              { reference: b.ocr, amountMinor: paid[1] as number },
              { reference: c.ocr, amountMinor: paid[2] as number },
            ],
          },
        ],
      }),
      { filename: 'csv.bgmax', operatorId: null, now: t.clock.now() },
    );
    const token = await t.login('demo');
    const json = await get(token, `/api/limited/reports/payments?from=${day}&to=${day}&pageSize=100`);
    const sek = (
      json.json() as { totals: { currency: string; amountMinor: number; count: number }[] }
    ).totals.find((x) => x.currency === 'SEK');
    expect(sek?.count).toBe(3);
    expect(sek?.amountMinor).toBe(paid.reduce((s, x) => s + x, 0));

    const names: string[] = [];
    for (const language of LANGUAGES) {
      const res = await get(
        token,
        `/api/limited/reports/payments/export?from=${day}&to=${day}&format=csv&language=${language}`,
      );
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      names.push(String(res.headers['content-disposition']));
      const [header, ...rows] = readCsv(res.rawPayload, SEPARATOR[language]);
      expect(header?.[0]).toBe(translate(language, 'documents', 'paymentsReport.columns.paymentDate'));
      expect(header?.[5]).toBe(translate(language, 'documents', 'paymentsReport.columns.amount'));
      expect(rows).toHaveLength(3);
      for (const row of rows) expect(row, row.join('|')).toHaveLength(10);
      const mark = DECIMAL_MARK[language];
      const amounts = rows.map((r) => minorOf(r[5] ?? '', mark));
      expect(amounts.sort((x, y) => x - y)).toEqual([...paid].sort((x, y) => x - y));
      expect(amounts.reduce((s, x) => s + x, 0)).toBe(sek?.amountMinor);
      // Applied + overpaid is each payment, to the öre.
      for (const r of rows)
        expect(minorOf(r[6] ?? '', mark) + minorOf(r[7] ?? '', mark)).toBe(minorOf(r[5] ?? '', mark));
      // The payer's name holds both separators and a quote: it comes back whole.
      expect(rows.map((r) => r[4])).toContain('Betalare; "Ett", AB');
    }
    expect(names[0]).toContain('inbetalningar');
    expect(new Set(names).size).toBe(3);
  });

  it('the import template: column names and number format in the user’s stored language', async () => {
    await setLanguage('demo', 'en-US');
    const demo = await t.login('demo');
    const other = await t.login('demo-other'); // a Finnish user of a Finnish issuer (EUR, 25,5 % VAT)
    const expected: [string, Language, string][] = [
      [demo, 'en-US', 'invoice-import-template.csv'],
      [other, 'fi-FI', 'laskujen-tuontipohja.csv'],
    ];
    for (const [token, language, filename] of expected) {
      const res = await get(token, '/api/limited/invoices/import/template?format=csv');
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toContain(filename);
      const [header, ...rows] = readCsv(res.rawPayload, SEPARATOR[language]);
      expect(header).toEqual(
        IMPORT_COLUMNS.map((c) => translate(language, 'invoices', `import.columns.${c}`)),
      );
      expect(rows).toHaveLength(2);
      for (const row of rows) expect(row).toHaveLength(IMPORT_COLUMNS.length);
      const at = (c: (typeof IMPORT_COLUMNS)[number]) => IMPORT_COLUMNS.indexOf(c);
      const mark = DECIMAL_MARK[language];
      expect(rows.map((r) => minorOf(r[at('unitPrice')] ?? '', mark))).toEqual([65_000, 123_450]);
      expect(rows[0]?.[at('invoiceNumber')]).toBe(rows[1]?.[at('invoiceNumber')]);
      if (language === 'fi-FI') {
        expect(rows[0]?.[at('currency')]).toBe('EUR');
        expect(rows[0]?.[at('vatPercent')]).toBe('25,5');
        expect(rows[0]?.[at('description')]).toBe('Työtunti');
      } else {
        expect(rows[0]?.[at('currency')]).toBe('SEK');
        expect(rows[0]?.[at('vatPercent')]).toBe('25');
        expect(rows[0]?.[at('unitPrice')]).toBe('650.00');
      }
    }
    // Swedish: the default for a user without a stored language, and what `language=` asks for.
    await setLanguage('demo', null);
    const sv = await get(demo, '/api/limited/invoices/import/template?format=csv');
    expect(sv.headers['content-disposition']).toContain('fakturaimport-mall.csv');
    expect(readCsv(sv.rawPayload, ';')[0]?.slice(0, 4)).toEqual([
      'Fakturanummer',
      'Mottagarens organisationsnummer',
      'Mottagarens namn',
      'Fakturadatum',
    ]);
    expect(readCsv(sv.rawPayload, ';')[1]?.[12]).toBe('650,00');
    const fi = await get(demo, '/api/limited/invoices/import/template?format=csv&language=fi-FI');
    expect(readCsv(fi.rawPayload, ';')[0]?.[0]).toBe('Laskunumero');
    // The Excel template speaks the same language.
    const xlsx = await get(demo, '/api/limited/invoices/import/template?format=xlsx&language=en-US');
    expect(xlsx.headers['content-disposition']).toContain('invoice-import-template.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets[0]?.name).toBe('Invoices');
    expect(book.worksheets[0]?.getRow(1).values).toEqual([
      undefined,
      ...IMPORT_COLUMNS.map((c) => translate('en-US', 'invoices', `import.columns.${c}`)),
    ]);
    expect(book.worksheets[0]?.getRow(2).getCell(13).value).toBe('650.00');
  });

  it('a template in any language comes back in, for a user of any language', async () => {
    await setLanguage('demo', 'sv-SE');
    const demo = await t.login('demo');
    const gross: number[] = [];
    for (const language of LANGUAGES) {
      const tpl = await get(demo, `/api/limited/invoices/import/template?format=csv&language=${language}`);
      const checked = await preview(demo, tpl.rawPayload);
      expect(checked.fileIssues, language).toEqual([]);
      expect(checked, language).toMatchObject({ valid: 1, invalid: 0 });
      expect(checked.invoices[0]?.rows, language).toBe(2);
      gross.push(checked.invoices[0]?.grossMinor ?? 0);
    }
    // 8 × 650,00 + 1 234,50 = 6 434,50 before VAT, read alike from every language's decimal form.
    expect(gross[0]).toBeGreaterThan(643_450);
    expect(new Set(gross).size).toBe(1);
    // The Excel template with Finnish column names, and a Finnish issuer's own template (EUR, 25,5 %).
    const xlsx = await get(demo, '/api/limited/invoices/import/template?format=xlsx&language=fi-FI');
    const fromExcel = await t.app.inject({
      method: 'POST',
      url: '/api/limited/invoices/import/preview?format=xlsx',
      headers: { ...bearer(demo), 'content-type': 'application/octet-stream' },
      payload: xlsx.rawPayload,
    });
    expect(importPreviewResponseSchema.parse(fromExcel.json())).toMatchObject({ valid: 1, invalid: 0 });
    const other = await t.login('demo-other');
    // The Finnish demo issuer has no recipient yet: the template's example names one of the issuer's own.
    const created = await t.call(other, 'POST', '/api/limited/recipients', {
      ...VALID_RECIPIENT_BODY,
      name: 'Asiakas Oy',
    });
    expect(created.statusCode, created.body).toBe(200);
    const finnish = await preview(
      other,
      (await get(other, '/api/limited/invoices/import/template?format=csv')).rawPayload,
    );
    expect(finnish, JSON.stringify(finnish.invoices[0]?.issues)).toMatchObject({ valid: 1, invalid: 0 });
    expect(finnish.invoices[0]?.currency).toBe('EUR');
  });

  it('a file with English column names, commas and decimal points is imported by a Swedish user', async () => {
    await setLanguage('demo', 'sv-SE');
    const demo = await t.login('demo');
    const [anyRecipient] = await t.db
      .select({ issuerId: recipients.issuerId, organizationNumber: recipients.organizationNumber })
      .from(recipients)
      .innerJoin(users, eq(users.issuerId, recipients.issuerId))
      .where(and(eq(users.username, 'demo'), ne(recipients.organizationNumber, '')))
      .limit(1);
    if (!anyRecipient) throw new Error('a recipient of Demo Bygg with an organisation number');
    const en = csvWriter('en-US');
    // Typed as an English Excel saves it: straight apostrophe, other column order, thousands separator.
    const file = en.document(
      [
        'Invoice number',
        "Recipient's organization number",
        'Invoice date',
        'Due date',
        'Description',
        'Quantity',
        'Unit',
        'Unit price',
        'VAT rate',
      ],
      [
        [
          'EN-1',
          anyRecipient.organizationNumber,
          '2026-03-01',
          '2026-03-31',
          'Consulting, day',
          2,
          'st',
          '1,234.50',
          '25',
        ],
        [
          'EN-1',
          anyRecipient.organizationNumber,
          '2026-03-01',
          '2026-03-31',
          'Travel',
          1,
          'st',
          '0.05',
          '12',
        ],
      ],
    );
    const res = await post(demo, '', Buffer.from(file, 'utf8'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ created: [{ invoiceNumber: 'EN-1' }], skipped: 0 });
    const [invoice] = await t.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.invoiceNumber, 'EN-1'), eq(invoices.issuerId, anyRecipient.issuerId)));
    const rows = await t.db
      .select()
      .from(invoiceRows)
      .where(eq(invoiceRows.invoiceId, invoice?.id ?? ''));
    expect(rows.map((r) => [r.name, r.quantityMilli, r.unitPriceMinor]).sort()).toEqual([
      ['Consulting, day', 2000, 123_450],
      ['Travel', 1000, 5],
    ]);
  });

  it('the example invoice never has a number the issuer already used, also after it is imported', async () => {
    const demo = await t.login('demo');
    const issuerNumbers = async () => {
      const rows = await t.db
        .select({ n: invoices.invoiceNumber })
        .from(invoices)
        .innerJoin(users, eq(users.issuerId, invoices.issuerId))
        .where(eq(users.username, 'demo'));
      return new Set(rows.map((r) => r.n));
    };
    const exampleNumber = (bytes: Buffer) => readCsv(bytes, ';')[1]?.[0] ?? '';
    const seen: string[] = [];
    for (let round = 0; round < 3; round++) {
      const existing = await issuerNumbers();
      expect(existing.size).toBeGreaterThan(0);
      const tpl = await get(demo, '/api/limited/invoices/import/template?format=csv&language=sv-SE');
      const number = exampleNumber(tpl.rawPayload);
      expect(number).not.toBe('');
      expect(existing.has(number), `${number} is already used`).toBe(false);
      seen.push(number);
      const checked = await preview(demo, tpl.rawPayload);
      expect(checked.invoices.flatMap((i) => i.issues.map((x) => x.code))).not.toContain(
        'import.number_exists',
      );
      // Imported as it is, the example takes its number; the next template offers a new one.
      const imported = await post(demo, '', tpl.rawPayload);
      expect(imported.statusCode, imported.body).toBe(200);
      expect((await issuerNumbers()).has(number)).toBe(true);
    }
    expect(new Set(seen).size).toBe(3);
  });

  it('every column name of every language belongs to one column only', () => {
    const owner = new Map<string, string>();
    for (const column of IMPORT_COLUMNS)
      for (const name of [
        column,
        ...LANGUAGES.map((l) => translate(l, 'invoices', `import.columns.${column}`)),
      ]) {
        const key = name.toLowerCase();
        expect(owner.get(key) ?? column, `${name} names two columns`).toBe(column);
        owner.set(key, column);
      }
  });
});
