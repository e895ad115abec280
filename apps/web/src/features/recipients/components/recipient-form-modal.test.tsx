import type { Recipient } from '@portal/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { installFakeApi } from '../../../test/fake-api';
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
  updated: '2026-03-02T10:00:00.000Z',
};

function renderForm(recipient: Recipient | null = null) {
  const onSaved = vi.fn();
  const onClose = vi.fn();
  renderWithProviders(<RecipientFormModal recipient={recipient} onClose={onClose} onSaved={onSaved} />);
  return { onSaved, onClose, user: userEvent.setup() };
}

const field = (name: string) => screen.getByRole('textbox', { name });

async function save(user: ReturnType<typeof userEvent.setup>) {
  await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save' }));
}

describe('RecipientFormModal (spec §5 recipient rules)', () => {
  it('shows the contract rules on the fields and calls nothing', async () => {
    const api = installFakeApi({});
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
    installFakeApi({});
    const { user } = renderForm();
    await user.type(field('Name'), 'Å'.repeat(46));
    await save(user);
    expect(await screen.findByText('At most 45 characters.')).toBeInTheDocument();
  });

  it('sends the recipient and reports it saved', async () => {
    const api = installFakeApi({
      'POST /api/limited/recipients': () => ({ status: 200, body: SAVED }),
    });
    const { user, onSaved } = renderForm();
    await user.type(field('Name'), 'Kund AB');
    await user.type(field('Email address'), 'faktura@kund.se');
    await user.type(field('ZIP code'), '111 22');
    await user.type(field('City'), 'Stockholm');
    await user.type(field('Organization number'), '556036-0793');
    await save(user);

    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(SAVED, true));
    expect(api.calls[0]?.body).toEqual({
      name: 'Kund AB',
      address: '',
      address2: '',
      zipcode: '111 22',
      city: 'Stockholm',
      country: 'SE',
      email: 'faktura@kund.se',
      phone: '',
      organizationNumber: '556036-0793',
      vat: '',
    });
  });

  it('puts the server field issues on their fields and keeps what was typed', async () => {
    installFakeApi({
      'PUT /api/limited/recipients/0b7f2f5e-4d1c-4c55-9a55-2f0b1f7f1a01': () => ({
        status: 400,
        body: { code: 'recipient.invalid', issues: [{ path: 'email', code: 'validation.email' }] },
      }),
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

  it('fills the form from a company found in the register', async () => {
    const api = installFakeApi({
      'GET /api/limited/companies': () => ({
        status: 200,
        body: {
          items: [
            {
              organizationNumber: '556036-0793',
              name: 'Sökbar Bygg AB',
              address: 'Byggvägen 3',
              zipcode: '411 01',
              city: 'Göteborg',
              country: 'SE',
              vat: 'SE556036079301',
            },
          ],
        },
      }),
    });
    const { user } = renderForm();
    // A new recipient starts in the company search; Enter searches and does not save.
    expect(screen.getByRole('searchbox', { name: 'Company name or organization number' })).toHaveFocus();
    await user.keyboard('Sökbar{Enter}');
    await user.click(await screen.findByRole('button', { name: 'Use Sökbar Bygg AB' }));

    expect(api.calls[0]?.query.get('query')).toBe('Sökbar');
    expect(field('Name')).toHaveValue('Sökbar Bygg AB');
    expect(field('Organization number')).toHaveValue('556036-0793');
    expect(field('VAT number')).toHaveValue('SE556036079301');
    expect(field('Address')).toHaveValue('Byggvägen 3');
    expect(field('ZIP code')).toHaveValue('411 01');
    expect(field('City')).toHaveValue('Göteborg');
    expect(screen.getByText(/The details of Sökbar Bygg AB have been filled in/)).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it.each([
    [422, { code: 'company.too_many_results' }, 'Too many results, restrict your search.'],
    [200, { items: [] }, 'No data found.'],
  ])('says so when the company search answers %s', async (status, body, text) => {
    installFakeApi({ 'GET /api/limited/companies': () => ({ status, body }) });
    const { user } = renderForm();
    await user.type(screen.getByRole('searchbox', { name: 'Company name or organization number' }), 'AB');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText(text)).toBeInTheDocument();
  });

  it('asks for two characters before it searches the register', async () => {
    const api = installFakeApi({});
    const { user } = renderForm();
    await user.type(screen.getByRole('searchbox', { name: 'Company name or organization number' }), 'A');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('At least 2 characters.')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });
});
