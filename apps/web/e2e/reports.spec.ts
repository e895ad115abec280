import { expect, test } from '@playwright/test';
import { addDaysIso, dateField, dateFieldValue, swedishToday, typeDate } from './support/dates';
import { signInToMenu } from './support/flows';
import { expectNoSeriousA11yViolations, screenshot } from './support/helpers';

test('the active recourse modal refuses an end date before the start date', async ({ page }, testInfo) => {
  const nav = await signInToMenu(page, 'demo', 'Dana Demosson');
  await nav.getByRole('button', { name: 'Reports' }).click();
  await nav.getByRole('button', { name: 'Download active recourse' }).click();

  const modal = page.getByRole('dialog', { name: 'Download active recourse' });
  const from = dateField(modal, 'From');
  const to = dateField(modal, 'To');
  // The default range is the last 30 days up to today (spec §9).
  const today = swedishToday();
  await expect(dateFieldValue(to)).toHaveValue(today);
  await expect(dateFieldValue(from)).toHaveValue(addDaysIso(today, -30));
  await expectNoSeriousA11yViolations(page);

  await typeDate(from, '2026-06-30');
  await typeDate(to, '2026-06-01');
  await modal.getByRole('button', { name: 'Download' }).click();
  await expect(modal.getByText('The end date cannot be before the start date.')).toBeVisible();
  await screenshot(page, testInfo, 'regress-modal-wrong-range-en');
});
