import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD } from './support/env';
import { chooseLanguage, LOGIN_WORDS } from './support/flows';
import { screenshot } from './support/helpers';

const LANGUAGES = [
  {
    ...LOGIN_WORDS['sv-SE'],
    heading: 'Kundportalen',
    menu: 'Huvudmeny',
    account: 'Användarmeny för Dana Demosson',
  },
  {
    ...LOGIN_WORDS['en-US'],
    heading: 'Customer Portal',
    menu: 'Main menu',
    account: 'User menu for Dana Demosson',
  },
  {
    ...LOGIN_WORDS['fi-FI'],
    heading: 'Asiakasportaali',
    menu: 'Päävalikko',
    account: 'Käyttäjävalikko: Dana Demosson',
  },
] as const;

for (const l of LANGUAGES) {
  test(`sign-in and the portal shell in ${l.lang}`, async ({ page }, testInfo) => {
    await page.goto('/login');
    await chooseLanguage(page, l.button);
    await expect(page.getByRole('heading', { name: l.heading })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', l.lang);
    await screenshot(page, testInfo, `login-${l.lang}`);
    await page.getByLabel(l.user).fill('demo');
    await page.getByLabel(l.password, { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: l.submit }).click();
    await expect(page.getByRole('navigation', { name: l.menu })).toBeVisible();
    await expect(page.getByRole('button', { name: l.account })).toBeVisible();
    await screenshot(page, testInfo, `home-${l.lang}`);
    // The choice survives a reload.
    await page.reload();
    await expect(page.getByRole('navigation', { name: l.menu })).toBeVisible();
  });
}
