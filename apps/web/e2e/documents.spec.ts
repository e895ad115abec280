import { expect, type Page, test } from '@playwright/test';
import { signInAsDemo } from './support/flows';
import { expectNoSeriousA11yViolations, screenshot } from './support/helpers';
import { downloadedBytes, pdfContains } from './support/pdf';
import { createRecipient } from './support/recipients';

/**
 * Signs in as demo and registers an invoice numbered `<prefix>-<stamp>` through the API for a new
 * recipient (whose name ends in the stamp); returns the stamp, the number and the invoice's id.
 */
async function registerInvoice(
  page: Page,
  prefix: string,
): Promise<{ stamp: string; number: string; invoiceID: string }> {
  const stamp = String(Date.now()).slice(-8);
  const number = `${prefix}-${stamp}`;
  return { stamp, number, invoiceID: await createInvoice(page, await signInAsDemo(page), stamp, number) };
}

/** Registers an invoice of the signed-in user through the API for a new recipient; returns its id. */
async function createInvoice(
  page: Page,
  auth: { Authorization: string },
  stamp: string,
  number: string,
): Promise<string> {
  const recipientID = await createRecipient(page, auth, {
    name: `E2E Dokument ${stamp}`,
    email: 'e2e-dok@example.com',
  });
  const created = await page.request.post('/api/limited/invoices', {
    headers: auth,
    data: {
      recipientID,
      invoiceNumber: number,
      service: 'factoring',
      currency: 'SEK',
      invoiceDate: '2026-03-02',
      dueDate: '2026-04-01',
      rows: [
        {
          name: 'Konsulttimme',
          quantityMilli: 2000,
          unit: 'h',
          unitPriceMinor: 95_000,
          vatBasisPoints: 2500,
        },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const { invoiceID } = (await created.json()) as { invoiceID: string };
  return invoiceID;
}

test('a customer downloads the invoice PDF and attaches, lists and downloads PDF files', async ({
  page,
}, testInfo) => {
  const { stamp, number, invoiceID } = await registerInvoice(page, 'DOC');

  // Our PDF of the invoice, in English, under the server's file name.
  await page.goto(`/invoices/${invoiceID}`);
  await expect(page.getByRole('heading', { name: `Invoice ${number}` })).toBeVisible();
  await expect(page.getByText('No files are attached.')).toBeVisible();
  const [invoicePdf] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download invoice PDF' }).click(),
  ]);
  expect(invoicePdf.suggestedFilename()).toBe(`faktura-${number}.pdf`);
  const pdfBytes = await downloadedBytes(invoicePdf);
  expect(pdfBytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdfContains(pdfBytes, number)).toBe(true);

  // Attach files in the edit form: a text file named .pdf is refused in the browser, a PDF is uploaded.
  await page.getByRole('link', { name: 'Edit' }).click();
  const attach = page.getByLabel('Attach PDF files');
  await attach.setInputFiles({
    name: 'notes.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('hello'),
  });
  await expect(
    page.getByText('notes.pdf: Only PDF files are allowed as an invoice or attachment.'),
  ).toBeVisible();
  await attach.setInputFiles({
    name: `contract-${stamp}.pdf`,
    mimeType: 'application/pdf',
    buffer: pdfBytes,
  });
  await expect(page.getByRole('button', { name: `Remove contract-${stamp}.pdf` })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'invoice-attachments-en');
  await page.getByRole('button', { name: 'Save changes' }).click();

  await expect(page.getByText('Your changes have been saved.')).toBeVisible();
  const file = page.getByRole('button', { name: `contract-${stamp}.pdf` });
  await expect(file).toBeVisible();
  await screenshot(page, testInfo, 'invoice-documents-en');
  const [attachment] = await Promise.all([page.waitForEvent('download'), file.click()]);
  expect(attachment.suggestedFilename()).toBe(`contract-${stamp}.pdf`);
  expect((await downloadedBytes(attachment)).equals(pdfBytes)).toBe(true);
});

test('a customer writes a message about an invoice and reads it in the invoice thread', async ({
  page,
}, testInfo) => {
  const { stamp, number, invoiceID } = await registerInvoice(page, 'MSG');
  await page.goto(`/invoices/${invoiceID}`);
  await page.getByRole('link', { name: 'Messages about this invoice' }).click();
  await expect(page).toHaveURL(new RegExp(`/invoice/messages\\?invoiceID=${invoiceID}$`));
  await expect(page.getByRole('heading', { name: `Messages about invoice ${number}` })).toBeVisible();
  await expect(page.getByText('There are no messages.')).toBeVisible();
  await expect(page.getByText(`This message is about invoice ${number}.`)).toBeVisible();

  // The contract rules first, then the message.
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('This field is required.')).toHaveCount(2);
  const title = `Delivery note ${stamp}`;
  await page.getByLabel('Subject').fill(title);
  await page.getByRole('textbox', { name: 'Message' }).fill(`Please find the delivery note for ${number}.`);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Your message has been sent.')).toBeVisible();

  const item = page.getByRole('button', { name: new RegExp(title) });
  await expect(item).toBeVisible();
  await expect(item).toContainText(`invoice ${number}`);
  await item.click();
  await expect(page.getByText(`Please find the delivery note for ${number}.`)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'invoice-messages-en');

  // The whole inbox holds it too, and the header's menu links there.
  await page.getByRole('link', { name: 'Show all messages' }).first().click();
  await expect(page.getByRole('heading', { name: 'Messages', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: new RegExp(title) })).toBeVisible();
});

test('a customer chooses two invoices in the history and downloads them as one PDF', async ({
  page,
}, testInfo) => {
  const stamp = String(Date.now()).slice(-8);
  const numbers = [`BULK-${stamp}-1`, `BULK-${stamp}-2`];
  const auth = await signInAsDemo(page);
  for (const number of numbers) await createInvoice(page, auth, `${stamp}${number.slice(-2)}`, number);

  await page.goto(`/invoices?search=BULK-${stamp}`);
  await expect(page.getByRole('heading', { name: 'Invoices', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: numbers[1] })).toBeVisible();
  const download = page.getByRole('button', { name: 'Download PDF' });
  await expect(download).toBeDisabled();
  for (const number of numbers)
    await page.getByRole('checkbox', { name: `Select invoice ${number}` }).check();
  await expect(page.getByText('2 invoices selected')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Select all invoices on this page' })).toBeChecked();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'invoice-bulk-pdf-en');

  const [pdf] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(pdf.suggestedFilename()).toMatch(/^fakturor-\d{4}-\d{2}-\d{2}\.pdf$/);
  const bytes = await downloadedBytes(pdf);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  for (const number of numbers) expect(pdfContains(bytes, number), number).toBe(true);
  await expect(page.getByRole('alert').filter({ hasText: /./ })).toHaveCount(0);

  // Another search is another list: the choice is let go.
  await page.getByRole('searchbox', { name: 'Search' }).fill(numbers[0] ?? '');
  await expect(page.getByText('0 invoices selected')).toBeVisible();
  await expect(download).toBeDisabled();
});

test('a customer sets a recipient’s document language to English; it is saved, shown and the invoice PDF follows it (issue #11)', async ({
  page,
}, testInfo) => {
  // A Swedish recipient: its documents start in Swedish.
  const { stamp, invoiceID } = await registerInvoice(page, 'LANG');
  const name = `E2E Dokument ${stamp}`;
  const pdfOf = async () => {
    await page.goto(`/invoices/${invoiceID}`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download invoice PDF' }).click(),
    ]);
    return downloadedBytes(download);
  };
  const before = await pdfOf();
  expect(pdfContains(before, 'Att betala')).toBe(true);
  expect(pdfContains(before, 'Amount due')).toBe(false);

  await page.goto(`/recipient?search=${encodeURIComponent(name)}`);
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('Swedish');
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit recipient' });
  const language = edit.getByRole('combobox', { name: 'Document language' });
  await expect(language).toHaveValue('sv-SE');
  await language.selectOption({ label: 'English' });
  await language.scrollIntoViewIfNeeded();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'recipient-document-language-en');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByText(`The changes to ${name} have been saved.`)).toBeVisible();
  await expect(row).toContainText('English');
  await screenshot(page, testInfo, 'recipients-document-language-list-en');

  // Saved: a reload shows it in the list and in the form.
  await page.reload();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('English');
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const saved = edit.getByRole('combobox', { name: 'Document language' });
  await expect(saved).toHaveValue('en-US');
  await expect(saved.locator('option:checked')).toHaveText('English');
  await edit.getByRole('button', { name: 'Cancel' }).click();

  // The invoice's PDF is now written in English, for this Swedish-speaking customer too.
  const after = await pdfOf();
  expect(pdfContains(after, 'Amount due')).toBe(true);
  expect(pdfContains(after, 'Att betala')).toBe(false);
});
