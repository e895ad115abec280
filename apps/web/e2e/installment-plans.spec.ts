import { expect, test } from '@playwright/test';
import { dateField, typeDate } from './support/dates';
import { expectSignedIn, signIn } from './support/flows';

test('a customer registers an installment plan with its live schedule, finds it and sends it for signing', async ({
  page,
}) => {
  // Other specs share the demo data: the description is unique to this run.
  const description = `E2E Solpaneler ${String(Date.now()).slice(-8)}`;
  await signIn(page, 'demo');
  await expectSignedIn(page, 'Dana Demosson');

  await page.goto('/installment/register');
  await expect(page.getByRole('heading', { level: 1, name: 'Register installment plan' })).toBeVisible();
  // A recipient of the demo seed.
  await page.getByRole('combobox', { name: /Buyer/ }).fill('Bergglas');
  await page.getByRole('option', { name: /^Bergglas AB/ }).click();
  await page.getByLabel('Description').fill(description);
  await page.getByLabel('Financed amount').fill('10,000');
  await typeDate(dateField(page, 'Start date'), '2030-01-31');
  await page.getByLabel('Number of installments').fill('3');
  await page.getByLabel('Initial fee').fill('100');
  await page.getByLabel('Administration fee').fill('25');

  // The live schedule: 3 installments, the principal's rest on the last one, 10,175.00 in all.
  const preview = page.getByTestId('live-schedule');
  await expect(preview.getByRole('row')).toHaveCount(5);
  await expect(preview.getByRole('row').nth(1)).toContainText('SEK 3,458.33');
  await expect(preview.getByRole('row').nth(3)).toContainText('SEK 3,358.34');
  await expect(preview.getByRole('row').last()).toContainText('SEK 10,175.00');

  await page.getByLabel(/^Name/).fill('Anna Andersson');
  await page.getByLabel('Personal or organisation number').fill('19811218-9876');
  await page.getByLabel('E-mail').fill('anna@example.se');
  await page.getByRole('button', { name: 'Import signees as securities' }).click();
  await expect(page.getByLabel(/^Name/)).toHaveCount(2);
  await page.screenshot({ path: '/tmp/planweb-register.png', fullPage: true });
  await page.getByRole('button', { name: 'Register plan' }).click();

  await expect(page.getByRole('heading', { level: 1, name: /Installment plan/ })).toBeVisible();
  await expect(page.getByText('The installment plan is registered.', { exact: false })).toBeVisible();
  const detailUrl = page.url();

  // The list finds it by its description and opens it.
  await page.goto('/installmentplans');
  await expect(page.getByRole('heading', { level: 1, name: 'Installment plans' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search' }).fill(description);
  const row = page.getByRole('row').filter({ hasText: description });
  await expect(row).toHaveCount(1);
  await expect(page.getByRole('row')).toHaveCount(2);
  await expect(row).toContainText('Registered');
  // The search is in the URL once the list has stopped loading: a click before may be undone by it.
  await expect(page).toHaveURL(/search=/);
  await expect(page.locator('.table-wrap[aria-busy]')).toHaveCount(0);
  await page.screenshot({ path: '/tmp/planweb-list.png', fullPage: true });
  await row.getByRole('link').click();
  await expect(page).toHaveURL(detailUrl);

  const schedule = page.getByRole('table', { name: 'Payment schedule' });
  await expect(schedule.getByRole('row')).toHaveCount(5);
  await expect(schedule.getByRole('row').nth(1)).toContainText('Not invoiced yet');
  await page.getByRole('button', { name: 'Send for signing' }).click();
  await expect(page.getByText('The agreement has been sent for signing.')).toBeVisible();
  await expect(page.getByText('Waiting for signature')).toBeVisible();
  await expect(page.locator('.timeline')).toContainText('Sent for signing');
  await page.screenshot({ path: '/tmp/planweb-detail.png', fullPage: true });
});
