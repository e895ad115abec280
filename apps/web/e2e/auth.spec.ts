import { expect, test } from '@playwright/test';
import { DEMO_2FA_SECRET, DEMO_PASSWORD } from './support/env';
import { chooseEnglish, chooseLanguage, closeDialog, expectSignedIn, signIn, signOut } from './support/flows';
import { expectNoSeriousA11yViolations, lastResetLink, screenshot, unusedTotpCode } from './support/helpers';

test('a customer signs in with username and password and signs out again', async ({ page }, testInfo) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Kundportalen' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'login-sv');

  await signIn(page, 'demo');
  await expectSignedIn(page, 'Dana Demosson');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'home-demo-en');

  await signOut(page, 'Dana Demosson');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  // The session is gone on the server too: the app does not come back signed in.
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
});

test('a wrong password shows the sign-in error dialog and keeps the username', async ({ page }, testInfo) => {
  await page.goto('/login');
  await chooseLanguage(page, 'English');
  await page.getByLabel('Username').fill('demo');
  await page.getByLabel('Password', { exact: true }).fill('Not-the-password-1');
  // Enter submits the active view.
  await page.getByLabel('Password', { exact: true }).press('Enter');
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Sign-in failed');
  await expect(dialog).toContainText('Wrong username or password.');
  await screenshot(page, testInfo, 'login-wrong-password-en');
  await closeDialog(page);
  await expect(page.getByLabel('Username')).toHaveValue('demo');
});

test('a user with two-factor on signs in with a code from an authenticator app', async ({
  page,
}, testInfo) => {
  await signIn(page, 'demo-2fa');
  const code = page.getByLabel('Verification code');
  await expect(code).toBeVisible();
  // Verify stays disabled until the code has six digits.
  await code.fill('12345');
  await expect(page.getByRole('button', { name: 'Verify' })).toBeDisabled();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'login-2fa-en');

  await code.fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Invalid verification code.');
  await closeDialog(page);

  await code.fill(await unusedTotpCode(DEMO_2FA_SECRET));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectSignedIn(page, 'Tove Tvåsteg');
});

test('a forgotten password is reset through the e-mailed link', async ({ page }, testInfo) => {
  await page.goto('/login');
  await chooseLanguage(page, 'English');
  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  await page.getByLabel('Username').fill('no-such-user');
  await page.getByRole('button', { name: 'Send link' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Username not found');
  await closeDialog(page);

  const before = lastResetLink();
  await page.getByLabel('Username').fill('demo-unverified');
  await page.getByRole('button', { name: 'Send link' }).click();
  await expect(page.getByText('Check your email')).toBeVisible();
  await expect.poll(() => lastResetLink()).not.toBe(before);
  const link = lastResetLink();
  expect(link).toMatch(/\/password\/reset\/[A-Za-z0-9_-]{20,}$/);

  await page.goto(new URL(link as string).pathname);
  await expect(
    page.getByRole('heading', { name: /nytt lösenord|new password|uusi salasana/i }),
  ).toBeVisible();
  await chooseLanguage(page, 'English');
  await page.getByLabel('New password', { exact: true }).fill('short');
  await page.getByLabel('Confirm new password').fill('short');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByText(/at least 8 characters/i).first()).toBeVisible();
  await screenshot(page, testInfo, 'reset-password-rules-en');

  const newPassword = 'Nytt-lösen-2026';
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByText('Your password has been changed.', { exact: false })).toBeVisible();

  // The link works once.
  await page.goto(new URL(link as string).pathname);
  await expect(
    page.getByText(/No password reset request was found|Ingen begäran|salasanan palautuspyyntöä/i),
  ).toBeVisible();

  await signIn(page, 'demo-unverified', DEMO_PASSWORD);
  await expect(page.getByRole('alertdialog')).toContainText('Wrong username or password.');
  await closeDialog(page);
  await signIn(page, 'demo-unverified', newPassword);
  await expectSignedIn(page, 'Ulf Ulander');
  // This issuer's bank account is not verified: the banner says its payouts are held (spec §2, #13).
  await expect(page.getByText('Payouts are on hold until your bank account is verified.')).toBeVisible();
  await screenshot(page, testInfo, 'bank-verification-banner-en');
});

test('a group login shows the group brand; an unknown group falls back to the plain login', async ({
  page,
}, testInfo) => {
  await page.goto('/acme/login');
  await expect(page.getByRole('heading', { name: 'Acme Finans' })).toBeVisible();
  await expect(page.getByRole('img', { name: /Acme Finans/ })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'group-login-acme');

  await page.goto('/no-such-group/login');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Kundportalen' })).toBeVisible();
});

test('signing out of a group login goes back to the group login', async ({ page }) => {
  await page.goto('/acme/login');
  await chooseLanguage(page, 'English');
  await page.getByLabel('Username').fill('demo');
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expectSignedIn(page, 'Dana Demosson');
  await signOut(page, 'Dana Demosson');
  await expect(page).toHaveURL(/\/acme\/login$/);
});

test('a deep link survives the sign-in: the user lands on the page asked for', async ({ page }) => {
  const signInHere = async () => {
    await chooseEnglish(page);
    await page.getByLabel('Username').fill('demo');
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };
  await page.goto('/transfercosts');
  await expect(page).toHaveURL(/\/login\?next=%2Ftransfercosts$/);
  await signInHere();
  await expect(page).toHaveURL(/\/transfercosts$/);
  await expect(page.getByRole('heading', { name: 'Transfer costs', level: 1 })).toBeVisible();

  // A link to another site is never followed: the home page instead.
  await signOut(page, 'Dana Demosson');
  await page.goto('/login?next=%2F%2Fevil.example%2F');
  await signInHere();
  await expectSignedIn(page, 'Dana Demosson');
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
});
