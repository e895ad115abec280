import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { dateField, typeDate } from './support/dates';
import { DEMO_PASSWORD } from './support/env';
import { chooseLanguage, signInToMenu } from './support/flows';
import { screenshot } from './support/helpers';

test('the ledger report by date with its Excel and PDF, and the menu’s active invoices and regress downloads', async ({
  page,
}, testInfo) => {
  const nav = await signInToMenu(page, 'demo', 'Dana Demosson');
  // The demo account keeps its books in Fortnox, so the menu hides the ledger entry (spec §2); the
  // page itself is open to its limited_report_ledger ability.
  await page.goto('/reports/ledger');
  await expect(page.getByRole('heading', { name: 'Ledger' })).toBeVisible();

  const date = dateField(page, 'As of');
  const answer = page.waitForResponse(
    (r) => r.url().includes('/api/limited/reports/ledger?') && r.url().includes('date=2026-01-15'),
  );
  await typeDate(date, '2026-01-15');
  expect((await answer).status()).toBe(200);
  await expect(page.getByRole('table').getByRole('rowheader').first()).toBeVisible();
  await screenshot(page, testInfo, 'ledger-2026-01-15');
  // Issue #11: at 1280 px the twelve columns fit the page (the table does not scroll in its frame),
  // and the two downloads sit side by side.
  await page.setViewportSize({ width: 1280, height: 900 });
  const frame = page.locator('.table-wrap');
  await expect
    .poll(() => frame.evaluate((el) => el.scrollWidth - el.clientWidth), { timeout: 5_000 })
    .toBeLessThanOrEqual(0);
  await expect(page.getByRole('columnheader', { name: 'Process' })).toBeInViewport();
  const excelBox = await page.getByRole('button', { name: 'Download Excel' }).boundingBox();
  const pdfBox = await page.getByRole('button', { name: 'Download PDF' }).boundingBox();
  expect(excelBox && pdfBox && Math.abs(pdfBox.x - (excelBox.x + excelBox.width))).toBeLessThanOrEqual(16);
  await screenshot(page, testInfo, 'ledger-1280-en');

  const excel = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Excel' }).click();
  const excelFile = await excel;
  // Files are written in the user's stored language (Swedish for the demo account).
  expect(excelFile.suggestedFilename()).toMatch(/^(ledger|reskontra)-2026-01-15\.xlsx$/);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(readFileSync((await excelFile.path()) as string) as unknown as ArrayBuffer);
  // The spec's twelve columns and the installment plan's loan number after the invoice number (issue #14).
  expect(book.worksheets[0]?.getRow(1).cellCount).toBe(13);

  const pdf = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download PDF' }).click();
  const pdfFile = await pdf;
  expect(pdfFile.suggestedFilename()).toMatch(/^(ledger|reskontra)-2026-01-15\.pdf$/);
  expect(
    readFileSync((await pdfFile.path()) as string)
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');

  await nav.getByRole('button', { name: 'Reports' }).click();
  const active = page.waitForEvent('download');
  await nav.getByRole('button', { name: 'Download active invoices' }).click();
  const activeFile = await active;
  expect(activeFile.suggestedFilename()).toMatch(
    /^(active-invoices|aktiva-fakturor)-\d{4}-\d{2}-\d{2}\.xlsx$/,
  );
  const activeBook = new ExcelJS.Workbook();
  await activeBook.xlsx.load(readFileSync((await activeFile.path()) as string) as unknown as ArrayBuffer);
  expect(['Invoice number', 'Fakturanummer']).toContain(activeBook.worksheets[0]?.getRow(1).getCell(1).value);

  await nav.getByRole('button', { name: 'Reports' }).click();
  await nav.getByRole('button', { name: 'Download active recourse' }).click();
  const modal = page.getByRole('dialog', { name: 'Download active recourse' });
  await typeDate(dateField(modal, 'From'), '2026-01-01');
  await typeDate(dateField(modal, 'To'), '2026-12-31');
  const regress = page.waitForEvent('download');
  await modal.getByRole('button', { name: 'Download' }).click();
  const regressFile = await regress;
  expect(regressFile.suggestedFilename()).toMatch(
    /^(active-regress|aktiv-regress)-2026-01-01-2026-12-31\.(pdf|xlsx)$/,
  );
});

test('the ledger fits 1280 px in Finnish, the longest labels, with its downloads side by side', async ({
  page,
}, testInfo) => {
  await page.goto('/login');
  await chooseLanguage(page, 'Suomi');
  await page.getByLabel('Käyttäjätunnus').fill('demo');
  await page.getByLabel('Salasana', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Kirjaudu sisään' }).click();
  await expect(page.getByRole('navigation', { name: 'Päävalikko' })).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/reports/ledger');
  await expect(page.getByRole('heading', { name: 'Reskontra' })).toBeVisible();
  await typeDate(dateField(page, 'Päivänä'), '2026-01-15');
  await expect(page.getByRole('table').getByRole('rowheader').first()).toBeVisible();
  const frame = page.locator('.table-wrap');
  await expect
    .poll(() => frame.evaluate((el) => el.scrollWidth - el.clientWidth), { timeout: 5_000 })
    .toBeLessThanOrEqual(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  const excelBox = await page.getByRole('button', { name: 'Lataa Excel' }).boundingBox();
  const pdfBox = await page.getByRole('button', { name: 'Lataa PDF' }).boundingBox();
  expect(excelBox && pdfBox && Math.abs(pdfBox.x - (excelBox.x + excelBox.width))).toBeLessThanOrEqual(16);
  await screenshot(page, testInfo, 'ledger-1280-fi');
});
