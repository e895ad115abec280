import { expect, test } from '@playwright/test';
import { chooseLanguage, expectSignedIn, signIn } from './support/flows';
import { screenshot } from './support/helpers';
import { sessionToken } from './support/tokens';

test('our messages read in the language of the screen, and the unread counts agree (issue #11)', async ({
  page,
}, testInfo) => {
  await signIn(page, 'demo');
  await expectSignedIn(page, 'Dana Demosson');
  // The thread of invoice 10037: our payment reminder and Dana's own answer.
  const answer = await page.request.get('/api/limited/messages?pageSize=100', {
    headers: { Authorization: `Bearer ${await sessionToken(page)}` },
  });
  const { items } = (await answer.json()) as { items: { invoiceNumber: string | null; invoiceID: string }[] };
  const invoiceID = items.find((m) => m.invoiceNumber === '10037')?.invoiceID;
  expect(invoiceID).toBeTruthy();

  await page.goto('/invoice/messages');
  // The header's count and the page's count are one number.
  const unreadText = await page.getByText(/^\d+ unread messages?$/).textContent();
  const pageCount = Number(/\d+/.exec(unreadText ?? '')?.[0]);
  await expect(page.getByRole('button', { name: `Messages, ${pageCount} unread` })).toBeVisible();

  await page.goto(`/invoice/messages?invoiceID=${invoiceID}`);
  const list = page.locator('.message-list');
  await expect(list.getByRole('button', { name: /Invoice 10037: payment reminder sent/ })).toBeVisible();
  // One name signs what our side wrote.
  await expect(list.getByText(/^Customer service ·/).first()).toBeVisible();
  // Dana's own message is never unread for her.
  const own = list.locator('.message-list__item', { hasText: 'Re: Faktura 10037' });
  await expect(own).toBeVisible();
  await expect(own.getByText('Unread', { exact: true })).toHaveCount(0);
  // The thread's count is the thread's: as many as its items marked unread.
  const marked = await list.getByText('Unread', { exact: true }).count();
  await expect(page.getByText(marked === 1 ? '1 unread message' : `${marked} unread messages`)).toBeVisible();
  await screenshot(page, testInfo, 'messages-en-US');

  // Another language reads them again, without a reload.
  await chooseLanguage(page, 'Suomi');
  await expect(list.getByRole('button', { name: /Lasku 10037: maksumuistutus lähetetty/ })).toBeVisible();
  await expect(list.getByText(/^Asiakaspalvelu ·/).first()).toBeVisible();
  await screenshot(page, testInfo, 'messages-fi-FI');
  await chooseLanguage(page, 'Svenska');
  await expect(
    list.getByRole('button', { name: /Faktura 10037: betalningspåminnelse skickad/ }),
  ).toBeVisible();
  await expect(list.getByText(/^Kundservice ·/).first()).toBeVisible();
  await screenshot(page, testInfo, 'messages-sv-SE');
  await chooseLanguage(page, 'English');
  await expect(list.getByRole('button', { name: /Invoice 10037: payment reminder sent/ })).toBeVisible();
});
