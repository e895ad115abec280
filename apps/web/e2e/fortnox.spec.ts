import { expect, type Page, test } from '@playwright/test';
import { DEMO_PASSWORD } from './support/env';
import { chooseLanguage, signInToMenu } from './support/flows';
import { expectNoSeriousA11yViolations, screenshot } from './support/helpers';

/**
 * Fortnox business invoices (issue #13), against the Fortnox sandbox the embedded demo starts: the
 * demo user connects Demo Bygg AB's Fortnox on Fortnox's approval page, sends two of its invoices
 * through the fee preview and confirmation of /invoice/send, finds them in the invoice list, and
 * sees the explanatory message of an inactive integration (spec §6) in every language.
 */

/** Signs in as demo and opens the pending business invoices from the main menu. */
async function openFromMenu(page: Page): Promise<void> {
  const nav = await signInToMenu(page, 'demo', 'Dana Demosson');
  await nav.getByRole('button', { name: 'Invoices' }).click();
  await nav.getByRole('link', { name: /Pending business invoices/ }).click();
  await expect(page).toHaveURL(/\/invoice\/send-business$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Pending business invoices' })).toBeVisible();
}

test('the demo user connects Fortnox and sends two business invoices through the send confirmation', async ({
  page,
}, testInfo) => {
  await openFromMenu(page);

  // Not connected yet: the explanatory message and a button to connect.
  const inactive = page.getByRole('alert').filter({ hasText: 'The Fortnox integration is not active' });
  await expect(inactive).toContainText("your company's Fortnox is not connected");
  await expect(page.getByText('Demo', { exact: true })).toBeVisible();
  await screenshot(page, testInfo, 'fortnox-not-connected-en');

  // Fortnox's approval page (the sandbox's), approved as a person would.
  await inactive.getByRole('button', { name: 'Connect to Fortnox' }).click();
  await expect(page.getByRole('heading', { name: 'Godkänn integration' })).toBeVisible();
  await expect(page.getByText('Demo Bygg AB')).toBeVisible();
  await screenshot(page, testInfo, 'fortnox-approve');
  await page.getByRole('button', { name: 'Godkänn' }).click();

  // Back on the page: connected, the code and state gone from the address, the invoices listed.
  await expect(page.getByText(/Connected to Demo Bygg AB \(556036-0793\)/)).toBeVisible();
  await expect(page).toHaveURL(/\/invoice\/send-business$/);
  const table = page.getByRole('table', { name: 'Unpaid invoices in Fortnox' });
  const row = (number: string) =>
    table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: number, exact: true }) });
  await expect(row('2001')).toContainText('Byggmästarna i Norden AB');
  await expect(row('2001')).toContainText(/SEK\s35,555\.00/);
  await expect(row('2003')).toContainText('Financed through NoxFinans: not available');
  await expect(page.getByLabel('Select invoice 2003')).toBeDisabled();
  await expect(page.getByText('Page 1 of 2')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'fortnox-invoices-en');

  // Two invoices, the fee preview and the confirmation of /invoice/send.
  await page.getByLabel('Select invoice 2001').check();
  await page.getByLabel('Select invoice 2005').check();
  await expect(page.getByText('Selected: 2')).toBeVisible();
  await page.getByRole('button', { name: 'Preview fees and send' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send invoices?' });
  const toSend = dialog.getByRole('table', { name: 'Invoices to send' });
  await expect(toSend.getByRole('row')).toHaveCount(3);
  await expect(toSend).toContainText('2001');
  await expect(toSend).toContainText('2005');
  await expect(dialog.getByRole('table', { name: 'Total per currency' })).toContainText(/SEK\s51,805\.69/);
  await expect(
    dialog.getByRole('table', { name: 'Fees and payout' }).getByRole('row', { name: /^SEK/ }),
  ).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Send 2 invoices' })).toBeEnabled();
  await screenshot(page, testInfo, 'fortnox-confirm-en');
  await dialog.getByRole('button', { name: 'Send 2 invoices' }).click();
  await expect(dialog).toHaveCount(0);

  const results = page.getByRole('status').filter({ hasText: 'Sent to us' });
  await expect(results).toContainText('Invoice 2001 was sent, OCR 20016.');
  await expect(results).toContainText('Invoice 2005 was sent, OCR 20057.');
  // Sent invoices are no longer offered.
  await expect(page.getByLabel('Select invoice 2001')).toHaveCount(0);
  await expect(page.getByText('Invoices on this page already sent to us (not shown): 2')).toBeVisible();
  await screenshot(page, testInfo, 'fortnox-sent-en');

  // In the invoice list, as any invoice sent to us.
  await results.getByRole('link', { name: 'All invoices' }).click();
  for (const number of ['2001', '2005']) {
    await page.getByRole('searchbox', { name: 'Search' }).fill(number);
    const row = page.getByRole('row', { name: new RegExp(`^Select invoice ${number} ${number} `) });
    await expect(row).toBeVisible();
    await expect(row).toContainText('Awaiting credit decision');
  }
  await screenshot(page, testInfo, 'fortnox-in-invoice-list-en');
});

const INACTIVE = [
  {
    button: 'Svenska',
    heading: 'Väntande affärsfakturor',
    message: 'Fortnox-kopplingen är inte aktiv: den har kopplats från.',
    reconnect: 'Anslut till Fortnox igen',
  },
  {
    button: 'Suomi',
    heading: 'Odottavat yrityslaskut',
    message: 'Fortnox-integraatio ei ole käytössä: yhteys on katkaistu.',
    reconnect: 'Yhdistä Fortnoxiin uudelleen',
  },
  {
    button: 'English',
    heading: 'Pending business invoices',
    message: 'The Fortnox integration is not active: it was disconnected.',
    reconnect: 'Reconnect to Fortnox',
  },
] as const;

test('a disconnected integration shows the explanatory message with a reconnect button, in every language', async ({
  page,
}, testInfo) => {
  await openFromMenu(page);
  const connected = page.getByText(/Connected to Demo Bygg AB/);
  if (!(await connected.isVisible())) {
    await page.getByRole('button', { name: /Connect to Fortnox|Reconnect to Fortnox/ }).click();
    await page.getByRole('button', { name: 'Godkänn' }).click();
    await expect(connected).toBeVisible();
  }
  await page.getByRole('button', { name: 'Disconnect Fortnox' }).click();
  await expect(page.getByRole('table', { name: 'Unpaid invoices in Fortnox' })).toHaveCount(0);

  for (const l of INACTIVE) {
    // Signed out (the session lives in the page's storage), then in again in the language.
    await page.evaluate(() => localStorage.clear());
    await page.goto('/login');
    await chooseLanguage(page, l.button);
    await page.getByRole('textbox').first().fill('demo');
    await page.locator('input[type="password"]').fill(DEMO_PASSWORD);
    await page.locator('input[type="password"]').press('Enter');
    await expect(page.getByRole('navigation').first()).toBeVisible();
    await page.goto('/invoice/send-business');
    await expect(page.getByRole('heading', { level: 1, name: l.heading })).toBeVisible();
    const message = page.getByRole('alert').filter({ hasText: l.message });
    await expect(message).toBeVisible();
    await expect(message.getByRole('button', { name: l.reconnect })).toBeVisible();
    await screenshot(page, testInfo, `fortnox-inactive-${l.button}`);
  }

  // Reconnecting brings the list back.
  await page.getByRole('button', { name: 'Reconnect to Fortnox' }).click();
  await page.getByRole('button', { name: 'Godkänn' }).click();
  await expect(page.getByRole('table', { name: 'Unpaid invoices in Fortnox' })).toBeVisible();
});
