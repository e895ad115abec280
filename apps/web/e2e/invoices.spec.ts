import { expect, type Page, test } from '@playwright/test';
import { addDaysIso, swedishToday } from './support/dates';
import { chooseLanguage, expectSignedIn, signIn, signInAsDemo } from './support/flows';
import { expectNoSeriousA11yViolations, screenshot } from './support/helpers';
import { registerFinancedInvoice } from './support/invoices';
import { createRecipient } from './support/recipients';

async function pickRecipient(page: Page, name: string): Promise<void> {
  await page.getByRole('combobox', { name: /Recipient/ }).fill(name);
  await page.getByRole('option', { name: new RegExp(name) }).click();
}

async function fillRow(
  page: Page,
  row: number,
  values: { name: string; quantity: string; price: string; vat: string },
) {
  await page.getByLabel(`Item, row ${row}`, { exact: true }).fill(values.name);
  await page.getByLabel(`Quantity, row ${row}`, { exact: true }).fill(values.quantity);
  await page.getByLabel(`Unit price, row ${row}`, { exact: true }).fill(values.price);
  await page.getByLabel(`VAT rate, row ${row}`, { exact: true }).selectOption({ label: values.vat });
}

test('a customer registers invoices, meets the duplicate-number rule, sends them and finds one in the history', async ({
  page,
}, testInfo) => {
  // Other specs share the demo data: the numbers and the recipient are unique to this run.
  const stamp = String(Date.now()).slice(-8);
  const first = `E2E-${stamp}-1`;
  const second = `E2E-${stamp}-2`;
  const recipientName = `E2E Kund ${stamp}`;

  await createRecipient(page, await signInAsDemo(page), {
    name: recipientName,
    email: 'e2e-kund@example.com',
  });

  // Register with two rows; the total is live: 8 h × 650.00 + 25 % and 1.5 × 123.45 (185.18) + 12 %.
  await page.goto('/invoice/register');
  await expect(page.getByRole('heading', { name: 'Register invoice' })).toBeVisible();
  await pickRecipient(page, recipientName);
  await page.getByLabel('Invoice number').fill(first);
  await fillRow(page, 1, { name: 'Arbetstimme snickare', quantity: '8', price: '650', vat: '25%' });
  await page.getByRole('button', { name: 'Add row' }).click();
  await fillRow(page, 2, { name: 'Material', quantity: '1.5', price: '123.45', vat: '12%' });
  await expect(page.getByTestId('invoice-to-pay')).toHaveText(/SEK\s6,707\.40/);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'invoice-register-en');
  await page.getByRole('button', { name: 'Register invoice' }).click();
  await expect(page.getByRole('heading', { name: `Invoice ${first}` })).toBeVisible();
  await expect(page.getByText('The invoice has been registered.')).toBeVisible();
  await expect(page).toHaveURL(/\/invoices\/[0-9a-f-]{36}$/);

  // The same number again: the error names the existing invoice, and what was typed stays.
  await page.goto('/invoice/register');
  await pickRecipient(page, recipientName);
  await page.getByLabel('Invoice number').fill(first);
  await fillRow(page, 1, { name: 'Resa', quantity: '12', price: '35', vat: '25%' });
  await page.getByRole('button', { name: 'Register invoice' }).click();
  const number = page.getByLabel('Invoice number');
  await expect(number).toHaveAccessibleDescription(
    new RegExp(`already used by an invoice of SEK\\s6,707\\.40 to ${recipientName} dated`),
  );
  await expect(page.getByLabel('Item, row 1', { exact: true })).toHaveValue('Resa');
  await screenshot(page, testInfo, 'invoice-duplicate-number-en');
  await number.fill(second);
  await page.getByRole('button', { name: 'Register invoice' }).click();
  await expect(page.getByRole('heading', { name: `Invoice ${second}` })).toBeVisible();

  // Send both from the pending invoices; each gets its OCR reference.
  await page.goto('/invoice/send');
  await page.getByRole('button', { name: 'Send selected' }).click();
  await expect(page.getByRole('alert')).toHaveText('Select at least one invoice.');
  await page.getByLabel(`Select invoice ${first}`).check();
  await page.getByLabel(`Select invoice ${second}`).check();
  await expect(page.getByText('Selected invoices: 2')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Selected' })).toContainText(/SEK\s7,232\.40/);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'invoice-send-selection-en');

  // Send asks first: the invoices, their total, the fees and the payout; cancel sends nothing.
  await page.getByRole('button', { name: 'Send selected' }).click();
  let dialog = page.getByRole('dialog', { name: 'Send invoices?' });
  await expect(dialog.getByRole('table', { name: 'Invoices to send' }).getByRole('row')).toHaveCount(3);
  await expect(dialog.getByRole('table', { name: 'Total per currency' })).toContainText(/SEK\s7,232\.40/);
  // The demo's factoring fee is 1.50 % + 25.00 per invoice: about 108.49 + 50.00 (rounded per invoice).
  await expect(
    dialog.getByRole('table', { name: 'Fees and payout' }).getByRole('row', { name: /^SEK/ }),
  ).toHaveText(/SEK\s*SEK\s7,232\.40\s*SEK\s158\.\d\d\s*SEK\s7,07[34]\.\d\d/);
  await expect(dialog.getByRole('button', { name: 'Send 2 invoices' })).toBeEnabled();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'invoice-send-confirm-en');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Result' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByLabel(`Select invoice ${first}`)).toBeVisible();
  await page.getByLabel(`Select invoice ${first}`).check();
  await page.getByLabel(`Select invoice ${second}`).check();
  await page.getByRole('button', { name: 'Send selected' }).click();
  dialog = page.getByRole('dialog', { name: 'Send invoices?' });
  await dialog.getByRole('button', { name: 'Send 2 invoices' }).click();
  await expect(dialog).toHaveCount(0);
  const results = page.getByRole('status').filter({ hasText: 'Result' });
  for (const invoice of [first, second]) {
    await expect(results.getByRole('listitem').filter({ hasText: invoice })).toContainText(
      /sent\. Status: Awaiting credit decision\. OCR reference: \d{4,}\./,
    );
  }
  await screenshot(page, testInfo, 'invoice-send-en');
  await expect(page.getByLabel(`Select invoice ${first}`)).toHaveCount(0);

  // Find the first one in the history by its number and open its timeline.
  await page.goto('/invoices');
  await page.getByRole('searchbox', { name: 'Search' }).fill(first);
  const row = page.getByRole('row', { name: new RegExp(first) });
  await expect(row).toBeVisible();
  await expect(page.getByRole('table', { name: 'Invoices', exact: true }).getByRole('row')).toHaveCount(2);
  await expect(row).toContainText('Awaiting credit decision');
  await screenshot(page, testInfo, 'invoice-history-en');
  await row.getByRole('link', { name: first }).click();
  await expect(page.getByRole('heading', { name: `Invoice ${first}` })).toBeVisible();
  const timeline = page.locator('.timeline');
  await expect(timeline.getByText('Registered', { exact: true })).toBeVisible();
  await expect(timeline.getByText('Sent', { exact: true })).toBeVisible();
  await expect(timeline.getByText('Credit decision requested')).toBeVisible();
  await expect(page.getByText(/OCR reference/).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'invoice-detail-en');
});

