import { mkdirSync } from 'node:fs';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { ARTIFACTS_DIR, DEMO_2FA_SECRET, DEMO_PASSWORD } from './support/env';
import { chooseLanguage, closeDialog, LOGIN_WORDS, signIn } from './support/flows';
import { expectNoSeriousA11yViolations, unusedTotpCode } from './support/helpers';
import { sessionToken } from './support/tokens';

// The phone project (playwright.config.ts) runs this file on a 390 × 844 touch screen: the main journeys
// by touch, and a check that no main screen is wider than the phone (issue #17).

/** The login page's texts per language, to sign in in the language the screens are checked in. */
const LOGIN = {
  'sv-SE': {
    ...LOGIN_WORDS['sv-SE'],
    menu: 'Öppna menyn',
  },
  'en-US': {
    ...LOGIN_WORDS['en-US'],
    menu: 'Open menu',
  },
  'fi-FI': {
    ...LOGIN_WORDS['fi-FI'],
    menu: 'Avaa valikko',
  },
} as const;
type Language = keyof typeof LOGIN;

const PHONE_DIR = `${ARTIFACTS_DIR}phone/`;

async function signInIn(page: Page, language: Language, username = 'demo'): Promise<void> {
  const l = LOGIN[language];
  await page.goto('/login');
  await chooseLanguage(page, l.button);
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  await page.getByLabel(l.user).fill(username);
  await page.getByLabel(l.password, { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: l.submit }).click();
  await expect(page.getByRole('button', { name: l.menu })).toBeVisible();
}

/**
 * The document's width against the phone's. A phone browser (isMobile) widens its layout viewport to
 * a page that does not fit and zooms out, so innerWidth grows with the page: the check compares with
 * the screen's width that the project sets instead.
 */
async function documentWidth(page: Page): Promise<{ scrollWidth: number; screenWidth: number }> {
  const screenWidth = page.viewportSize()?.width ?? 0;
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  return { scrollWidth, screenWidth };
}

/** Every screen of the main menu, plus one invoice's detail, edit and duplicate and the 404 page. */
async function mainScreens(page: Page): Promise<{ name: string; path: string }[]> {
  const auth = { Authorization: `Bearer ${await sessionToken(page)}` };
  const list = await page.request.get('/api/limited/invoices?pageSize=1', { headers: auth });
  const sent = ((await list.json()) as { items: { invoiceID: string }[] }).items[0]?.invoiceID;
  const pending = await page.request.get('/api/limited/invoices/pending', { headers: auth });
  const unsent = ((await pending.json()) as { items: { invoiceID: string }[] }).items[0]?.invoiceID;
  expect(sent).toBeTruthy();
  expect(unsent).toBeTruthy();
  const paths: Record<string, string> = {
    home: '/',
    'invoice-register': '/invoice/register',
    'invoice-fileupload': '/invoice/fileupload',
    'invoice-upload': '/invoice/upload',
    'invoice-send': '/invoice/send',
    invoices: '/invoices',
    'invoice-detail': `/invoices/${sent}`,
    'invoice-edit': `/invoice/edit/${unsent}`,
    'invoice-duplicate': `/invoices/duplicate/${sent}`,
    recipients: '/recipient',
    articles: '/articles',
    'transfer-costs': '/transfercosts',
    'reports-payments': '/reports/payments',
    'reports-ledger': '/reports/ledger',
    messages: '/invoice/messages',
    'not-found': '/no-such-page',
  };
  return Object.entries(paths).map(([name, path]) => ({ name, path }));
}

