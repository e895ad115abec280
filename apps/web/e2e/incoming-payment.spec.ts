import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { writeBgmaxSettlement } from '@portal/domain/bgmax';
// The server tests' reader: pdf.js, pages joined by newlines.
import { pdfText } from '../../server/test/support/pdf-text';
import { swedishToday } from './support/dates';
import { expectNoSeriousA11yViolations, screenshot } from './support/helpers';
import { approveAndPayOut, sendSelected, signInWithFinancedInvoice } from './support/invoices';
import { operatorToken } from './support/tokens';

/** A YYYY-MM-DD date as the English UI writes it ("Mar 2, 2026"). */
function englishDate(iso: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${iso}T00:00:00Z`),
  );
}

/** What the import answers for a new file with one payment that pays an invoice: `totalMinor`. */
const matchedOnce = (totalMinor: number): Partial<ImportAnswer> => ({
  duplicateFile: false,
  payments: 1,
  registered: 1,
  matched: 1,
  unmatched: 0,
  overpayments: 0,
  totalMinor,
});

interface ImportAnswer {
  fileID: string;
  duplicateFile: boolean;
  payments: number;
  registered: number;
  matched: number;
  unmatched: number;
  overpayments: number;
  totalMinor: number;
}

test('the back office imports BGMAX files of incoming payments: the customer sees the invoice part paid, then paid, and a file imported twice changes nothing', async ({
  page,
}, testInfo) => {
  const stamp = String(Date.now()).slice(-8);
  const number = `E2E-IP-${stamp}`;
  const { auth, invoiceID } = await signInWithFinancedInvoice(page, number);

  // The customer sends it; the back office approves it and pays it out.
  await page.goto('/invoice/send');
  await page.getByLabel(`Select invoice ${number}`).check();
  await sendSelected(page, number);
  const operator = { Authorization: `Bearer ${await operatorToken(page.request)}` };
  await approveAndPayOut(page, operator, invoiceID);

  const detail = async () => {
    const res = await page.request.get(`/api/limited/invoices/${invoiceID}`, { headers: auth });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()) as {
      state: number;
      ocr: string | null;
      toPayMinor: number;
      remainingMinor: number;
    };
  };
  const sent = await detail();
  expect(sent).toMatchObject({ state: 2, toPayMinor: 1_000_000, remainingMinor: 1_000_000 });
  const ocr = sent.ocr ?? '';
  expect(ocr).toMatch(/^\d{2,25}$/);

  // What the recipient pays to: the payment slip of the invoice PDF the customer downloads names the
  // bankgiro and the OCR reference.
  await page.goto(`/invoices/${invoiceID}`);
  await expect(page.getByRole('heading', { name: `Invoice ${number}` })).toBeVisible();
  await expect(page.locator('.invoice-detail__ocr')).toHaveText(ocr);
  const [pdf] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download invoice PDF' }).click(),
  ]);
  const slip = (await pdfText(readFileSync(await pdf.path()))).text;
  // The document is in its recipient's language (a Swedish customer: Swedish), whatever the UI's.
  const payTo = /Betala till bankgiro\s+(\d{3,4}-\d{4})\s+OCR-nummer\s+(\d+)/.exec(slip);
  expect(payTo, slip).not.toBeNull();
  const [, bankgiroText = '', slipOcr] = payTo ?? [];
  expect(slipOcr).toBe(ocr);
  expect(slip).toContain(`Betalning med befriande verkan kan endast ske till bankgiro ${bankgiroText}.`);
  const bankgiro = bankgiroText.replace('-', '');

  // Bankgirot's files of the day, written with our BGMAX writer: one deposit into that bankgiro with
  // the payment by OCR. Deposit and serial numbers of this run only, so that no payment of the demo's
  // own files has the same identity.
  const paymentDate = swedishToday();
  const deposit = 50_000 + (Number(stamp) % 40_000);
  const bgmaxFile = (depositSerialNumber: number, amountMinor: number, writtenAt = '06:00:00'): Buffer =>
    Buffer.from(
      writeBgmaxSettlement({
        payeeBankgiro: bankgiro,
        paymentDate,
        depositSerialNumber,
        writtenAt: `${paymentDate}T${writtenAt}.000000`,
        payments: [{ reference: ocr, amountMinor, name: 'E2E Betalare AB' }],
      }),
    );
  const importFile = async (bytes: Buffer, filename: string): Promise<ImportAnswer> => {
    const res = await page.request.post(`/api/backoffice/payments/import?filename=${filename}`, {
      headers: { ...operator, 'Content-Type': 'application/octet-stream' },
      data: bytes,
    });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()) as ImportAnswer;
  };
  const timeline = page.locator('.timeline');
  const timelineItem = (event: string) =>
    timeline
      .locator('.timeline__item')
      .filter({ has: page.locator('.timeline__event', { hasText: new RegExp(`^${event}$`) }) });

  // The first file pays 4,000.00 of 10,000.00.
  const partFile = bgmaxFile(deposit, 400_000);
  const part = await importFile(partFile, `bgmax-${stamp}-1.txt`);
  expect(part).toMatchObject(matchedOnce(400_000));

  // The customer finds it under "Partly paid" in the invoice list …
  await page.goto('/invoices');
  await page.getByRole('tab', { name: 'Partly paid' }).click();
  await expect(page).toHaveURL(/filter=partPaid/);
  await page.getByRole('searchbox', { name: 'Search' }).fill(number);
  const list = page.getByRole('table', { name: 'Invoices', exact: true });
  await expect(list.getByRole('row')).toHaveCount(2);
  const row = list.getByRole('row', { name: new RegExp(number) });
  await expect(row.locator('.state-badge')).toHaveText(['Partly paid']);
  await expect(row).toContainText(/SEK\s10,000\.00/);
  await expect(row).toContainText(ocr);
  await screenshot(page, testInfo, 'incoming-payment-list-part-paid');

  // … and on the invoice: the state, what is left to pay and the payment in the timeline.
  await row.getByRole('link', { name: number }).click();
  await expect(page.getByRole('heading', { name: `Invoice ${number}` })).toBeVisible();
  await expect(page.locator('.invoice-detail__header .state-badge')).toHaveText(['Partly paid']);
  await expect(page.getByText('Remaining to pay: SEK 6,000.00')).toBeVisible();
  await expect(timelineItem('Part payment received')).toHaveCount(1);
  await expect(timelineItem('Part payment received').locator('.timeline__details')).toHaveText(
    `SEK 4,000.00 paid on ${englishDate(paymentDate)}, SEK 6,000.00 left to pay`,
  );
  await expect(timelineItem('Paid')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'incoming-payment-part-paid');

  // The same file again is known: nothing is registered and nothing changes for the customer.
  const again = await importFile(partFile, `bgmax-${stamp}-1-again.txt`);
  expect(again).toMatchObject({
    fileID: part.fileID,
    duplicateFile: true,
    registered: 0,
    matched: 0,
    unmatched: 0,
  });
  // Nor is the same payment delivered again in another file (written later, so other bytes).
  const redelivered = await importFile(bgmaxFile(deposit, 400_000, '18:00:00'), `bgmax-${stamp}-1-later.txt`);
  expect(redelivered).toMatchObject({
    duplicateFile: false,
    payments: 1,
    registered: 0,
    matched: 0,
    unmatched: 0,
  });
  expect(redelivered.fileID).not.toBe(part.fileID);
  expect(await detail()).toMatchObject({ state: 3, remainingMinor: 600_000 });
  await page.reload();
  await expect(page.getByRole('heading', { name: `Invoice ${number}` })).toBeVisible();
  await expect(page.locator('.invoice-detail__header .state-badge')).toHaveText(['Partly paid']);
  await expect(page.getByText('Remaining to pay: SEK 6,000.00')).toBeVisible();
  await expect(timelineItem('Part payment received')).toHaveCount(1);

  // The next file pays the remaining 6,000.00.
  const rest = await importFile(bgmaxFile(deposit + 1, 600_000), `bgmax-${stamp}-2.txt`);
  expect(rest).toMatchObject(matchedOnce(600_000));

  // Now it is no longer under "Partly paid" but under "Paid".
  await page.goto('/invoices');
  await page.getByRole('tab', { name: 'Partly paid' }).click();
  await page.getByRole('searchbox', { name: 'Search' }).fill(number);
  await expect(page.getByText('No invoices match.')).toBeVisible();
  await page.getByRole('tab', { name: 'Paid', exact: true }).click();
  await expect(page).toHaveURL(/filter=paid\b/);
  await expect(list.getByRole('row')).toHaveCount(2);
  await expect(row.locator('.state-badge')).toHaveText(['Paid']);
  await expect(row).toContainText(/SEK\s10,000\.00/);
  await screenshot(page, testInfo, 'incoming-payment-list-paid');

  await row.getByRole('link', { name: number }).click();
  await expect(page.getByRole('heading', { name: `Invoice ${number}` })).toBeVisible();
  await expect(page.locator('.invoice-detail__header .state-badge')).toHaveText(['Paid']);
  await expect(page.getByText('Remaining to pay: SEK 0.00')).toBeVisible();
  await expect(timelineItem('Paid').locator('.timeline__details')).toHaveText(
    `SEK 6,000.00 paid on ${englishDate(paymentDate)}, SEK 0.00 left to pay`,
  );
  await expect(timelineItem('Part payment received').locator('.timeline__details')).toHaveText(
    `SEK 4,000.00 paid on ${englishDate(paymentDate)}, SEK 6,000.00 left to pay`,
  );
  await expect(timelineItem('Overpayment')).toHaveCount(0);
  // The payout before the payments, with the demo's factoring fee of 1.50 % + 25.00.
  await expect(timelineItem('Paid out').locator('.timeline__details')).toHaveText(
    /^Settlement \d+: SEK\s10,000\.00 less the fee SEK\s175\.00, SEK\s9,825\.00 paid out$/,
  );
  expect(await detail()).toMatchObject({ state: 4, remainingMinor: 0 });
  await page.locator('.timeline').scrollIntoViewIfNeeded();
  await screenshot(page, testInfo, 'incoming-payment-paid');
});
