import { expect, type Page, test } from '@playwright/test';
import { chooseLanguage, expectSignedIn, signIn } from './support/flows';
import { expectNoSeriousA11yViolations, screenshot } from './support/helpers';
import { sessionToken } from './support/tokens';

// Other specs share the demo data (30 recipients, 20 articles of Demo Bygg AB), so every name made
// here is unique to the run.
const stamp = () => Date.now().toString(36).toUpperCase();

async function openRecipients(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Recipients' }).click();
  await expect(page).toHaveURL(/\/recipient$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Recipients' })).toBeVisible();
}

async function openArticles(page: Page): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await nav.getByRole('button', { name: 'Administration' }).click();
  await nav.getByRole('link', { name: 'Invoice articles' }).click();
  await expect(page).toHaveURL(/\/articles$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Invoice articles' })).toBeVisible();
}

/** Types into a list's search box and waits for the debounced search to show its one match. */
async function searchFor(page: Page, box: string, text: string, summary = '1–1 of 1'): Promise<void> {
  await page.getByRole('searchbox', { name: box }).fill(text);
  await expect(page.getByText(summary, { exact: true })).toBeVisible();
}

/** Adds a recipient through the form with only the required fields. */
async function addRecipient(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'New recipient' }).click();
  const form = page.getByRole('dialog', { name: 'New recipient' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await form.getByRole('textbox', { name: 'Email address' }).fill('faktura@e2e-kund.se');
  await form.getByRole('textbox', { name: 'ZIP code' }).fill('111 22');
  await form.getByRole('textbox', { name: 'City' }).fill('Stockholm');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: `${name} has been added.` })).toBeVisible();
}

