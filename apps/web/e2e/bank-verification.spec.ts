import { expect, type Page, test } from '@playwright/test';
import { DEMO_2FA_SECRET } from './support/env';
import { chooseLanguage, closeDialog, expectSignedIn, signIn } from './support/flows';
import {
  DEMO_PASSWORD,
  expectNoSeriousA11yViolations,
  screenshot,
  totpCode,
  unusedTotpCode,
} from './support/helpers';

/**
 * `demo-unverified` signs in with the demo password, or, when auth.spec.ts ran before in the same run
 * (it resets that user's password), with the password it set.
 */
async function signInUnverified(page: Page): Promise<void> {
  await signIn(page, 'demo-unverified', DEMO_PASSWORD);
  const wrong = page.getByRole('alertdialog');
  const shell = page.getByRole('button', { name: 'User menu for Ulf Ulander' });
  await expect(wrong.or(shell)).toBeVisible();
  if (await wrong.isVisible()) {
    await closeDialog(page);
    await signIn(page, 'demo-unverified', 'Nytt-lösen-2026');
  }
  await expectSignedIn(page, 'Ulf Ulander');
}

async function openVerifyFromMenu(page: Page): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await nav.getByRole('button', { name: 'Administration' }).click();
  await nav.getByRole('link', { name: 'Verify bank account' }).click();
  await expect(page).toHaveURL(/\/verify-bank-account$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Verify bank account' })).toBeVisible();
}

/** On the provider's hosted page: picks the account with this text and presses a button. */
async function atTheBank(
  page: Page,
  account: RegExp | null,
  button: string,
  bank = 'Norrbanken',
): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: bank })).toBeVisible();
  if (account) await page.getByRole('radio', { name: account }).check();
  await page.getByRole('button', { name: button }).click();
  await expect(page).toHaveURL(/\/verify-bank-account-success\?state=/);
}

test('an issuer verifies its bank account at its bank: a wrong holder is refused, its own account is verified', async ({
  page,
}, testInfo) => {
  await signInUnverified(page);
  // Until the account is verified the issuer's payouts are held, and the banner says so.
  const banner = page.getByText('Payouts are on hold until your bank account is verified.');
  await expect(banner).toBeVisible();
  await screenshot(page, testInfo, 'bank-verification-hold-banner-en');

  await openVerifyFromMenu(page);
  const banks = page.getByRole('list').filter({ has: page.getByRole('button', { name: 'Norrbanken' }) });
  await expect(banks.getByRole('button')).toHaveText(['Norrbanken', 'Sparbanken Väst', 'Kustbanken']);
  await expect(page.getByText('Demo', { exact: true })).toBeVisible();
  await expect(banks.locator('img').first()).toHaveAttribute('src', /^data:image\/svg\+xml;base64,/);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'bank-verification-banks-en');

  // A private account of another person: not the company's.
  await page.getByRole('button', { name: 'Norrbanken' }).click();
  await atTheBank(page, /Privatkonto.*Ulf Ulander/, 'Approve');
  await expect(page.getByRole('heading', { name: 'The bank account was not verified' })).toBeVisible();
  await expect(
    page.getByText('The account you chose is not held by your company.', { exact: false }),
  ).toBeVisible();
  await screenshot(page, testInfo, 'bank-verification-holder-mismatch-en');

  // Cancelled at the bank.
  await page.getByRole('link', { name: 'Try again' }).click();
  await page.getByRole('button', { name: 'Norrbanken' }).click();
  await atTheBank(page, null, 'Cancel');
  await expect(page.getByText('You cancelled the verification at the bank.')).toBeVisible();

  // The company's own account.
  await page.getByRole('link', { name: 'Try again' }).click();
  await page.getByRole('button', { name: 'Norrbanken' }).click();
  await atTheBank(page, /Företagskonto.*Nystart Måleri AB/, 'Approve');
  await expect(page.getByRole('heading', { name: 'Bank account verified' })).toBeVisible();
  const account = page.getByTestId('verified-account');
  await expect(account).toContainText('6123-••••4321');
  await expect(account).toContainText('Nystart Måleri AB');
  await expect(account).not.toContainText('987654321');
  await expect(banner).toBeHidden();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'bank-verification-verified-en');

  // Reloading the page answers the same outcome; the account is now shown on the verify page too.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Bank account verified' })).toBeVisible();
  await openVerifyFromMenu(page);
  await expect(page.getByRole('heading', { name: 'Verified account' })).toBeVisible();
  await expect(page.getByTestId('verified-account')).toContainText('6123-••••4321');

  // In Swedish.
  await chooseLanguage(page, 'Svenska');
  await expect(page.getByRole('heading', { level: 1, name: 'Verifiera bankkonto' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Verifierat konto' })).toBeVisible();
  await screenshot(page, testInfo, 'bank-verification-verified-sv');
});

test('a user with two-factor changes the verified account: the new one is used only after a code from the app', async ({
  page,
}, testInfo) => {
  // Demo Bygg AB pays to Norrbanken 6123-••••6789 (the demo); Tove has two-factor on.
  await signIn(page, 'demo-2fa');
  const signInCode = await unusedTotpCode(DEMO_2FA_SECRET);
  await page.getByLabel('Verification code').fill(signInCode);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectSignedIn(page, 'Tove Tvåsteg');
  await expect(page.getByText('Payouts are on hold until your bank account is verified.')).toBeHidden();

  await openVerifyFromMenu(page);
  await expect(page.getByTestId('verified-account')).toContainText('6123-••••6789');
  await page.getByRole('button', { name: 'Sparbanken Väst' }).click();
  await atTheBank(page, /Bankgiro.*Demo Bygg AB/, 'Approve', 'Sparbanken Väst');

  await expect(page.getByRole('heading', { name: 'Confirm the new account' })).toBeVisible();
  await expect(page.getByTestId('current-account')).toContainText('6123-••••6789');
  await expect(page.getByTestId('new-account')).toContainText('BG •••-0141');
  await expect(page.getByTestId('new-account')).not.toContainText('5050141');
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'bank-verification-confirm-change-en');

  // A wrong code, then the code spent at sign-in: both refused, the old account stays.
  const code = page.getByLabel('Code from the authenticator app');
  const next = totpCode(DEMO_2FA_SECRET, Date.now() + 30_000);
  await code.fill(['000000', '111111'].find((c) => c !== next && c !== signInCode) ?? '222222');
  await page.getByRole('button', { name: 'Confirm the change' }).click();
  await expect(page.getByRole('alert')).toContainText('Invalid verification code.');
  await code.fill(signInCode);
  await page.getByRole('button', { name: 'Confirm the change' }).click();
  await expect(page.getByRole('alert')).toContainText('Invalid verification code.');
  await screenshot(page, testInfo, 'bank-verification-confirm-wrong-en');

  // The next period's code (the server allows one step of drift): the change is made.
  await code.fill(await unusedTotpCode(DEMO_2FA_SECRET, 1));
  await page.getByRole('button', { name: 'Confirm the change' }).click();
  await expect(page.getByRole('heading', { name: 'Bank account verified' })).toBeVisible();
  await expect(page.getByText('The change is confirmed.', { exact: false })).toBeVisible();
  await expect(page.getByTestId('verified-account')).toContainText('BG •••-0141');
  await screenshot(page, testInfo, 'bank-verification-changed-en');

  // The issuer is told by message; the verify page shows the new account.
  await page.goto('/invoice/messages');
  await expect(page.getByText('Bank account changed').first()).toBeVisible();
  await openVerifyFromMenu(page);
  await expect(page.getByTestId('verified-account')).toContainText('BG •••-0141');
});