/** Opens a screen and waits until its heading is there and its calls have answered. */
async function openScreen(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.locator('main h1').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/** Saves a screenshot of the screen as the phone shows it (not the full page) under artifacts/phone. */
async function phoneShot(page: Page, name: string): Promise<void> {
  mkdirSync(PHONE_DIR, { recursive: true });
  await page.screenshot({ path: `${PHONE_DIR}${name}.png` });
}

/** A thumb can hit it: at least 44 × 44 px (issue #17). */
async function expectTouchTarget(target: Locator): Promise<void> {
  const box = await target.boundingBox();
  expect(box, 'the target is on the screen').not.toBeNull();
  expect(Math.round(box?.width ?? 0)).toBeGreaterThanOrEqual(44);
  expect(Math.round(box?.height ?? 0)).toBeGreaterThanOrEqual(44);
}

/** The dialog is within the screen: nothing of it is out of reach sideways or below the bottom. */
async function expectFitsScreen(page: Page, dialog: Locator): Promise<void> {
  const box = await dialog.boundingBox();
  const screen = page.viewportSize();
  expect(box).not.toBeNull();
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(screen?.width ?? 0);
  expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(screen?.height ?? 0);
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, screenWidth } = await documentWidth(page);
  expect(scrollWidth, `${page.url()} is wider than the phone`).toBeLessThanOrEqual(screenWidth);
}

/** The main menu of spec §2 on a phone: behind the menu button. */
function mainMenu(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Main menu' });
}

/** Opens the mobile menu and, when given, one of its groups. */
async function openMenu(page: Page, group?: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Open menu' }).tap();
  const nav = mainMenu(page);
  await expect(nav).toBeVisible();
  if (group) await nav.getByRole('button', { name: group }).tap();
  return nav;
}

/** Spec §2: choosing an entry navigates and closes the mobile menu. */
async function expectMenuClosed(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
  await expect(mainMenu(page)).toBeHidden();
}

async function expectSignedInOnPhone(page: Page, fullName: string): Promise<void> {
  await openMenu(page);
  await expect(page.getByRole('button', { name: `User menu for ${fullName}` })).toBeVisible();
  await page.getByRole('button', { name: 'Close menu' }).tap();
  await expectMenuClosed(page);
}

test('a user with two-factor signs in on the phone with the number keyboard', async ({ page }) => {
  await signIn(page, 'demo-2fa');
  const code = page.getByLabel('Verification code');
  await expect(code).toHaveAttribute('inputmode', 'numeric');
  const verify = page.getByRole('button', { name: 'Verify' });
  await expectTouchTarget(verify);
  await expectNoSidewaysScroll(page);
  await phoneShot(page, 'login-2fa-en-US');
  // A code is good once (the server's replay check): when the desktop journey has just spent this
  // period's code, the next period's is taken.
  for (let attempt = 1; ; attempt++) {
    await code.fill(await unusedTotpCode(DEMO_2FA_SECRET));
    await verify.tap();
    const outcome = await Promise.race([
      page
        .getByRole('button', { name: 'Open menu' })
        .waitFor()
        .then(() => 'signed-in' as const),
      page
        .getByRole('alertdialog')
        .waitFor()
        .then(() => 'refused' as const),
    ]);
    if (outcome === 'signed-in') break;
    expect(attempt, 'a fresh code was refused as well').toBe(1);
    await closeDialog(page);
    await page.waitForTimeout(30_500 - (Date.now() % 30_000));
  }
  await expectSignedInOnPhone(page, 'Tove Tvåsteg');
});

