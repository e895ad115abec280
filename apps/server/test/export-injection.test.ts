import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { recipients } from '../src/db/schema';
import { DEMO_BANKGIROS } from '../src/db/seed/demo';
import { importBgmaxFile, incomingPaymentsFile } from '../src/modules/money/money.service';
import { readCsv } from './support/csv-reader';
import { sentInvoices } from './support/money';
import { bearer } from './support/test-app';
import { useLogins, useTestApp } from './support/use-test-app';

/**
 * Every Excel and CSV file the customer downloads, with a recipient and a payer whose names are
 * formulas: each such text arrives with a leading apostrophe, so it can never run when the customer
 * opens the file (issue #4; OWASP "CSV injection").
 */

const NAME = '=HYPERLINK("https://evil.test","Kund")';
const CITY = '+46 Stad';
const PAYER = '@SUM(1+1)';
const HOSTILE = [NAME, CITY, PAYER];

const t = useTestApp({ startTimeoutMs: 180_000 });
beforeAll(async () => {
  t.clock.set(new Date('2026-03-05T09:00:00Z'));
  const [invoice] = await sentInvoices(t, { n: 1, service: 'factoring', approve: true });
  if (!invoice?.ocr) throw new Error('an approved invoice with an OCR reference');
  await t.db.update(recipients).set({ name: NAME, city: CITY }).where(eq(recipients.id, invoice.recipientId));
  const bytes = incomingPaymentsFile({
    paymentDate: '2026-03-10',
    deposits: [
      {
        bankgiro: DEMO_BANKGIROS.bygg,
        payments: [{ reference: invoice.ocr, amountMinor: 10_000, name: PAYER }],
      },
    ],
    firstSerial: 990_001,
    firstDeposit: 99_001,
  });
  await importBgmaxFile(t.db, bytes, {
    filename: 'hostile.bgmax',
    operatorId: null,
    now: new Date('2026-03-10T08:00:00Z'),
  });
});
// Signed in after the import, at the clock the set-up left.
const user = useLogins(t, { token: 'demo' });

async function download(url: string): Promise<Buffer> {
  const res = await t.app.inject({ method: 'GET', url, headers: bearer(user.token) });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return res.rawPayload;
}

async function excelTexts(bytes: Buffer): Promise<string[]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const texts: string[] = [];
  for (const sheet of book.worksheets)
    sheet.eachRow((row) =>
      row.eachCell((cell) => {
        if (typeof cell.value === 'string') texts.push(cell.value);
        // A cell written as a formula would come back as an object with `formula`.
        else if (cell.value && typeof cell.value === 'object' && 'formula' in cell.value)
          texts.push(`FORMULA:${String(cell.value.formula)}`);
      }),
    );
  return texts;
}

/** The fields of a CSV file, every line's, read strictly (BOM, RFC 4180 quoting, CRLF). */
const csvTexts = (bytes: Buffer, separator: ';' | ','): string[] => readCsv(bytes, separator).flat();

function expectNeutralised(texts: string[], mustHold: string[]): void {
  for (const text of texts) {
    expect(text.startsWith('FORMULA:'), text).toBe(false);
    for (const bad of HOSTILE) if (text.includes(bad)) expect(text).toBe(`'${bad}`);
  }
  for (const bad of mustHold) expect(texts).toContain(`'${bad}`);
}

describe('spreadsheet exports neutralise formula-like text', () => {
  it('payments report, Excel and CSV', async () => {
    const query = 'from=2026-03-01&to=2026-03-31&language=en-US';
    expectNeutralised(
      await excelTexts(await download(`/api/limited/reports/payments/export?${query}&format=excel`)),
      [NAME, PAYER],
    );
    // CSV in each dialect: `,` in English, `;` in Swedish and Finnish (lib/csv.ts).
    for (const [language, separator] of [
      ['en-US', ','],
      ['sv-SE', ';'],
      ['fi-FI', ';'],
    ] as const)
      expectNeutralised(
        csvTexts(
          await download(
            `/api/limited/reports/payments/export?from=2026-03-01&to=2026-03-31&language=${language}&format=csv`,
          ),
          separator,
        ),
        [NAME, PAYER],
      );
  });

  it('active invoices', async () => {
    expectNeutralised(
      await excelTexts(await download('/api/limited/reports/activeInvoices?language=en-US')),
      [NAME],
    );
  });

  it('active regress', async () => {
    expectNeutralised(
      await excelTexts(
        await download(
          '/api/limited/reports/activeRegress?from=2026-05-01&to=2026-06-30&fileType=excel&language=en-US',
        ),
      ),
      [NAME],
    );
  });

  it('ledger', async () => {
    expectNeutralised(
      await excelTexts(
        await download('/api/limited/reports/ledger/export?date=2026-03-20&fileType=excel&language=en-US'),
      ),
      [NAME, CITY],
    );
  });
});
