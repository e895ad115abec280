import { expect, type Page } from '@playwright/test';
import { addDaysIso, swedishToday } from './dates';
import { signInAsDemo } from './flows';

/**
 * Registers, over the API as the signed-in customer, a factoring invoice in SEK to the first recipient,
 * dated today and due in 30 days (or on `dueDate`): 10 h × 800.00 + 25 % VAT = 10,000.00. Returns its id.
 */
export async function registerFinancedInvoice(
  page: Page,
  auth: { Authorization: string },
  invoiceNumber: string,
  dueDate = addDaysIso(swedishToday(), 30),
): Promise<string> {
  const recipients = await page.request.get('/api/limited/recipients?pageSize=1', { headers: auth });
  const recipientID = ((await recipients.json()) as { items: { recipientID: string }[] }).items[0]
    ?.recipientID;
  const created = await page.request.post('/api/limited/invoices', {
    headers: auth,
    data: {
      recipientID,
      invoiceNumber,
      service: 'factoring',
      currency: 'SEK',
      invoiceDate: swedishToday(),
      dueDate,
      rows: [
        { name: 'Takarbete', quantityMilli: 10_000, unit: 'h', unitPriceMinor: 80_000, vatBasisPoints: 2500 },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  return ((await created.json()) as { invoiceID: string }).invoiceID;
}

/**
 * Signs in as the demo customer and registers the financed invoice `invoiceNumber` (as
 * registerFinancedInvoice); its id and the customer's API headers.
 */
export async function signInWithFinancedInvoice(
  page: Page,
  invoiceNumber: string,
): Promise<{ auth: { Authorization: string }; invoiceID: string }> {
  const auth = await signInAsDemo(page);
  // A financed invoice of 10 h × 800.00 + 25 % VAT = 10,000.00, registered over the API.
  const invoiceID = await registerFinancedInvoice(page, auth, invoiceNumber);
  return { auth, invoiceID };
}

/**
 * On the send page with the invoice `invoiceNumber` selected: sends it through the confirmation
 * dialog and waits for the notice that it was sent.
 */
export async function sendSelected(page: Page, invoiceNumber: string): Promise<void> {
  await page.getByRole('button', { name: 'Send selected' }).click();
  await page
    .getByRole('dialog', { name: 'Send invoices?' })
    .getByRole('button', { name: 'Send 1 invoice' })
    .click();
  await expect(page.getByText(new RegExp(`Invoice ${invoiceNumber}: sent`))).toBeVisible();
}

/** The back office (`operator`'s headers) approves a sent invoice and runs a payout; the run's answer. */
export async function approveAndPayOut(
  page: Page,
  operator: { Authorization: string },
  invoiceID: string,
): Promise<unknown> {
  const approved = await page.request.post(`/api/backoffice/invoices/${invoiceID}/approve`, {
    headers: operator,
  });
  expect(approved.status(), await approved.text()).toBe(200);
  const run = await page.request.post('/api/backoffice/payouts', { headers: operator, data: {} });
  expect(run.status(), await run.text()).toBe(200);
  return run.json();
}
