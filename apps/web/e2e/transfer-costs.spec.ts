import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { readBgmax } from '@portal/domain/bgmax';
import { expectNoSeriousA11yViolations, screenshot } from './support/helpers';
import { approveAndPayOut, sendSelected, signInWithFinancedInvoice } from './support/invoices';
import { operatorToken } from './support/tokens';

test('a customer previews the fees when sending, and after the payout run finds the settlement, its rows and its BGMAX file', async ({
  page,
}, testInfo) => {
  const number = `E2E-TC-${String(Date.now()).slice(-8)}`;
  const { auth, invoiceID } = await signInWithFinancedInvoice(page, number);

  // The send page shows what it will cost and what we pay out, before sending.
  await page.goto('/invoice/send');
  await page.getByLabel(`Select invoice ${number}`).check();
  const fees = page.getByRole('table', { name: 'Fees and payout' });
  await expect(fees).toBeVisible();
  // 10 h × 800.00 + 25 % VAT = 10,000.00; the demo's factoring fee is 1.50 % + 25.00 = 175.00.
  await expect(fees.getByRole('row', { name: /^SEK/ })).toHaveText(
    /SEK\s*SEK\s10,000\.00\s*SEK\s175\.00\s*SEK\s9,825\.00/,
  );
  await screenshot(page, testInfo, 'invoice-send-fees-preview');
  await sendSelected(page, number);

  // The back office approves it and runs a payout.
  const operator = { Authorization: `Bearer ${await operatorToken(page.request)}` };
  const payout = (await approveAndPayOut(page, operator, invoiceID)) as {
    settlements: { settlementID: string; number: number; currency: string; totalPayoutMinor: number }[];
  };
  const own = await page.request.get('/api/limited/transfercosts?pageSize=5', { headers: auth });
  const newest = (
    (await own.json()) as { items: { settlementID: string; number: number; totalPayoutMinor: number }[] }
  ).items[0];
  if (!newest) throw new Error('no settlement');
  expect(payout.settlements.map((s) => s.settlementID)).toContain(newest.settlementID);

  // The customer finds it first in the list, opens it and sees the invoice, then downloads the file.
  await page.goto('/transfercosts');
  await expect(page.getByRole('heading', { name: 'Transfer costs', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: `Show settlement ${newest.number}` }).click();
  const dialog = page.getByRole('dialog', { name: `Settlement ${newest.number}` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('row', { name: new RegExp(number) })).toContainText('SEK 9,825.00');
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'transfer-costs-settlement');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: `Download BGMAX ${newest.number}` }).click(),
  ]);
  expect(download.suggestedFilename()).toContain(String(newest.number));
  const bytes = readFileSync(await download.path());
  const parsed = readBgmax(new Uint8Array(bytes));
  expect(parsed.file.sections).toHaveLength(1);
  expect(parsed.file.sections[0]?.deposit.amountMinor).toBe(newest.totalPayoutMinor);
  expect(parsed.file.sections[0]?.payments.some((p) => p.amountMinor === 982_500)).toBe(true);

  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(dialog).toBeHidden();
  await screenshot(page, testInfo, 'transfer-costs-list');
});
