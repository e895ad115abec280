import { expect, type Page } from '@playwright/test';
import { addDaysIso, swedishToday } from './dates';

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