test('a customer adds a recipient from the company register, finds it, edits it and deletes it', async ({
  page,
}, testInfo) => {
  const name = `E2E Kund ${stamp()} AB`;
  await signIn(page, 'demo');
  await expectSignedIn(page, 'Dana Demosson');
  await openRecipients(page);
  await expect(page.getByText(/^1–25 of \d+$/)).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'ascending');
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'recipients-list-en');

  await page.getByRole('button', { name: 'New recipient' }).click();
  const form = page.getByRole('dialog', { name: 'New recipient' });
  const companySearch = form.getByRole('searchbox', { name: 'Company name or organization number' });
  await expect(companySearch).toBeFocused();

  // A wide search is refused by the register; a narrower one lists companies to pick from.
  await companySearch.fill('AB');
  await companySearch.press('Enter');
  await expect(form.getByText('Too many results, restrict your search.')).toBeVisible();
  await companySearch.fill('Nothing like this exists 42');
  await form.getByRole('button', { name: 'Search' }).click();
  await expect(form.getByText('No data found.')).toBeVisible();
  await companySearch.fill('Stockholm');
  await companySearch.press('Enter');
  await expect(form.getByRole('button', { name: /^Use / }).first()).toBeVisible();
  // Half of the register's companies are already demo recipients, whose numbers a new recipient may not
  // have (issue #11): take the first company that is not one.
  const register = await page.request.get('/api/limited/recipients?pageSize=100', {
    headers: { Authorization: `Bearer ${await sessionToken(page)}` },
  });
  const taken = new Set(((await register.json()) as { items: { name: string }[] }).items.map((r) => r.name));
  const offered = await form
    .getByRole('button', { name: /^Use / })
    .evaluateAll((buttons) => buttons.map((b) => (b.getAttribute('aria-label') ?? '').replace(/^Use /, '')));
  const free = offered.find((company) => !taken.has(company));
  if (!free) throw new Error(`every company found is a recipient already: ${offered.join(', ')}`);
  const use = form.getByRole('button', { name: `Use ${free}`, exact: true });
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'recipient-company-search-en');
  await use.click();
  await expect(form.getByText(/have been filled in/)).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'City' })).toHaveValue('Stockholm');
  await expect(form.getByRole('textbox', { name: 'Organization number' })).toHaveValue(/^\d{6}-\d{4}$/);

  // The rules of spec §5 show before anything is sent; nothing typed is lost.
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('N'.repeat(46));
  await form.getByRole('textbox', { name: 'Email address' }).fill('not-an-email');
  await form.getByRole('textbox', { name: 'ZIP code' }).fill('');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('At most 45 characters.')).toBeVisible();
  await expect(form.getByText('Enter a valid email address.')).toBeVisible();
  await expect(form.getByText('This field is required.')).toBeVisible();
  await expect(form.getByRole('textbox', { name: 'City' })).toHaveValue('Stockholm');
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'recipient-form-rules-en');

  await form.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await form.getByRole('textbox', { name: 'Email address' }).fill('faktura@e2e-kund.se');
  await form.getByRole('textbox', { name: 'ZIP code' }).fill('111 22');
  // Enter in a field saves the form.
  await form.getByRole('textbox', { name: 'ZIP code' }).press('Enter');
  await expect(form).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: `${name} has been added.` })).toBeVisible();

  // Search (debounced) finds it; the search is kept in the address.
  await searchFor(page, 'Search recipients', name);
  await expect(page).toHaveURL(/search=/);
  await expect(page.getByRole('rowheader', { name })).toBeVisible();

  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit recipient' });
  await expect(edit.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(name);
  await edit.getByRole('textbox', { name: 'City' }).fill('Göteborg');
  const phone = edit.getByRole('textbox', { name: 'Phone number' });
  // What cannot be a phone number is refused in the form (issue #11).
  await phone.fill('ring oss');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(phone).toHaveAccessibleDescription(
    'Enter a phone number, e.g. 070-123 45 67 or +46 70 123 45 67.',
  );
  await phone.fill('031-12 34 56');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByText(`The changes to ${name} have been saved.`)).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('Göteborg');
  // The national number was stored in E.164.
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  await expect(edit.getByRole('textbox', { name: 'Phone number' })).toHaveValue('+4631123456');
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await expect(edit).toBeHidden();

  // The address keeps the search: a reload shows the same row.
  await page.reload();
  await expect(page.getByRole('rowheader', { name })).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Search recipients' })).toHaveValue(name);

  await page.getByRole('button', { name: `Delete ${name}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete recipient?' });
  await expect(confirm).toContainText(`${name} will be deleted.`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText(`${name} has been deleted.`)).toBeVisible();
  await expect(page.getByText(`No recipients match “${name}”.`)).toBeVisible();
});

test('a recipient with the organization number of another is refused, with a link to that one (issue #11)', async ({
  page,
}, testInfo) => {
  await signIn(page, 'demo');
  await openRecipients(page);
  const first = await page.request.get('/api/limited/recipients?pageSize=1&sort=name', {
    headers: { Authorization: `Bearer ${await sessionToken(page)}` },
  });
  const existing = ((await first.json()) as { items: { name: string; organizationNumber: string }[] })
    .items[0];
  if (!existing) throw new Error('the demo issuer has no recipients');

  await page.getByRole('button', { name: 'New recipient' }).click();
  const form = page.getByRole('dialog', { name: 'New recipient' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill(`E2E Dubblett ${stamp()} AB`);
  await form.getByRole('textbox', { name: 'Email address' }).fill('faktura@e2e-dubblett.se');
  await form.getByRole('textbox', { name: 'ZIP code' }).fill('111 22');
  await form.getByRole('textbox', { name: 'City' }).fill('Stockholm');
  // The same number written without its hyphen.
  const number = form.getByRole('textbox', { name: 'Organization number' });
  await number.fill(existing.organizationNumber.replace('-', ''));
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText(`${existing.name} already has this organization number.`)).toBeVisible();
  await expect(number).toHaveAccessibleDescription('Another recipient already has this organization number.');
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'recipient-number-taken-en');

  await form.getByRole('link', { name: `Show ${existing.name}` }).click();
  await expect(form).toBeHidden();
  await expect(page).toHaveURL(/search=/);
  await expect(page.getByText('1–1 of 1', { exact: true })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: existing.name })).toBeVisible();
});

test('the recipient list sorts by a column and pages through the register', async ({ page }, testInfo) => {
  await signIn(page, 'demo');
  await openRecipients(page);
  const pages = page.getByRole('navigation', { name: 'Recipient list pages' });
  await expect(pages.getByRole('button', { name: 'Previous' })).toBeDisabled();

  await page.getByRole('button', { name: 'City' }).click();
  await expect(page.getByRole('columnheader', { name: 'City' })).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL(/sort=city/);
  const firstCity = page.getByRole('row').nth(1).getByRole('cell').nth(2);
  await expect(firstCity).toHaveText('Göteborg');
  await page.getByRole('button', { name: 'City' }).click();
  await expect(page.getByRole('columnheader', { name: 'City' })).toHaveAttribute('aria-sort', 'descending');
  await expect(firstCity).toHaveText('Örebro');

  await pages.getByRole('combobox', { name: 'Rows per page' }).selectOption('10');
  await expect(pages.getByText(/^1–10 of \d+$/)).toBeVisible();
  await pages.getByRole('button', { name: 'Next' }).click();
  await expect(pages.getByText(/^11–20 of \d+$/)).toBeVisible();
  await expect(page).toHaveURL(/page=2/);
  await screenshot(page, testInfo, 'recipients-sorted-paged-en');
  await page.goBack();
  await expect(pages.getByText(/^1–10 of \d+$/)).toBeVisible();
});

test('an article tied to a recipient: exact price, duplicate number, and the recipient stays while it is used', async ({
  page,
}, testInfo) => {
  const id = stamp();
  const recipient = `E2E Artikelkund ${id}`;
  const number = `E2E-${id}`;
  const article = `Konsulttimme ${id}`;
  await signIn(page, 'demo');
  await openRecipients(page);
  await addRecipient(page, recipient);

  await openArticles(page);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'articles-list-en');
  await page.getByRole('button', { name: 'New article' }).click();
  const form = page.getByRole('dialog', { name: 'New article' });
  await form.getByRole('textbox', { name: 'Article number' }).fill(number);
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill(article);
  await form.getByRole('textbox', { name: 'Description' }).fill('Senior consultant, per started hour');
  const price = form.getByRole('textbox', { name: 'Price (SEK)' });
  // In English a comma groups thousands: "12,50" is not a price.
  await price.fill('12,50');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Enter the price as a number, e.g. 1,234.50.')).toBeVisible();
  await price.fill('1,234.50');
  await form.getByRole('combobox', { name: 'Unit' }).selectOption({ label: 'Hour (h)' });
  await expect(form.getByRole('combobox', { name: 'VAT' })).toHaveValue('2500');
  await form.getByRole('combobox', { name: 'VAT' }).selectOption({ label: '12%' });
  const picker = form.getByRole('combobox', { name: 'Recipient' });
  await picker.fill(recipient);
  await form.getByRole('option', { name: new RegExp(recipient) }).click();
  await expect(picker).toHaveValue(recipient);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'article-form-en');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: `${article} has been added.` })).toBeVisible();

  await searchFor(page, 'Search articles', number);
  const row = page.getByRole('row', { name: new RegExp(article) });
  await expect(row).toBeVisible();
  await expect(row.getByRole('cell')).toHaveText([
    number,
    'SEK 1,234.50',
    'h',
    '12%',
    recipient,
    /\w/,
    /Edit/,
  ]);
  await screenshot(page, testInfo, 'articles-created-en');

  // The same article number again is refused on its field; what was typed stays.
  await page.getByRole('button', { name: 'New article' }).click();
  const again = page.getByRole('dialog', { name: 'New article' });
  await again.getByRole('textbox', { name: 'Article number' }).fill(number);
  await again.getByRole('textbox', { name: 'Name', exact: true }).fill(`${article} copy`);
  await again.getByRole('textbox', { name: 'Price (SEK)' }).fill('99');
  await again.getByRole('button', { name: 'Save' }).click();
  const numberField = again.getByRole('textbox', { name: 'Article number' });
  await expect(numberField).toHaveAccessibleDescription(
    'An article with that article number already exists.',
  );
  await expect(numberField).toBeFocused();
  await expect(again.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(`${article} copy`);
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'article-duplicate-number-en');
  await again.getByRole('button', { name: 'Cancel' }).click();
  await expect(again).toBeHidden();

  // The recipient cannot go while the article uses it.
  await openRecipients(page);
  await searchFor(page, 'Search recipients', recipient);
  await page.getByRole('button', { name: `Delete ${recipient}` }).click();
  const refuse = page.getByRole('alertdialog', { name: 'Delete recipient?' });
  await refuse.getByRole('button', { name: 'Delete' }).click();
  await expect(refuse.getByRole('alert')).toHaveText(
    'The recipient is used by articles or invoices and cannot be deleted.',
  );
  await screenshot(page, testInfo, 'recipient-in-use-en');
  await refuse.getByRole('button', { name: 'Cancel' }).click();

  await openArticles(page);
  await searchFor(page, 'Search articles', number);
  await page.getByRole('button', { name: `Delete ${article}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete article?' });
  await expect(confirm).toContainText(`Article ${number}, ${article}, will be deleted.`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`${article} has been deleted.`)).toBeVisible();
  await expect(page.getByText(`No articles match “${number}”.`)).toBeVisible();

  // With the article gone the recipient can be deleted.
  await openRecipients(page);
  await searchFor(page, 'Search recipients', recipient);
  await page.getByRole('button', { name: `Delete ${recipient}` }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete recipient?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByText(`${recipient} has been deleted.`)).toBeVisible();
});

