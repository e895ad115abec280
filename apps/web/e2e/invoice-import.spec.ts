import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { signInToMenu } from './support/flows';
import { expectNoSeriousA11yViolations, screenshot } from './support/helpers';

/**
 * The header line of the English template (the UI's language): the contract's IMPORT_COLUMNS in
 * English, `,` between them as English Excel expects, written out so that drift shows.
 */
const EN_HEADER =
  'Invoice number,Recipient’s organization number,Recipient name,Invoice date,Due date,Service,Currency,Order reference,Article number,Description,Quantity,Unit,Unit price,VAT rate';
/** The Swedish column names with `;`: a file in another language than the UI's is read all the same. */
const SV_HEADER =
  'Fakturanummer;Mottagarens organisationsnummer;Mottagarens namn;Fakturadatum;Förfallodatum;Tjänst;Valuta;Orderreferens;Artikelnummer;Beskrivning;Antal;Enhet;À-pris;Momssats';

/** The fields of one CSV line (RFC 4180 quotes) split at `separator`. */
function fieldsOf(line: string, separator: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}

async function downloadFrom(page: Page, button: string): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button }).click(),
  ]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

test('a customer downloads the template, previews a file with a bad line, imports the good invoices and finds them pending', async ({
  page,
}, testInfo) => {
  // Other specs share the demo data: the invoice numbers are unique to this run.
  const stamp = String(Date.now()).slice(-8);
  const first = `IMP-${stamp}-1`;
  const second = `IMP-${stamp}-2`;
  const bad = `IMP-${stamp}-3`;

  const nav = await signInToMenu(page, 'demo', 'Dana Demosson');
  await nav.getByRole('button', { name: 'Register' }).click();
  await nav.getByRole('link', { name: 'File upload' }).click();
  await expect(page).toHaveURL(/\/invoice\/fileupload$/);
  await expect(page.getByRole('heading', { level: 1, name: 'File upload' })).toBeVisible();

  // Both templates download under the server's name in the UI's language; the CSV is written for an
  // English Excel: BOM, the English header with `,`, a decimal point, CRLF line ends.
  const csvTemplate = await downloadFrom(page, 'Download template (CSV)');
  expect(csvTemplate.name).toBe('invoice-import-template.csv');
  expect([...csvTemplate.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const templateLines = csvTemplate.bytes.subarray(3).toString('utf8').split('\r\n');
  expect(templateLines[0]).toBe(EN_HEADER);
  expect(templateLines).toHaveLength(4);
  expect(templateLines[3]).toBe('');
  const example = fieldsOf(templateLines[1] ?? '', ',');
  expect(example).toHaveLength(14);
  expect(example[12]).toBe('650.00');
  const xlsxTemplate = await downloadFrom(page, 'Download template (Excel)');
  expect(xlsxTemplate.name).toBe('invoice-import-template.xlsx');
  expect(xlsxTemplate.bytes.subarray(0, 2).toString('latin1')).toBe('PK');

  // The template's example names one of the customer's own recipients: fill it in as a customer would.
  const [, orgNumber = '', recipientName = ''] = example;
  expect(recipientName).not.toBe('');
  const line = (number: string, org: string, invoiceDate: string, description: string, price: string) =>
    [number, org, recipientName, invoiceDate, '2026-04-30', 'factoring', 'SEK', 'PO-77', '', description]
      .concat(['2', 'h', price, '25'])
      .join(';');
  const file = [
    SV_HEADER,
    line(first, orgNumber, '2026-03-31', 'Konsulttimme', '950,00'),
    line(first, orgNumber, '2026-03-31', 'Resa', '120,50'),
    line(second, orgNumber, '2026-03-31', 'Arbetstimme', '650'),
    line(bad, '999999-9999', '2026-02-30', 'Okänd kund', '100'),
  ].join('\r\n');
  // The picker speaks the portal's language, not the browser's: our button and "No file chosen".
  const picker = page.getByLabel('CSV or Excel file');
  await expect(picker).toHaveAccessibleDescription(/^No file chosen/);
  await expect(page.getByText('Choose file', { exact: true })).toBeVisible();
  await picker.setInputFiles({
    name: 'mars-fakturor.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`${file}\r\n`, 'utf8'),
  });

  const preview = page.getByRole('heading', { name: '3. Check the invoices in mars-fakturor.csv' });
  await expect(picker).toHaveAccessibleDescription(/^mars-fakturor\.csv/);
  await expect(preview).toBeFocused();
  await expect(page.getByText('Invoices ready to import: 2')).toBeVisible();
  await expect(page.getByText('Invoices with errors: 1')).toBeVisible();
  // 2 × 950.00 + 2 × 120.50 = 2,141.00 + 25 % and 2 × 650.00 = 1,300.00 + 25 %: 4,301.25 in all.
  const totals = page.getByRole('table', { name: 'To import, per currency' });
  await expect(totals.getByRole('row', { name: /^SEK 2 SEK\s4,301\.25$/ })).toBeVisible();
  const table = page.getByRole('table', { name: 'Invoices in the file' });
  await expect(table.getByRole('row', { name: new RegExp(first) }).getByRole('cell')).toHaveText([
    'Ready',
    recipientName,
    'Mar 31, 2026',
    '2–3',
    '2',
    /^SEK\s2,676\.25$/,
    '',
  ]);
  const badRow = table.getByRole('row', { name: new RegExp(bad) });
  await expect(badRow).toContainText('Has errors');
  await expect(badRow.getByRole('listitem')).toHaveText([
    'Line 5, Recipient’s organization number: The recipient is not in your recipient register.',
    'Line 5, Invoice date: Invalid date, use YYYY-MM-DD.',
  ]);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'invoice-import-preview-en');

  await page.getByRole('button', { name: 'Import 2 invoices' }).click();
  await expect(page.getByRole('heading', { name: 'Import complete' })).toBeFocused();
  await expect(page.getByText('2 invoices have been imported and are waiting to be sent.')).toBeVisible();
  await expect(page.getByText('1 invoice with errors was not imported.')).toBeVisible();
  await expect(page.getByRole('link', { name: `Invoice ${first}` })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'invoice-import-result-en');

  await page.getByRole('link', { name: 'Go to pending invoices' }).click();
  await expect(page).toHaveURL(/\/invoice\/send$/);
  await expect(page.getByLabel(`Select invoice ${first}`)).toBeVisible();
  await expect(page.getByLabel(`Select invoice ${second}`)).toBeVisible();
  await expect(page.getByLabel(`Select invoice ${bad}`)).toHaveCount(0);
});
