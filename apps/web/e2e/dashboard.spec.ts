import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD } from './support/env';
import { expectNoSeriousA11yViolations, screenshot } from './support/helpers';

const LANGUAGES = [
  {
    button: 'Svenska',
    lang: 'sv-SE',
    user: 'Användarnamn',
    password: 'Lösenord',
    submit: 'Logga in',
    title: 'Översikt',
    overdue: 'Förfallna obetalda fakturor',
  },
  {
    button: 'English',
    lang: 'en-US',
    user: 'Username',
    password: 'Password',
    submit: 'Sign in',
    title: 'Overview',
    overdue: 'Overdue unpaid invoices',
  },
  {
    button: 'Suomi',
    lang: 'fi-FI',
    user: 'Käyttäjätunnus',
    password: 'Salasana',
    submit: 'Kirjaudu sisään',
    title: 'Yleiskatsaus',
    overdue: 'Erääntyneet maksamattomat laskut',
  },
] as const;

for (const l of LANGUAGES) {
  test(`the dashboard in ${l.lang}: its overdue buckets match the invoice list they open`, async ({
    page,
  }, testInfo) => {
    await page.goto('/login');
    await page.getByRole('button', { name: l.button }).click();
    await page.getByLabel(l.user).fill('demo');
    await page.getByLabel(l.password, { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: l.submit }).click();

    const heading = page.getByRole('heading', { name: new RegExp(`^${l.title} \\((SEK|EUR)\\)$`) });
    await expect(heading).toBeVisible();
    const currency = /\((\w{3})\)/.exec((await heading.textContent()) ?? '')?.[1] ?? '';
    await expect(page.getByRole('img').first()).toBeVisible();
    await expect(page.locator('.chart__bar')).toHaveCount(42);
    await screenshot(page, testInfo, `dashboard-${l.lang}`);
    await expectNoSeriousA11yViolations(page);

    // Every bucket: the count shown equals the count of the list its link opens.
    const buckets = page.locator('[data-bucket]');
    await expect(buckets).toHaveCount(4);
    for (const bucket of ['1-5', '6-15', '16-30', '30+']) {
      const item = page.locator(`[data-bucket="${bucket}"]`);
      const shown = Number(((await item.getByTestId('bucket-count').textContent()) ?? '').replace(/\D/g, ''));
      await item.getByRole('link').click();
      await expect(page).toHaveURL(
        new RegExp(`/invoices\\?bucket=${encodeURIComponent(bucket).replace('+', '\\+')}`),
      );
      await expect(page.getByTestId('bucket-filter')).toBeVisible();
      if (shown === 0) {
        await expect(page.locator('.currency-totals tbody tr', { hasText: currency })).toHaveCount(0);
      } else {
        const row = page.locator('.currency-totals tbody tr', { hasText: currency });
        await expect(row.locator('td').first()).toHaveText(String(shown));
      }
      if (l.lang === 'en-US' && bucket === '30+')
        await screenshot(page, testInfo, 'dashboard-bucket-list-en-US');
      await page.goBack();
      await expect(heading).toBeVisible();
    }
  });
}
