import { expect, type Locator, type Page, test } from '@playwright/test';
import { chooseLanguage, signInAsDemo } from './support/flows';
import { expectNoSeriousA11yViolations, screenshot } from './support/helpers';

/** How many lines the text of an element takes, from the boxes of its text (one box per line). */
async function linesOf(element: Locator): Promise<number> {
  return element.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    return tops.size;
  });
}

/** The history's tab strip shows every tab whole: nothing scrolled out of sight. */
async function expectAllTabsInView(page: Page): Promise<void> {
  const list = page.getByRole('tablist');
  const { scroll, client } = await list.evaluate((el) => ({
    scroll: el.scrollWidth,
    client: el.clientWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(client);
}

test('a rejected invoice shows Rejected with its reason in the history and the detail (issue #11)', async ({
  page,
}, testInfo) => {
  await signInAsDemo(page);
  await page.goto('/invoices');
  await page.getByRole('tab', { name: 'Rejected' }).click();
  await expect(page).toHaveURL(/filter=rejected/);
  const table = page.getByRole('table', { name: 'Invoices', exact: true });
  const rows = table.getByRole('row').filter({ has: page.getByRole('link') });
  // The rows of the tab before stay on screen while the rejected ones load (aria-busy): they are
  // counted once the list has its own.
  await expect(rows.first().locator('.state-badge').first()).toHaveText('Rejected');
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  const count = await rows.count();
  expect(count).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    await expect(rows.nth(i).locator('.state-badge').first()).toHaveText('Rejected');
    await expect(rows.nth(i)).not.toContainText('Not sent');
  }
  const reason = (await rows.first().locator('.state-badges__reason').textContent()) ?? '';
  expect(reason.length).toBeGreaterThan(0);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'invoice-history-rejected-en');

  await rows.first().getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: /^Invoice / })).toBeVisible();
  await expect(page.locator('.invoice-detail__header .state-badge')).toHaveText('Rejected');
  await expect(page.locator('.facts dt', { hasText: 'Status' }).locator('+ dd')).toHaveText('Rejected');
  await expect(page.getByText(`Reason: ${reason}`)).toBeVisible();
  await expect(page.getByText('Not sent')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'invoice-detail-rejected-en');

  const number = (await page.getByRole('heading', { level: 1 }).textContent())?.replace('Invoice ', '') ?? '';

  await chooseLanguage(page, 'Svenska');
  await expect(page.locator('.invoice-detail__header .state-badge')).toHaveText('Avslagen');
  await expect(page.getByText(`Skäl: ${reason}`)).toBeVisible();
  await screenshot(page, testInfo, 'invoice-detail-rejected-sv');

  // The send page lists it among the unsent invoices, marked as rejected.
  await page.goto('/invoice/send');
  const sendRow = page
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: number, exact: true }) });
  await expect(sendRow.locator('.state-badge')).toHaveText('Avslagen');
  await expect(sendRow).toContainText(reason);
  await screenshot(page, testInfo, 'invoice-send-rejected-sv');
});

test('the invoice history opens newest first, every tab on one line in all three languages (issue #11)', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAsDemo(page);
  for (const [button, all, shot] of [
    ['Svenska', 'Alla', 'sv'],
    ['Suomi', 'Kaikki', 'fi'],
    ['English', 'All', 'en'],
  ] as const) {
    await chooseLanguage(page, button);
    await page.goto('/invoices');
    await expect(page.getByRole('tab', { name: all, exact: true })).toHaveAttribute('aria-selected', 'true');
    const tabs = page.getByRole('tab');
    await expect(tabs).toHaveCount(9);
    for (let i = 0; i < 9; i++) {
      const tab = tabs.nth(i);
      expect(await linesOf(tab), `${shot}: "${await tab.textContent()}" on one line`).toBe(1);
    }
    await expectAllTabsInView(page);
    await screenshot(page, testInfo, `invoice-history-tabs-${shot}`);
  }

  // Newest first: the invoice dates of the first page never rise, and the column says descending.
  await expect(page.getByRole('columnheader', { name: 'Invoice date' })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  const token = await page.evaluate(() => JSON.parse(window.localStorage.getItem('token') ?? 'null'));
  const newest = await page.request.get(
    '/api/limited/invoices?filter=all&sort=invoiceDate&order=desc&page=1&pageSize=25',
    { headers: { Authorization: `Bearer ${token}` } },
  );
  const numbers = ((await newest.json()) as { items: { invoiceNumber: string }[] }).items.map(
    (i) => i.invoiceNumber,
  );
  const shown = page
    .getByRole('table', { name: 'Invoices', exact: true })
    .getByRole('row')
    .filter({ has: page.getByRole('link') })
    .getByRole('link');
  await expect(shown).toHaveText(numbers);
});
