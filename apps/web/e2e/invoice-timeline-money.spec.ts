import { expect, test } from '@playwright/test';
import { expectSignedIn, signIn } from './support/flows';
import { screenshot } from './support/helpers';

// The demo seed runs the money flow over the past months: paid invoices have payout and payment
// events whose figures the timeline shows (docs/MONEY.md "Timeline event details").
test('the invoice timeline shows the payout and the payment with their figures', async ({
  page,
}, testInfo) => {
  await signIn(page, 'demo');
  await expectSignedIn(page, 'Dana Demosson');
  const token = await page.evaluate(() => JSON.parse(window.localStorage.getItem('token') ?? 'null'));
  const list = await page.request.get('/api/limited/invoices?filter=paid&page=1&pageSize=1', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(list.status()).toBe(200);
  const [paid] = (await list.json()).items as { invoiceID: string; invoiceNumber: string }[];
  expect(paid).toBeDefined();
  const detail = await page.request.get(`/api/limited/invoices/${paid?.invoiceID}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const events = (await detail.json()).events as {
    event: number;
    details: Record<string, number | string>;
  }[];
  const payment = events.find((e) => e.event === 6);
  expect(payment?.details.remainingMinor).toBe(0);

  await page.goto(`/invoices/${paid?.invoiceID}`);
  await expect(page.getByRole('heading', { name: `Invoice ${paid?.invoiceNumber}` })).toBeVisible();
  const paidItem = page
    .locator('.timeline__item')
    .filter({ has: page.locator('.timeline__event', { hasText: /^Paid$/ }) });
  await expect(paidItem.locator('.timeline__details')).toHaveText(
    /^SEK\s[\d,]+\.\d\d paid on \w{3} \d+, \d{4}, SEK\s0\.00 left to pay$/,
  );
  if (events.some((e) => e.event === 5)) {
    const payout = page
      .locator('.timeline__item')
      .filter({ has: page.locator('.timeline__event', { hasText: /^Paid out$/ }) });
    await expect(payout.locator('.timeline__details')).toHaveText(
      /^Settlement \d+: SEK\s[\d,.]+ less the fee SEK\s[\d,.]+, SEK\s[\d,.]+ paid out$/,
    );
  }
  await page.locator('.timeline').scrollIntoViewIfNeeded();
  await screenshot(page, testInfo, 'invoice-timeline-money');
});