test('on the phone a customer registers an invoice with the thumb, sends it and finds it in the history', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const stamp = String(Date.now()).slice(-8);
  const number = `PH-${stamp}`;
  const recipientName = `Telefonkund ${stamp}`;
  await signIn(page, 'demo');
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
  const created = await page.request.post('/api/limited/recipients', {
    headers: { Authorization: `Bearer ${await sessionToken(page)}` },
    data: { name: recipientName, zipcode: '114 35', city: 'Stockholm', email: 'telefon@example.com' },
  });
  expect(created.status(), await created.text()).toBe(200);

  // Register: from the mobile menu, which closes when the form opens.
  let nav = await openMenu(page, 'Register');
  await expectTouchTarget(nav.getByRole('link', { name: 'Register invoice' }));
  await phoneShot(page, 'menu-register-en-US');
  await nav.getByRole('link', { name: 'Register invoice' }).tap();
  await expect(page).toHaveURL(/\/invoice\/register$/);
  await expectMenuClosed(page);
  await expect(page.getByRole('heading', { name: 'Register invoice' })).toBeVisible();
  // The submit button is at hand from the top of the long form (it sticks to the bottom of the screen).
  const register = page.getByRole('button', { name: 'Register invoice' });
  await expect(register).toBeInViewport();
  await expectTouchTarget(register);

  await page.getByRole('combobox', { name: /Recipient/ }).fill(recipientName);
  await page.getByRole('option', { name: new RegExp(recipientName) }).tap();
  await page.getByLabel('Invoice number').fill(number);
  await page.getByLabel('Item, row 1', { exact: true }).fill('Takarbete');
  const quantity = page.getByLabel('Quantity, row 1', { exact: true });
  await expect(quantity).toHaveAttribute('inputmode', 'decimal');
  await quantity.fill('3');
  await page.getByLabel('Unit price, row 1', { exact: true }).fill('500');
  // A second row, added and removed again by touch.
  const addRow = page.getByRole('button', { name: 'Add row' });
  await expectTouchTarget(addRow);
  await addRow.tap();
  await page.getByLabel('Item, row 2', { exact: true }).fill('Fel rad');
  const removeSecond = page.getByRole('button', { name: 'Remove row 2' });
  await expectTouchTarget(removeSecond);
  await phoneShot(page, 'invoice-rows-cards-en-US');
  await removeSecond.tap();
  await expect(page.getByLabel('Item, row 2', { exact: true })).toHaveCount(0);
  // 3 × 500.00 + 25 % VAT.
  await expect(page.getByTestId('invoice-to-pay')).toHaveText(/SEK\s1,875\.00/);
  await expectNoSidewaysScroll(page);
  await expectNoSeriousA11yViolations(page);
  await register.tap();
  await expect(page.getByRole('heading', { name: `Invoice ${number}` })).toBeVisible();

  // Send it from the pending invoices: the row's box is a thumb's target, the send bar at hand.
  nav = await openMenu(page, 'Invoices');
  await nav.getByRole('link', { name: 'Pending invoices' }).tap();
  await expectMenuClosed(page);
  const box = page.getByLabel(`Select invoice ${number}`);
  await expectTouchTarget(box.locator('xpath=..'));
  await box.tap();
  await expect(box).toBeChecked();
  const send = page.getByRole('button', { name: 'Send selected' });
  await expect(send).toBeInViewport();
  await expectNoSidewaysScroll(page);
  await send.tap();
  const dialog = page.getByRole('dialog', { name: 'Send invoices?' });
  await expect(dialog.getByRole('button', { name: 'Send 1 invoice' })).toBeEnabled();
  await expectFitsScreen(page, dialog);
  await expect(dialog.getByRole('button', { name: 'Send 1 invoice' })).toBeInViewport();
  await expectNoSidewaysScroll(page);
  await phoneShot(page, 'invoice-send-confirm-en-US');
  await dialog.getByRole('button', { name: 'Send 1 invoice' }).tap();
  await expect(dialog).toHaveCount(0);
  await expect(
    page.getByRole('status').filter({ hasText: 'Result' }).getByRole('listitem').filter({ hasText: number }),
  ).toContainText(/sent\./);

  // Find it in the history: the filters scroll sideways on one line, the search finds it.
  nav = await openMenu(page, 'Invoices');
  await nav.getByRole('link', { name: 'All invoices' }).tap();
  await expectMenuClosed(page);
  const tabs = page.getByRole('tablist', { name: 'Show invoices' });
  const strip = await tabs.evaluate((el) => ({
    scrolls: el.scrollWidth > el.clientWidth,
    tops: [...el.querySelectorAll('[role="tab"]')].map((tab) => Math.round(tab.getBoundingClientRect().top)),
    lines: [...el.querySelectorAll('[role="tab"]')].map((tab) => tab.getClientRects().length),
  }));
  expect(strip.scrolls).toBe(true);
  expect(new Set(strip.tops).size, 'every tab on one row').toBe(1);
  await page.getByRole('tab', { name: 'Overdue' }).tap();
  await expect(page.getByRole('tab', { name: 'Overdue' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Overdue' })).toBeInViewport();
  await page.getByRole('tab', { name: 'All' }).tap();
  await page.getByRole('searchbox', { name: 'Search' }).fill(number);
  const row = page.getByRole('row', { name: new RegExp(number) });
  await expect(row).toBeVisible();
  await expect(page.getByRole('table', { name: 'Invoices', exact: true }).getByRole('row')).toHaveCount(2);
  await expectNoSidewaysScroll(page);
  await phoneShot(page, 'invoice-history-found-en-US');
  await row.getByRole('link', { name: number }).tap();
  await expect(page.getByRole('heading', { name: `Invoice ${number}` })).toBeVisible();
  await expectNoSidewaysScroll(page);
});

test('on the phone a customer opens the reports: the settlements as cards, the payments with the invoice kept in view', async ({
  page,
}) => {
  await signIn(page, 'demo');
  let nav = await openMenu(page, 'Reports');
  await nav.getByRole('link', { name: 'Transfer costs' }).tap();
  await expectMenuClosed(page);
  await expect(page.getByRole('heading', { name: 'Transfer costs', level: 1 })).toBeVisible();
  const open = page.getByRole('button', { name: /^Show settlement / }).first();
  await expectTouchTarget(open);
  await open.tap();
  const dialog = page.getByRole('dialog', { name: /Settlement/ });
  await expect(dialog.getByRole('table')).toBeVisible();
  await expectFitsScreen(page, dialog);
  await expectNoSidewaysScroll(page);
  await phoneShot(page, 'transfer-costs-settlement-en-US');
  await dialog.getByRole('contentinfo').getByRole('button', { name: 'Close' }).tap();
  await expect(dialog).toHaveCount(0);

  nav = await openMenu(page, 'Reports');
  await nav.getByRole('link', { name: 'Payments' }).tap();
  await expectMenuClosed(page);
  const table = page.getByRole('table', { name: 'Payments' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  await expectNoSidewaysScroll(page);
  // The table scrolls in its own frame; the invoice number stays at its left edge.
  const frame = table.locator('xpath=..');
  const keyCell = table.locator('tbody tr').first().locator('.data-table__key');
  await frame.evaluate((el) => {
    el.scrollLeft = el.scrollWidth;
  });
  await expect.poll(() => frame.evaluate((el) => el.scrollLeft)).toBeGreaterThan(100);
  const frameBox = await frame.boundingBox();
  const keyBox = await keyCell.boundingBox();
  expect(Math.abs((keyBox?.x ?? -100) - (frameBox?.x ?? 0))).toBeLessThanOrEqual(2);
  await phoneShot(page, 'reports-payments-scrolled-en-US');
});

test('on the phone a customer reads a message from the messages menu', async ({ page }) => {
  await signIn(page, 'demo');
  await openMenu(page);
  const messages = page.getByRole('button', { name: /^Messages, \d+ unread$/ });
  await expectTouchTarget(messages);
  await messages.tap();
  // The panel opens as a sheet at the bottom of the screen and scrolls inside.
  const panel = page.locator('.messages-panel');
  await expect(panel).toBeVisible();
  await expectFitsScreen(page, panel.locator('xpath=..'));
  await phoneShot(page, 'messages-menu-en-US');
  const first = panel.getByRole('link').first();
  await expectTouchTarget(first);
  await first.tap();
  await expect(page).toHaveURL(/\/invoice\/messages/);
  await expectMenuClosed(page);
  const head = page.locator('.message-list__head').first();
  await expectTouchTarget(head);
  if ((await head.getAttribute('aria-expanded')) !== 'true') await head.tap();
  await expect(head).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator('.message-list__body').first()).toBeVisible();
  await expectNoSidewaysScroll(page);
  await phoneShot(page, 'messages-read-en-US');
});

for (const language of ['sv-SE', 'fi-FI'] as const) {
  test(`no main screen is wider than the phone in ${language}`, async ({ page }) => {
    test.setTimeout(180_000);
    mkdirSync(PHONE_DIR, { recursive: true });
    await signInIn(page, language);
    const tooWide: string[] = [];
    for (const screen of await mainScreens(page)) {
      await openScreen(page, screen.path);
      const { scrollWidth, screenWidth } = await documentWidth(page);
      if (scrollWidth > screenWidth) tooWide.push(`${screen.path}: ${scrollWidth} px`);
      await page.screenshot({ path: `${PHONE_DIR}${screen.name}-${language}.png`, fullPage: true });
    }
    expect(tooWide).toEqual([]);
  });
}
