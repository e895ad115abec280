import { expect, test } from '@playwright/test';
import { writeBgmaxSettlement } from '@portal/domain/bgmax';
import { addDaysIso, dateField, swedishToday, typeDate } from './support/dates';
import { ARTIFACTS_DIR } from './support/env';
import { expectSignedIn, signIn } from './support/flows';
import { screenshot } from './support/helpers';
import { operatorToken, sessionToken } from './support/tokens';

/**
 * An installment plan's whole life in the browser (issue #14, docs/INSTALLMENTS.md): the customer
 * registers it, the signee signs on the e-signing sandbox's page that `npm start` runs (opened from
 * the plan's "Open signing" link), the back office approves it, the daily job invoices the
 * installments whose dates have come, and a BGMAX file (our writer's) pays the first one: the plan's
 * schedule shows it paid and its timeline the payment.
 *
 * The server's clock is the real one, so the plan starts 71 days ago: its first two due dates have
 * passed by today's daily job, which invoices every row due within 30 days. With 24 installments no
 * one installment is 10 % of the financed amount, so the overdue first one gives no final notice.
 */
test('an installment plan is registered, signed in the sandbox, approved, invoiced and its first installment paid', async ({
  page,
  context,
}, testInfo) => {
  test.setTimeout(120_000);
  const stamp = String(Date.now()).slice(-8);
  const description = `E2E Värmepump ${stamp}`;
  const today = swedishToday();
  await signIn(page, 'demo');
  await expectSignedIn(page, 'Dana Demosson');

  await page.goto('/installment/register');
  await expect(page.getByRole('heading', { level: 1, name: 'Register installment plan' })).toBeVisible();
  await page.getByRole('combobox', { name: /Buyer/ }).fill('Bergglas');
  await page.getByRole('option', { name: /Bergglas AB/ }).click();
  await page.getByLabel('Description').fill(description);
  await page.getByLabel('Financed amount').fill('24,000');
  await typeDate(dateField(page, 'Start date'), addDaysIso(today, -71));
  await page.getByLabel('Number of installments').fill('24');
  await page.getByLabel('Administration fee').fill('25');
  await page.getByLabel(/^Name/).fill('Anna Andersson');
  await page.getByLabel('Personal or organisation number').fill('19811218-9876');
  await page.getByLabel('E-mail').fill('anna@example.se');
  await screenshot(page, testInfo, 'journey-register');
  await page.getByRole('button', { name: 'Register plan' }).click();
  await expect(page.getByText('The installment plan is registered.', { exact: false })).toBeVisible();
  const planUrl = page.url();
  const planID = planUrl.split('/').pop() ?? '';

  // Sent for signing: the page offers the signee's own page at the provider.
  await page.getByRole('button', { name: 'Send for signing' }).click();
  await expect(page.getByText('The agreement has been sent for signing.')).toBeVisible();
  const openSigning = page.getByRole('link', { name: 'Open signing' });
  await expect(openSigning).toBeVisible();
  await screenshot(page, testInfo, 'journey-sent');
  const link = (await openSigning.getAttribute('href')) ?? '';
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/s\//);

  // The signee signs on the sandbox's page (Swedish: the buyer's language) with BankID's personal number.
  const [signing] = await Promise.all([context.waitForEvent('page'), openSigning.click()]);
  await signing.waitForLoadState();
  expect(signing.url()).toBe(link);
  await expect(signing.getByText(description, { exact: false })).toBeVisible();
  await signing.getByLabel('Personnummer').fill('19811218-9876');
  await signing.screenshot({ path: `${ARTIFACTS_DIR}journey-sandbox.png`, fullPage: true });
  await signing.getByRole('button', { name: 'Signera' }).click();
  await expect(signing.getByText('Du har signerat avtalet. Tack!')).toBeVisible();
  await expect(signing.getByText('Alla parter har signerat.', { exact: false })).toBeVisible();
  await signing.screenshot({ path: `${ARTIFACTS_DIR}journey-sandbox-signed.png`, fullPage: true });
  await signing.close();

  // The provider's callback moves the plan to signed; the page shows it after a reload, and the
  // "registered" notice of the arrival is not said again.
  const customer = { Authorization: `Bearer ${await sessionToken(page)}` };
  await expect
    .poll(
      async () =>
        (
          (await (
            await page.request.get(`/api/limited/installmentplans/${planID}`, { headers: customer })
          ).json()) as {
            state: number;
          }
        ).state,
      { timeout: 20_000 },
    )
    .toBe(9);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: /Installment plan/ })).toContainText('Signed');
  await expect(page.getByText('The installment plan is registered.', { exact: false })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Open signing' })).toHaveCount(0);
  const signee = page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: 'Anna Andersson' }) });
  await expect(signee).toContainText(/Signed \S/);
  await expect(signee).not.toContainText('Signed Signed');

  // The back office approves it and runs today's daily job: the installments due by a month from now
  // are invoiced, the first two of them already overdue.
  const operator = { Authorization: `Bearer ${await operatorToken(page.request)}` };
  const decided = await page.request.post(`/api/backoffice/installmentplans/${planID}/decision`, {
    headers: operator,
    data: { decision: 'approved' },
  });
  expect(decided.status(), await decided.text()).toBe(200);
  const daily = await page.request.post('/api/backoffice/daily', {
    headers: operator,
    data: { date: today },
  });
  expect(daily.status(), await daily.text()).toBe(200);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: /Installment plan/ })).toContainText('Active');
  const schedule = page.getByRole('table', { name: 'Payment schedule' });
  const row = (n: number) => schedule.getByRole('row').nth(n);
  await expect(row(1)).toContainText('Not paid');
  await expect(row(2)).toContainText('Not paid');
  await expect(row(4)).toContainText('Not invoiced yet');
  await screenshot(page, testInfo, 'journey-invoiced');

  // The buyer pays the first installment by its OCR reference: Bankgirot's file, our BGMAX writer's.
  const plan = (await (
    await page.request.get(`/api/limited/installmentplans/${planID}`, { headers: customer })
  ).json()) as {
    installments: { invoiceID: string | null; amountMinor: number }[];
  };
  const first = plan.installments[0];
  if (!first?.invoiceID) throw new Error('the first installment has no invoice');
  const invoice = (await (
    await page.request.get(`/api/limited/invoices/${first.invoiceID}`, { headers: customer })
  ).json()) as { ocr: string };
  const file = writeBgmaxSettlement({
    payeeBankgiro: '5050109',
    paymentDate: today,
    depositSerialNumber: 60_000 + (Number(stamp) % 30_000),
    writtenAt: `${today}T07:00:00.000000`,
    payments: [{ reference: invoice.ocr, amountMinor: first.amountMinor, name: 'Anna Andersson' }],
  });
  const imported = await page.request.post(`/api/backoffice/payments/import?filename=plan-${stamp}.txt`, {
    headers: { ...operator, 'Content-Type': 'application/octet-stream' },
    data: Buffer.from(file),
  });
  expect(imported.status(), await imported.text()).toBe(200);

  // The schedule moves on: the first installment is paid, the second still open; the timeline has it.
  await page.reload();
  await expect(row(1)).toContainText('Paid');
  await expect(row(1)).not.toContainText('Not paid');
  await expect(row(2)).toContainText('Not paid');
  await expect(page.locator('.timeline')).toContainText('Installment paid');
  await expect(page.locator('.timeline')).toContainText('Installment invoiced');
  await screenshot(page, testInfo, 'journey-paid');
  expect(page.url()).toBe(planUrl);
});
