import { expect, type Locator, test } from '@playwright/test';
import type { DashboardResponse } from '@portal/contracts';
import { formatMoney } from '@portal/domain/money';
import { fillLoginIn, LOGIN_WORDS } from './support/flows';
import { expectNoSeriousA11yViolations, screenshot } from './support/helpers';

const LANGUAGES = [
  {
    ...LOGIN_WORDS['sv-SE'],
    title: 'Översikt',
    overdue: 'Förfallna obetalda fakturor',
    days: 'Försäljning senaste 30 dagarna',
    months: 'Försäljning senaste 12 månaderna',
    total: 'Totalt',
  },
  {
    ...LOGIN_WORDS['en-US'],
    title: 'Overview',
    overdue: 'Overdue unpaid invoices',
    days: 'Sales in the last 30 days',
    months: 'Sales in the last 12 months',
    total: 'Total',
  },
  {
    ...LOGIN_WORDS['fi-FI'],
    title: 'Yleiskatsaus',
    overdue: 'Erääntyneet maksamattomat laskut',
    days: 'Myynti viimeisen 30 päivän aikana',
    months: 'Myynti viimeisen 12 kuukauden aikana',
    total: 'Yhteensä',
  },
] as const;

/** A text as a regular expression of itself, any kind of space where it has a space. */
const asPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s/g, '\\s');

/** Every element of `inner` lies within the box of `outer` (nothing cut off or sticking out). */
async function expectInside(inner: Locator, outer: Locator): Promise<void> {
  const box = await outer.boundingBox();
  if (!box) throw new Error('the outer element is not visible');
  const count = await inner.count();
  expect(count).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    const b = await inner.nth(i).boundingBox();
    if (!b) throw new Error(`element ${i} is not visible`);
    expect(b.x, `element ${i}: left edge`).toBeGreaterThanOrEqual(box.x);
    expect(b.x + b.width, `element ${i}: right edge`).toBeLessThanOrEqual(box.x + box.width);
  }
}

for (const l of LANGUAGES) {
  test(`the dashboard in ${l.lang}: its charts show each period and the total, its overdue buckets match the invoice list they open`, async ({
    page,
  }, testInfo) => {
    await fillLoginIn(page, l);
    const dashboard = page.waitForResponse((r) => r.url().endsWith('/api/limited/dashboard') && r.ok());
    await page.getByRole('button', { name: l.submit }).click();

    const heading = page.getByRole('heading', { name: new RegExp(`^${l.title} \\((SEK|EUR)\\)$`) });
    await expect(heading).toBeVisible();
    const currency = /\((\w{3})\)/.exec((await heading.textContent()) ?? '')?.[1] ?? '';
    const data = (await (await dashboard).json()) as DashboardResponse;
    expect(data.currency).toBe(currency);
    const money = (minor: number) => formatMoney(minor, data.currency as 'SEK' | 'EUR', l.lang);

    // Each chart: a named bar per period, the period's total to the öre beside its title, and value
    // axis labels that stay inside the chart.
    const charts = [
      { name: l.days, points: data.sales30Days },
      { name: l.months, points: data.sales12Months },
    ];
    for (const { name, points } of charts) {
      const card = page.locator('.column-chart', { has: page.getByRole('heading', { name, exact: true }) });
      const total = points.reduce((sum, p) => sum + p.grossMinor, 0);
      await expect(card.getByTestId('chart-total')).toHaveText(`${l.total} ${money(total)}`);
      const chart = card.getByRole('group', { name, exact: true });
      await expect(chart.getByRole('img')).toHaveCount(points.length);
      await expectInside(card.locator('.column-chart__axis--value text'), card);
    }

    // Hovering the highest month shows its period and amount; so does focusing a bar from the keyboard.
    const months = page.getByRole('group', { name: l.months, exact: true }).getByRole('img');
    const highest = data.sales12Months.reduce(
      (best, m, i, all) => (m.grossMinor > (all[best]?.grossMinor ?? 0) ? i : best),
      0,
    );
    const month = data.sales12Months[highest] as DashboardResponse['sales12Months'][number];
    const period = new Intl.DateTimeFormat(l.lang, { month: 'long', year: 'numeric' }).format(
      new Date(Number(month.month.slice(0, 4)), Number(month.month.slice(5, 7)) - 1, 1),
    );
    await months.nth(highest).hover();
    const tooltip = page.getByRole('tooltip');
    await expect(tooltip).toContainText(period);
    await expect(tooltip).toContainText(money(month.grossMinor));
    await expect(months.nth(highest)).toHaveAccessibleName(
      new RegExp(`^${asPattern(period)}: ${asPattern(money(month.grossMinor))}, `),
    );
    await screenshot(page, testInfo, `dashboard-${l.lang}`);
    await page.mouse.move(0, 0);
    await expect(tooltip).toHaveCount(0);

    const days = page.getByRole('group', { name: l.days, exact: true }).getByRole('img');
    await days.first().focus();
    await page.keyboard.press('End');
    await expect(days.last()).toBeFocused();
    const last = data.sales30Days.at(-1) as DashboardResponse['sales30Days'][number];
    await expect(tooltip).toContainText(money(last.grossMinor));
    // The last bar's tooltip opens to its left, inside the chart's card.
    await expectInside(
      tooltip,
      page.locator('.column-chart', { has: page.getByRole('heading', { name: l.days, exact: true }) }),
    );
    await page.keyboard.press('Escape');
    await expect(tooltip).toHaveCount(0);
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
