import type { Recipient } from '@portal/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { startRealApi } from '../../../test/real-api';
import { renderWithProviders } from '../../../test/render';
import { RecipientFormModal } from './recipient-form-modal';

const SAVED: Recipient = {
  recipientID: '0b7f2f5e-4d1c-4c55-9a55-2f0b1f7f1a01',
  name: 'Kund AB',
  address: '',
  address2: '',
  zipcode: '111 22',
  city: 'Stockholm',
  country: 'SE',
  email: 'faktura@kund.se',
  phone: '',
  organizationNumber: '',
  vat: '',
  documentLanguage: 'sv-SE',
  updated: '2026-03-02T10:00:00.000Z',
};

// One real server for the whole file; each test starts from the demo seed (with its company register).
const api = startRealApi();

beforeEach(async () => {
  await api.signIn('demo');
});

function renderForm(recipient: Recipient | null = null) {
  const onSaved = vi.fn();
  const onClose = vi.fn();
  renderWithProviders(<RecipientFormModal recipient={recipient} onClose={onClose} onSaved={onSaved} />);
  return { onSaved, onClose, user: userEvent.setup() };
}

const field = (name: string) => screen.getByRole('textbox', { name });

/** Types what a new recipient needs: its name and email, and a Stockholm address. */
async function fillRequired(user: ReturnType<typeof userEvent.setup>, name: string, email: string) {
  await user.type(field('Name'), name);
  await user.type(field('Email address'), email);
  await user.type(field('ZIP code'), '111 22');
  await user.type(field('City'), 'Stockholm');
}

async function save(user: ReturnType<typeof userEvent.setup>) {
  await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save' }));
}

/** Opens the form for a new recipient, types what it needs and `value` in the field `label`, and saves. */
async function saveNew(name: string, email: string, label: string, value: string) {
  const { user, onSaved } = renderForm();
  await fillRequired(user, name, email);
  await user.type(field(label), value);
  await save(user);
  return onSaved;
}

