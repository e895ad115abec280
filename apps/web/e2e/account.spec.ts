import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD } from './support/env';
import { closeDialog, closeSuccess, expectSignedIn, signIn } from './support/flows';
import { expectNoSeriousA11yViolations, screenshot, totpCode } from './support/helpers';

test('the account modal saves the company details and says what is wrong first', async ({
  page,
}, testInfo) => {
  await signIn(page, 'demo');
  await expectSignedIn(page, 'Dana Demosson');
  await page.getByRole('button', { name: 'User menu for Dana Demosson' }).click();
  await page.getByRole('button', { name: 'My account' }).click();

  const modal = page.getByRole('dialog', { name: 'My account' });
  await expect(modal.getByRole('tab', { name: 'Company details' })).toHaveAttribute('aria-selected', 'true');
  const name = modal.getByLabel('Company name');
  await expect(name).toHaveValue('Demo Bygg AB');
  await expect(modal.getByLabel('Organization number')).toHaveValue('556036-0793');
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'account-details-en');

  await name.fill('A company name that is far too long');
  await modal.getByLabel('Email address').fill('not-an-email');
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(modal.getByText('At most 20 characters.')).toBeVisible();
  await expect(modal.getByText('Enter a valid email address.')).toBeVisible();
  await screenshot(page, testInfo, 'account-details-errors-en');

  await name.fill('Demo Bygg & Co AB');
  await modal.getByLabel('Email address').fill('faktura@demobygg.se');
  await modal.getByRole('button', { name: 'Save' }).click();
  await closeSuccess(page, 'Details saved');
  await expect(page.getByRole('dialog', { name: 'My account' })).toBeHidden();

  // What was saved is what the server now returns.
  await page.reload();
  await expect(page.getByText('Demo Bygg & Co AB')).toBeVisible();
  await expect(page.getByText('faktura@demobygg.se')).toBeVisible();
});

test('a new user must change the initial password and set up two-factor before using the portal', async ({
  page,
}, testInfo) => {
  await signIn(page, 'demo-new');
  const overlay = page.getByRole('region', { name: 'Secure your account' });
  await expect(overlay).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'setup-overlay-en');

  await overlay.getByRole('button', { name: 'Change password' }).click();
  const modal = page.getByRole('dialog', { name: 'My account' });
  await expect(modal.getByRole('tab', { name: 'Password' })).toHaveAttribute('aria-selected', 'true');
  await modal.getByLabel('Current password').fill('Wrong-password-1');
  await modal.getByLabel('New password', { exact: true }).fill('Ny-start-2026!');
  await modal.getByLabel('Confirm new password').fill('Ny-start-2026!');
  await modal.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('The current password is wrong.');
  await closeDialog(page);

  await modal.getByLabel('Current password').fill(DEMO_PASSWORD);
  await modal.getByLabel('New password', { exact: true }).fill('Ny-start-2026!');
  await modal.getByLabel('Confirm new password').fill('Ny-start-2026');
  await modal.getByRole('button', { name: 'Change password' }).click();
  await expect(modal.getByText('The passwords do not match.')).toBeVisible();
  await modal.getByLabel('Confirm new password').fill('Ny-start-2026!');
  await modal.getByRole('button', { name: 'Change password' }).click();
  await closeSuccess(page, 'Password changed');

  await modal.getByRole('tab', { name: 'Two-factor authentication' }).click();
  await modal.getByRole('button', { name: 'Set up' }).click();
  await expect(modal.getByRole('img', { name: /QR code/ })).toBeVisible();
  const secret = (await modal.locator('code.secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await screenshot(page, testInfo, 'two-factor-setup-en');
  await modal.getByLabel('Verification code').fill(totpCode(secret));
  await modal.getByRole('button', { name: 'Verify and turn on' }).click();
  await expect(page.getByRole('dialog', { name: 'Two-factor authentication' })).toContainText(
    'Two-factor authentication is now on for your account.',
  );
  await closeSuccess(page, 'Two-factor authentication');
  await expect(modal.getByText('Two-factor authentication is required for your account.')).toBeVisible();
  await modal.getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByRole('region', { name: 'Secure your account' })).toBeHidden();

  // The next sign-in asks for a code from the new secret.
  await page.getByRole('button', { name: 'User menu for Nils Nyberg' }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, 'demo-new', 'Ny-start-2026!');
  await expect(page.getByLabel('Verification code')).toBeVisible();
});

test('turning two-factor off asks for a current code after the warning', async ({ page }, testInfo) => {
  await signIn(page, 'demo');
  await expectSignedIn(page, 'Dana Demosson');
  await page.getByRole('button', { name: 'User menu for Dana Demosson' }).click();
  await page.getByRole('button', { name: 'My account' }).click();
  const modal = page.getByRole('dialog', { name: 'My account' });
  await modal.getByRole('tab', { name: 'Two-factor authentication' }).click();
  await modal.getByRole('button', { name: 'Set up' }).click();
  const secret = (await modal.locator('code.secret').textContent())?.trim() ?? '';
  const setupCode = totpCode(secret);
  await modal.getByLabel('Verification code').fill(setupCode);
  await modal.getByRole('button', { name: 'Verify and turn on' }).click();
  await closeSuccess(page, 'Two-factor authentication');

  await modal.getByRole('button', { name: 'Turn off two-factor authentication' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Turn off two-factor authentication?' });
  await expect(confirm).toContainText('protected by the password alone');
  const submit = confirm.getByRole('button', { name: 'Turn off two-factor authentication' });
  await expect(submit).toBeDisabled();
  await confirm.getByLabel('Verification code').fill(setupCode);
  await submit.click();
  await expect(confirm.getByText('Invalid verification code.')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'two-factor-disable-wrong-code-en');

  // The next period's code (the server allows one step of drift): a later step than the spent one, so
  // the replay check lets it through without waiting for the app's next code.
  await confirm.getByLabel('Verification code').fill(totpCode(secret, Date.now() + 30_000));
  await submit.click();
  await expect(page.getByRole('dialog', { name: 'Two-factor authentication' })).toContainText(
    'Two-factor authentication is off.',
  );
  await closeSuccess(page, 'Two-factor authentication');
  await expect(modal.getByText('Two-factor authentication is off.')).toBeVisible();
});
