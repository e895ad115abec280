import { readFile } from 'node:fs/promises';
import { type Download, expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import {
  dateField,
  dateFieldValue,
  monthEndIso,
  monthStartIso,
  swedishToday,
  typeDate,
} from './support/dates';
import { signInToMenu } from './support/flows';
import { expectNoSeriousA11yViolations, screenshot } from './support/helpers';

async function bytesOf(download: Download): Promise<Buffer> {
  const path = await download.path();
  if (!path) throw new Error('the download was not saved');
  return readFile(path);
}

async function downloadBy(page: Page, name: string): Promise<Download> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name }).click(),
  ]);
  return download;
}

test('a customer reads the payments of a period, filters them and downloads them as Excel and CSV', async ({
  page,
}, testInfo) => {
  const nav = await signInToMenu(page, 'demo', 'Dana Demosson');
  await nav.getByRole('button', { name: 'Reports' }).click();
  await nav.getByRole('link', { name: 'Payments' }).click();
  await expect(page).toHaveURL(/\/reports\/payments/);
  await expect(page.getByRole('heading', { name: 'Payments' })).toBeVisible();

  // The period is the current month unless chosen.
  const today = swedishToday();
  await expect(dateFieldValue(dateField(page, 'From'))).toHaveValue(monthStartIso(today));
  await expect(dateFieldValue(dateField(page, 'To'))).toHaveValue(monthEndIso(today));

  // The last four months of the demo's paid invoices.
  const from = monthStartIso(today, -3);
  await typeDate(dateField(page, 'From'), from);
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(new RegExp(`from=${from}`));
  const table = page.getByRole('table', { name: 'Payments' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  const summary = page.getByRole('navigation', { name: 'Payments' }).locator('.pagination__summary');
  const total = Number(((await summary.textContent()) ?? '').match(/of ([\d,]+)/)?.[1]?.replace(/,/g, ''));
  expect(total).toBeGreaterThan(0);
  await expect(page.getByText(/^Total SEK: /)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'payments-report-en');

  // Excel: one row per payment of the period (every page), under the translated header.
  const excel = await downloadBy(page, 'Download Excel');
  expect(excel.suggestedFilename()).toMatch(/^payments-.*\.xlsx$/);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load((await bytesOf(excel)) as unknown as ArrayBuffer);
  const sheet = book.getWorksheet('Payments');
  expect(sheet?.getRow(1).getCell(1).value).toBe('Payment date');
  expect((sheet?.rowCount ?? 0) - 1).toBe(total);

  // CSV: the same rows, written for an English Excel (BOM, `,` between fields, a decimal point).
  const csv = await downloadBy(page, 'Download CSV');
  const csvBytes = await bytesOf(csv);
  expect([...csvBytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = csvBytes
    .subarray(3)
    .toString('utf8')
    .split('\r\n')
    .filter((l) => l !== '');
  expect(lines[0]).toMatch(/^Payment date,Invoice number,/);
  expect(lines.length - 1).toBe(total);
  // Each line ends in the amount, the applied and the overpaid part, the currency and how a deduction
  // was handled (blank for a payment).
  for (const line of lines.slice(1))
    expect(line).toMatch(/,-?\d+\.\d\d,-?\d+\.\d\d,-?\d+\.\d\d,(SEK|EUR),("Deduction, [a-z ]+"|)$/);

  // The invoice number of the first row narrows the list to that invoice.
  const invoiceNumber = (await table.getByRole('row').nth(1).getByRole('cell').nth(1).textContent()) ?? '';
  await page.getByLabel('Invoice number').fill(invoiceNumber);
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(new RegExp(`invoiceNumber=${invoiceNumber}`));
  const rows = table.getByRole('row');
  await expect(rows.nth(1).getByRole('cell').nth(1)).toHaveText(new RegExp(`^${invoiceNumber}`));
  // Every row of the filtered list, read again until the list has settled (a snapshot of the rows
  // taken while the filtered answer replaces the old one may name a row that is gone).
  const invoiceCells = () =>
    rows.evaluateAll((trs) => trs.slice(1).map((tr) => tr.querySelectorAll('td')[1]?.textContent ?? ''));
  await expect
    .poll(async () => (await invoiceCells()).every((text) => text.startsWith(invoiceNumber)))
    .toBe(true);

  // An end before the start is refused on the page.
  await typeDate(dateField(page, 'To'), monthStartIso(today, -5));
  await expect(page.getByText('The end date cannot be before the start date.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Show' })).toBeDisabled();
  await screenshot(page, testInfo, 'payments-report-wrong-range-en');
});