describe('RecipientFormModal (spec §5 recipient rules)', () => {
  it('shows the contract rules on the fields and calls nothing', async () => {
    const { user } = renderForm();
    await user.type(field('Email address'), 'not-an-email');
    await user.type(field('Organization number'), '123');
    await user.type(field('VAT number'), 'X');
    await save(user);

    expect(await screen.findByText('Enter a valid email address.')).toBeInTheDocument();
    expect(field('Name')).toHaveAccessibleDescription('This field is required.');
    expect(field('ZIP code')).toHaveAccessibleDescription('This field is required.');
    expect(field('City')).toHaveAccessibleDescription('This field is required.');
    expect(field('Organization number')).toHaveAccessibleDescription(
      'Enter a valid organization number or personal identity number.',
    );
    expect(field('VAT number')).toHaveAccessibleDescription('Enter a valid VAT number, e.g. SE556036079301.');
    expect(field('Name')).toBeRequired();
    expect(api.calls).toHaveLength(0);
  });

  it('refuses a name longer than 45 characters', async () => {
    const { user } = renderForm();
    await user.type(field('Name'), 'Å'.repeat(46));
    await save(user);
    expect(await screen.findByText('At most 45 characters.')).toBeInTheDocument();
  });

  it('sends the recipient and reports it saved', async () => {
    const onSaved = await saveNew('Kund AB', 'faktura@kund.se', 'Organization number', '556036-0793');

    await waitFor(() =>
      expect(onSaved).toHaveBeenCalledWith(
        expect.objectContaining({ name: 'Kund AB', organizationNumber: '556036-0793', city: 'Stockholm' }),
        true,
      ),
    );
    const stored = await api.call<{ items: Recipient[]; total: number }>(
      'GET',
      '/api/limited/recipients?search=Kund AB',
    );
    expect(stored.items).toEqual([expect.objectContaining({ name: 'Kund AB', email: 'faktura@kund.se' })]);
    // The body of the contract: the record's fields, without its id and update time.
    const { recipientID: _id, updated: _updated, ...fields } = SAVED;
    expect(api.calls[0]?.body).toEqual({ ...fields, organizationNumber: '556036-0793' });
  });

  it('lets the document language follow the country until one is picked, and saves the pick (issue #11)', async () => {
    const { user, onSaved } = renderForm();
    const language = () => screen.getByRole('combobox', { name: 'Document language' });
    const country = () => screen.getByRole('combobox', { name: 'Country' });
    expect(language()).toHaveValue('sv-SE');
    expect(
      within(language())
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Swedish', 'English', 'Finnish']);
    await user.selectOptions(country(), 'FI');
    expect(language()).toHaveValue('fi-FI');
    await user.selectOptions(country(), 'DE');
    expect(language()).toHaveValue('en-US');
    await user.selectOptions(country(), 'SE');
    expect(language()).toHaveValue('sv-SE');
    // Picked by the user: the country no longer moves it.
    await user.selectOptions(language(), 'en-US');
    await user.selectOptions(country(), 'FI');
    await user.selectOptions(country(), 'SE');
    expect(language()).toHaveValue('en-US');

    await fillRequired(user, 'Språk AB', 'faktura@sprak.se');
    await save(user);
    await waitFor(() =>
      expect(onSaved).toHaveBeenCalledWith(
        expect.objectContaining({ name: 'Språk AB', documentLanguage: 'en-US' }),
        true,
      ),
    );
    expect(api.calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      country: 'SE',
      documentLanguage: 'en-US',
    });
    const stored = await api.call<{ items: Recipient[] }>('GET', '/api/limited/recipients?search=Språk AB');
    expect(stored.items).toEqual([expect.objectContaining({ documentLanguage: 'en-US' })]);
  });

  it('keeps a stored recipient’s document language when its country changes', async () => {
    const { user } = renderForm({ ...SAVED, documentLanguage: 'fi-FI' });
    const language = screen.getByRole('combobox', { name: 'Document language' });
    expect(language).toHaveValue('fi-FI');
    expect(language).toHaveDisplayValue('Finnish');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Country' }), 'DE');
    expect(language).toHaveValue('fi-FI');
  });

  it('puts the server field issues on their fields and keeps what was typed', async () => {
    // The browser checks the same contract first, so the real server never gets an input it would
    // refuse field by field from this form: that answer is faked here, for this one call.
    api.failNext(`PUT /api/limited/recipients/${SAVED.recipientID}`, {
      status: 400,
      body: { code: 'recipient.invalid', issues: [{ path: 'email', code: 'validation.email' }] },
    });
    const { user, onSaved } = renderForm(SAVED);
    expect(screen.getByRole('heading', { name: 'Edit recipient' })).toBeInTheDocument();
    await user.clear(field('City'));
    await user.type(field('City'), 'Göteborg');
    await save(user);

    const alert = await screen.findByText('The recipient could not be saved.');
    expect(alert.closest('[role="alert"]')).toHaveTextContent('Please check the recipient details.');
    expect(field('Email address')).toHaveAccessibleDescription('Enter a valid email address.');
    expect(field('City')).toHaveValue('Göteborg');
    expect(field('Name')).toHaveValue('Kund AB');
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('refuses a number another recipient has, with a link to that recipient (issue #11)', async () => {
    const existing = (
      await api.call<{ items: Recipient[] }>('GET', '/api/limited/recipients?pageSize=1&sort=name')
    ).items[0];
    expect(existing?.organizationNumber).toMatch(/^\d{6}-\d{4}$/);
    const { user, onSaved, onClose } = renderForm();
    await fillRequired(user, 'Dubblett AB', 'faktura@dubblett.se');
    // Written without the hyphen: still the same number.
    await user.type(field('Organization number'), existing?.organizationNumber.replace('-', '') ?? '');
    await save(user);

    const alert = (await screen.findByText('The recipient could not be created.')).closest('[role="alert"]');
    expect(alert).toHaveTextContent(
      `Please check the recipient details. ${existing?.name} already has this organization number. Show ${existing?.name}`,
    );
    expect(field('Organization number')).toHaveAccessibleDescription(
      'Another recipient already has this organization number.',
    );
    const link = screen.getByRole('link', { name: `Show ${existing?.name}` });
    expect(link).toHaveAttribute(
      'href',
      `/recipient?search=${encodeURIComponent(existing?.organizationNumber ?? '')}`,
    );
    expect(onSaved).not.toHaveBeenCalled();
    await user.click(link);
    expect(onClose).toHaveBeenCalled();
  });

  it('refuses what cannot be a phone number before anything is sent', async () => {
    const { user } = renderForm();
    await user.type(field('Phone number'), 'ring me');
    await save(user);
    expect(
      await screen.findByText('Enter a phone number, e.g. 070-123 45 67 or +46 70 123 45 67.'),
    ).toBeInTheDocument();
    expect(field('Phone number')).toHaveValue('ring me');
    expect(api.calls).toHaveLength(0);
  });

  it('sends a Swedish phone number in E.164', async () => {
    const onSaved = await saveNew('Mobil AB', 'faktura@mobil.se', 'Phone number', '070-123 45 67');
    await waitFor(() =>
      expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ phone: '+46701234567' }), true),
    );
    expect(api.calls[0]?.body).toMatchObject({ phone: '+46701234567' });
  });

  it('fills the form from a company found in the register', async () => {
    // The demo company register: Norrbygg HB of Stockholm is the first of its sixty companies.
    const found = await api.call<{
      items: {
        name: string;
        organizationNumber: string;
        vat: string;
        address: string;
        zipcode: string;
        city: string;
      }[];
    }>('GET', '/api/limited/companies?query=Norrbygg%20HB');
    const company = found.items[0];
    expect(company).toMatchObject({ name: 'Norrbygg HB', city: 'Stockholm' });
    const { user } = renderForm();
    // A new recipient starts in the company search; Enter searches and does not save.
    expect(screen.getByRole('searchbox', { name: 'Company name or organization number' })).toHaveFocus();
    await user.keyboard('Norrbygg HB{Enter}');
    await user.click(await screen.findByRole('button', { name: 'Use Norrbygg HB' }));

    expect(api.calls[0]?.query.get('query')).toBe('Norrbygg HB');
    expect(field('Name')).toHaveValue('Norrbygg HB');
    expect(field('Organization number')).toHaveValue(company?.organizationNumber);
    expect(field('VAT number')).toHaveValue(company?.vat);
    expect(field('Address')).toHaveValue(company?.address);
    expect(field('ZIP code')).toHaveValue('114 35');
    expect(field('City')).toHaveValue('Stockholm');
    expect(screen.getByText(/The details of Norrbygg HB have been filled in/)).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it.each([
    ['AB', 'Too many results, restrict your search.'],
    ['Zzyzx', 'No data found.'],
  ])('says so when the company search for %s has too many or no results', async (query, text) => {
    const { user } = renderForm();
    await user.type(screen.getByRole('searchbox', { name: 'Company name or organization number' }), query);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText(text)).toBeInTheDocument();
  });

  it('asks for two characters before it searches the register', async () => {
    const { user } = renderForm();
    await user.type(screen.getByRole('searchbox', { name: 'Company name or organization number' }), 'A');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('At least 2 characters.')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });
});