test('in Swedish a price typed as "1 234,50" is saved exactly and shown as "1 234,50 kr"', async ({
  page,
}, testInfo) => {
  const id = stamp();
  const number = `SV-${id}`;
  await signIn(page, 'demo');
  await expectSignedIn(page, 'Dana Demosson');
  await chooseLanguage(page, 'Svenska');
  const nav = page.getByRole('navigation', { name: 'Huvudmeny' });
  await nav.getByRole('button', { name: 'Administration' }).click();
  await nav.getByRole('link', { name: 'Fakturaartiklar' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Fakturaartiklar' })).toBeVisible();

  await page.getByRole('button', { name: 'Ny artikel' }).click();
  const form = page.getByRole('dialog', { name: 'Ny artikel' });
  await form.getByRole('textbox', { name: 'Artikelnummer' }).fill(number);
  await form.getByRole('textbox', { name: 'Benämning' }).fill(`Målning ${id}`);
  await form.getByRole('textbox', { name: 'Pris (SEK)' }).fill('1 234,50');
  await form.getByRole('combobox', { name: 'Enhet' }).selectOption({ label: 'Timme (tim)' });
  await expect(form.getByRole('combobox', { name: 'Moms' }).locator('option:checked')).toHaveText('25 %');
  await expectNoSeriousA11yViolations(page);
  await screenshot(page, testInfo, 'article-form-sv');
  await form.getByRole('button', { name: 'Spara' }).click();
  await expect(form).toBeHidden();

  await searchFor(page, 'Sök artiklar', number, '1–1 av 1');
  const row = page.getByRole('row', { name: new RegExp(`Målning ${id}`) });
  await expect(row.getByRole('cell')).toHaveText([
    number,
    '1 234,50 kr',
    'tim',
    '25 %',
    'Alla kunder',
    /\d/,
    /Redigera/,
  ]);
  await screenshot(page, testInfo, 'articles-sv');

  // Opening it again shows the price as it was typed, and saving it unchanged keeps the öre.
  await page.getByRole('button', { name: `Redigera Målning ${id}` }).click();
  const edit = page.getByRole('dialog', { name: 'Redigera artikel' });
  await expect(edit.getByRole('textbox', { name: 'Pris (SEK)' })).toHaveValue(/^1\s234,50$/);
  await edit.getByRole('button', { name: 'Spara' }).click();
  await expect(edit).toBeHidden();
  await expect(row.getByRole('cell').nth(1)).toHaveText('1 234,50 kr');

  await page.getByRole('button', { name: `Ta bort Målning ${id}` }).click();
  await page
    .getByRole('alertdialog', { name: 'Ta bort artikeln?' })
    .getByRole('button', { name: 'Ta bort' })
    .click();
  await expect(page.getByText(`Målning ${id} har tagits bort.`)).toBeVisible();
});