test('the invoice history lists the demo invoices with filters, sorting and totals', async ({
  page,
}, testInfo) => {
  await signInAsDemo(page);
  await page.goto('/invoices');
  await expect(page.getByRole('tab', { name: 'All' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText(/^1–25 of \d+/)).toBeVisible();
  await page.getByRole('tab', { name: 'Overdue' }).click();
  await expect(page).toHaveURL(/filter=overdue/);
  await page.getByRole('button', { name: 'Amount' }).click();
  await expect(page.getByRole('columnheader', { name: 'Amount' }).first()).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  await expect(page.getByRole('table', { name: 'All matching invoices' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'invoice-history-overdue-en');
});

test('a user without the register ability gets the no-access page for the register form', async ({
  page,
}) => {
  await signIn(page, 'demo-limited');
  await expectSignedIn(page, 'Lina Lind');
  await page.goto('/invoice/register');
  await expect(page).toHaveURL(/\/403$/);
  await expect(page.getByRole('heading', { name: 'No access' })).toBeVisible();
});

test('the invoice screens in Finnish and Swedish', async ({ page }, testInfo) => {
  const auth = await signInAsDemo(page);
  await chooseLanguage(page, 'Suomi');
  await page.goto('/invoice/register');
  await expect(page.getByRole('heading', { name: 'Rekisteröi lasku' })).toBeVisible();
  await page.getByLabel('À-hinta, rivi 1', { exact: true }).fill('1 234,5');
  await page.getByLabel('Määrä, rivi 1', { exact: true }).fill('2');
  await expect(page.getByTestId('invoice-to-pay')).toHaveText(/3\s086,25\sSEK/);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'invoice-register-fi');

  // The send confirmation in Finnish: an invoice due in three days is flagged and cannot be sent.
  const stamp = String(Date.now()).slice(-8);
  const fine = await registerFinancedInvoice(page, auth, `E2E-FI-${stamp}-1`);
  const soon = await registerFinancedInvoice(page, auth, `E2E-FI-${stamp}-2`, addDaysIso(swedishToday(), 3));
  await page.goto('/invoice/send');
  await page.getByLabel(`Valitse lasku E2E-FI-${stamp}-1`).check();
  await page.getByLabel(`Valitse lasku E2E-FI-${stamp}-2`).check();
  await expect(page.getByRole('row', { name: new RegExp(`E2E-FI-${stamp}-2`) })).toContainText(
    'Eräpäivään alle 10 päivää',
  );
  await page.getByRole('button', { name: 'Lähetä valitut' }).click();
  const dialog = page.getByRole('dialog', { name: 'Lähetetäänkö laskut?' });
  await expect(dialog.getByRole('table', { name: 'Maksut ja tilitys' })).toContainText(/20\s000,00/);
  await expect(dialog.getByText(/Rahoittamiemme laskujen eräpäivän/)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Lähetä 2 laskua' })).toBeDisabled();
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'invoice-send-confirm-fi');
  await dialog.getByRole('button', { name: 'Peruuta' }).click();

  // And in Swedish, with the invoice that may be sent only.
  await chooseLanguage(page, 'Svenska');
  await page.getByLabel(`Markera faktura E2E-FI-${stamp}-2`).uncheck();
  await page.getByRole('button', { name: 'Skicka markerade' }).click();
  const sv = page.getByRole('dialog', { name: 'Skicka fakturor?' });
  await expect(sv.getByRole('table', { name: 'Fakturor att skicka' })).toContainText(`E2E-FI-${stamp}-1`);
  await expect(sv.getByRole('button', { name: 'Skicka 1 faktura' })).toBeEnabled();
  await screenshot(page, testInfo, 'invoice-send-confirm-sv');
  await sv.getByRole('button', { name: 'Avbryt' }).click();
  // Nothing was sent: both are still pending; they are deleted so the shared demo data stays as it was.
  for (const id of [fine, soon]) {
    const res = await page.request.delete(`/api/limited/invoices/${id}`, { headers: auth });
    expect(res.status(), await res.text()).toBe(200);
  }

  await page.goto('/invoices?filter=paid');
  await expect(page.getByRole('tab', { name: 'Betalda', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByRole('table', { name: 'Fakturor', exact: true })).toContainText('Betald');
  await screenshot(page, testInfo, 'invoice-history-sv');
});

test('RUT is refused with a company as the buyer, and the form keeps what was typed (issue #11)', async ({
  page,
}, testInfo) => {
  const stamp = String(Date.now()).slice(-8);
  const company = `E2E Bolag ${stamp} AB`;
  await createRecipient(page, await signInAsDemo(page), {
    name: company,
    email: 'e2e-bolag@example.com',
    vat: 'SE556036079301',
  });

  await page.goto('/invoice/register');
  await pickRecipient(page, company);
  await page.getByLabel('Invoice number').fill(`E2E-RUT-${stamp}`);
  await fillRow(page, 1, { name: 'Städning', quantity: '4', price: '450', vat: '25%' });
  await page.getByRole('radio', { name: 'RUT deduction' }).check();
  await page.getByRole('checkbox', { name: 'Labour for ROT/RUT, row 1' }).check();
  await page.getByLabel(/personal identity number/).fill('19811218-9876');
  await page.getByRole('button', { name: 'Register invoice' }).click();
  await expect(
    page.getByText('ROT and RUT deductions are only for a private person as buyer, not a company.'),
  ).toBeVisible();
  await expect(page.getByLabel('Item, row 1', { exact: true })).toHaveValue('Städning');
  await expect(page).toHaveURL(/\/invoice\/register$/);
  await screenshot(page, testInfo, 'invoice-rut-company-en');
});
