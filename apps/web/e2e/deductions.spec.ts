import { expect, type Page, test } from '@playwright/test';
import type { PaymentsReportResponse } from '@portal/contracts';
import { addDaysIso, swedishToday } from './support/dates';
import { fillLoginIn, LOGIN_WORDS, signInToMenu } from './support/flows';
import { expectNoSeriousA11yViolations, screenshot } from './support/helpers';
import { sessionToken } from './support/tokens';

/**
 * The demo's one handled BGMAX deduction (docs/MONEY.md "Deductions (TK21)"): a week before the seed's
 * day a payer of Demo Bygg's took a credit note off its deposit, and the back office charged it to Demo
 * Bygg. The customer sees it on the credited invoice's timeline and in the payments report, in English,
 * Swedish and Finnish.
 */
const LANGUAGES = [
  {
    ...LOGIN_WORDS['sv-SE'],
    event: 'Kreditfaktura',
    details:
      /^Betalaren drog av .* mot en kredit från er \(avdrag, referens \d+\); avdraget dras i er nästa avräkning$/,
    note: 'Avdrag, dras i er avräkning',
  },
  {
    ...LOGIN_WORDS['fi-FI'],
    event: 'Hyvityslasku',
    details:
      /^Maksaja vähensi .* teidän hyvityksenänne \(vähennys, viite \d+\); vähennys veloitetaan seuraavassa tilityksessänne$/,
    note: 'Vähennys, veloitetaan tilityksessänne',
  },
] as const;

/** The deduction in the payments report of its day, found over the API as the page shows it. */
async function demoDeduction(page: Page, day: string) {
  const auth = { Authorization: `Bearer ${await sessionToken(page)}` };
  const res = await page.request.get(`/api/limited/reports/payments?from=${day}&to=${day}&pageSize=100`, {
    headers: auth,
  });
  expect(res.status(), await res.text()).toBe(200);
  const report = (await res.json()) as PaymentsReportResponse;
  const found = report.items.filter((p) => p.deduction !== null);
  expect(found).toHaveLength(1);
  return found[0] as PaymentsReportResponse['items'][number];
}

async function expectOnTimeline(page: Page, invoiceID: string, event: string, details: RegExp) {
  await page.goto(`/invoices/${invoiceID}`);
  const item = page
    .locator('li')
    .filter({ hasText: event })
    .filter({ has: page.locator('.timeline__details') });
  await expect(item.first()).toBeVisible();
  const text = ((await item.first().locator('.timeline__details').textContent()) ?? '').replace(/\s/g, ' ');
  expect(text).toMatch(details);
}

async function expectInReport(page: Page, day: string, reference: string, note: string) {
  await page.goto(`/reports/payments?from=${day}&to=${day}`);
  const row = page.getByRole('row').filter({ hasText: reference }).filter({ hasText: note });
  await expect(row).toHaveCount(1);
  await expect(row.locator('.data-table__note')).toHaveText(note);
}

test('the customer sees the handled deduction on the invoice timeline and in the payments report', async ({
  page,
}, testInfo) => {
  await signInToMenu(page, 'demo', 'Dana Demosson');
  const day = addDaysIso(swedishToday(), -7);
  const deduction = await demoDeduction(page, day);
  expect(deduction).toMatchObject({ deduction: 'chargeIssuer', appliedMinor: 0 });
  expect(deduction.amountMinor).toBeLessThan(0);

  await expectOnTimeline(
    page,
    deduction.invoiceID,
    'Credit note',
    /^The payer took .* off its payment of .* for a credit of yours \(deduction, reference \d+\); it is charged in your next settlement$/,
  );
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'deduction-timeline-en');
  await expectInReport(page, day, deduction.reference, 'Deduction, charged in your settlement');
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'deduction-payments-en');

  for (const l of LANGUAGES) {
    await page.context().clearCookies();
    await page.evaluate(() => window.localStorage.clear());
    await fillLoginIn(page, l);
    await page.getByRole('button', { name: l.submit }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', l.lang);
    // Signed in once the app holds the session's token (before, the pages below would send it back to login).
    await expect.poll(() => page.evaluate(() => window.localStorage.getItem('token'))).not.toBeNull();
    await expect(page).not.toHaveURL(/\/login/);
    await expectOnTimeline(page, deduction.invoiceID, l.event, l.details);
    await screenshot(page, testInfo, `deduction-timeline-${l.lang}`);
    await expectInReport(page, day, deduction.reference, l.note);
    await screenshot(page, testInfo, `deduction-payments-${l.lang}`);
  }
});
