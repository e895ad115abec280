import { expect, type Page } from '@playwright/test';

/**
 * Creates a recipient over the API as the signed-in customer (`auth`): the name and e-mail given, a
 * Stockholm address, and a VAT number when given (a company). Returns its id.
 */
export async function createRecipient(
  page: Page,
  auth: { Authorization: string },
  recipient: { name: string; email: string; vat?: string },
): Promise<string> {
  const created = await page.request.post('/api/limited/recipients', {
    headers: auth,
    data: { zipcode: '114 35', city: 'Stockholm', ...recipient },
  });
  expect(created.status(), await created.text()).toBe(200);
  return ((await created.json()) as { recipientID: string }).recipientID;
}
