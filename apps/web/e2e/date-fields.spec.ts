import { expect, test } from '@playwright/test';
import { dateField, dateFieldValue, typeDate } from './support/dates';
import { fillLoginIn, LOGIN_WORDS } from './support/flows';
import { expectNoSeriousA11yViolations, screenshot } from './support/helpers';

// The browser says en-US: the date fields must follow the portal's language, not the browser's.
test.use({ locale: 'en-US' });

const LANGUAGES = [
  {
    ...LOGIN_WORDS['sv-SE'],
    menu: 'Huvudmeny',
    from: 'Från',
    empty: 'åååå-mm-dd',
    typed: '2026-03-05',
  },
  {
    ...LOGIN_WORDS['fi-FI'],
    menu: 'Päävalikko',
    from: 'Alkaen',
    empty: 'pp.kk.vvvv',
    typed: '5.3.2026',
  },
] as const;

/** The visible text of a date field's segments, without the direction marks Intl puts around them. */
async function shown(field: ReturnType<typeof dateField>): Promise<string> {
  return ((await field.textContent()) ?? '').replace(/[\u2066-\u2069\u200e\u200f]/g, '');
}

for (const l of LANGUAGES) {
  test(`the invoice history's date range is typed in ${l.lang} order and asks for an ISO date`, async ({
    page,
  }, testInfo) => {
    await fillLoginIn(page, l);
    await page.getByRole('button', { name: l.submit }).click();
    await expect(page.getByRole('navigation', { name: l.menu })).toBeVisible();
    await page.goto('/invoices');

    const from = dateField(page, l.from);
    await expect(from).toBeVisible();
    expect(await shown(from)).toBe(l.empty);
    const answer = page.waitForResponse(
      (r) => r.url().includes('/api/limited/invoices?') && r.url().includes('from=2026-03-05'),
    );
    await typeDate(from, '2026-03-05');
    expect((await answer).status()).toBe(200);
    expect(await shown(from)).toBe(l.typed);
    await expect(dateFieldValue(from)).toHaveValue('2026-03-05');
    await expect(page).toHaveURL(/from=2026-03-05/);
    await expectNoSeriousA11yViolations(page);
    await from.scrollIntoViewIfNeeded();
    await screenshot(page, testInfo, `history-date-range-${l.lang}`);
  });
}
