import { expect, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { signInAsDemo } from './support/flows';
import { expectNoSeriousA11yViolations, screenshot } from './support/helpers';
import { downloadedBytes, pdfContains } from './support/pdf';
import { createRecipient } from './support/recipients';

/** The customer's own invoice: a one-page PDF with its number on it. */
async function invoicePdf(number: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText(`Faktura ${number}`, { x: 50, y: 760, size: 18, font });
  return Buffer.from(await doc.save());
}

/**
 * A Swedish OCR reference made independently of the portal (Luhn over the base, weights 2, 1, … from
 * the right), unique to this run so that the issuer's unique own-OCR rule does not meet an older run.
 */
function ocrReference(base: string): string {
  let sum = 0;
  for (let i = 0; i < base.length; i++) {
    const product = Number(base[base.length - 1 - i]) * (i % 2 === 0 ? 2 : 1);
    sum += product > 9 ? product - 9 : product;
  }
  return base + String((10 - (sum % 10)) % 10);
}

test('a customer uploads its own invoice PDF, finds it pending, sends it and downloads it with our payment slip', async ({
  page,
}, testInfo) => {
  const stamp = String(Date.now()).slice(-8);
  const number = `UPL-${stamp}`;
  const recipientName = `E2E Uppladdning ${stamp}`;
  const ocr = ocrReference(`77${stamp}`);

  await createRecipient(page, await signInAsDemo(page), {
    name: recipientName,
    email: 'e2e-upl@example.com',
  });

  // Register → Upload invoice, from the menu.
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await nav.getByRole('button', { name: 'Register' }).click();
  await nav.getByRole('link', { name: 'Upload invoice' }).click();
  await expect(page).toHaveURL(/\/invoice\/upload$/);
  await expect(page.getByRole('heading', { name: 'Upload invoice' })).toBeVisible();

  // Saving without a file: the rule of spec §5, shown before anything is sent.
  await page.getByRole('button', { name: 'Register invoice' }).click();
  await expect(page.getByText('A file must be attached.')).toBeVisible();
  await expect(page.getByText('Some details are missing or wrong.', { exact: false })).toBeVisible();

  await page
    .getByLabel('Choose the invoice PDF', { exact: true })
    .setInputFiles({ name: `${number}.pdf`, mimeType: 'application/pdf', buffer: await invoicePdf(number) });
  await expect(page.getByRole('button', { name: `Remove ${number}.pdf` })).toBeVisible();
  await expect(page.getByText('A file must be attached.')).toBeHidden();

  await page.getByRole('combobox', { name: /Recipient/ }).fill(recipientName);
  await page.getByRole('option', { name: new RegExp(recipientName) }).click();
  await page.getByLabel('Invoice number').fill(number);
  await page.getByLabel(/Own OCR reference/).fill(ocr);
  // 10,000.00 at 25 % and 1,500.00 at 12 %: VAT 2,500.00 + 180.00, total 14,180.00.
  await page.getByLabel('Amount excl. VAT, line 1', { exact: true }).fill('10000');
  await page.getByRole('button', { name: 'Add VAT rate' }).click();
  await page.getByLabel('VAT rate, line 2', { exact: true }).selectOption({ label: '12%' });
  await page.getByLabel('Amount excl. VAT, line 2', { exact: true }).fill('1500');
  await expect(page.getByTestId('invoice-to-pay')).toHaveText(/SEK\s14,180\.00/);
  // Every field is fine now: the form's "check the fields" notice has gone.
  await expect(page.getByText('Some details are missing or wrong.', { exact: false })).toBeHidden();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'invoice-upload-en');

  await page.getByRole('button', { name: 'Register invoice' }).click();
  await expect(page.getByRole('heading', { name: `Invoice ${number}` })).toBeVisible();
  await expect(page.getByText('The invoice has been registered.')).toBeVisible();
  await expect(page.getByRole('button', { name: `${number}.pdf` })).toBeVisible();
  await expect(page.locator('.invoice-detail__ocr')).toHaveText(ocr);
  await screenshot(page, testInfo, 'invoice-upload-detail-en');
  const detailUrl = page.url();

  // It waits among the pending invoices, with the customer's own OCR reference.
  await page.goto('/invoice/send');
  await expect(page.getByLabel(`Select invoice ${number}`)).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(number) })).toContainText(recipientName);
  await expect(page.getByRole('row', { name: new RegExp(number) })).toContainText(/SEK\s14,180\.00/);
  await screenshot(page, testInfo, 'invoice-upload-pending-en');

  // Sent, its document is the customer's own PDF with our payment slip page after it (issue #11).
  await page.getByLabel(`Select invoice ${number}`).check();
  await page.getByRole('button', { name: 'Send selected' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send invoices?' });
  await dialog.getByRole('button', { name: 'Send 1 invoice' }).click();
  await expect(dialog).toHaveCount(0);
  await page.goto(detailUrl);
  await expect(page.getByRole('heading', { name: `Invoice ${number}` })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download invoice PDF' }).click(),
  ]);
  const bytes = await downloadedBytes(download);
  const pages = (await PDFDocument.load(bytes)).getPages();
  expect(pages).toHaveLength(2);
  // The customer's page as uploaded, then our slip with the customer's own OCR reference.
  expect(pdfContains(bytes, `Faktura ${number}`)).toBe(true);
  expect(pdfContains(bytes, ocr)).toBe(true);
  // A second download returns the same bytes: the document was stored when it was sent.
  const [again] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download invoice PDF' }).click(),
  ]);
  expect(Buffer.compare(await downloadedBytes(again), bytes)).toBe(0);
});
