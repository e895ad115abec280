import type { Recipient } from '@portal/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type FakeRequest, installFakeApi } from '../../test/fake-api';
import { renderWithProviders } from '../../test/render';
import RecipientRoute from './recipient';

function recipient(i: number): Recipient {
  return {
    recipientID: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    name: `Kund ${i} AB`,
    address: 'Gatan 1',
    address2: '',
    zipcode: '111 22',
    city: i % 2 === 0 ? 'Stockholm' : 'Malmö',
    country: 'SE',
    email: `kund${i}@example.com`,
    phone: '',
    organizationNumber: '',
    vat: '',
    updated: '2026-03-02T10:00:00.000Z',
  };
}

/** A list endpoint over `total` recipients that answers the page asked for. */
function listOf(total: number) {
  const all = Array.from({ length: total }, (_, i) => recipient(i + 1));
  return (request: FakeRequest) => {
    const page = Number(request.query.get('page') ?? 1);
    const pageSize = Number(request.query.get('pageSize') ?? 25);
    const search = request.query.get('search') ?? '';
    const matching = all.filter((r) => r.name.includes(search));
    return {
      status: 200,
      body: {
        items: matching.slice((page - 1) * pageSize, page * pageSize),
        total: matching.length,
        page,
        pageSize,
      },
    };
  };
}

const listCalls = (calls: FakeRequest[]) =>
  calls.filter((c) => c.method === 'GET' && c.path === '/api/limited/recipients');
const lastQuery = (calls: FakeRequest[]) => Object.fromEntries(listCalls(calls).at(-1)?.query ?? []);

describe('the recipient list (/recipient)', () => {
  it('loads the first page sorted by name and says how many there are', async () => {
    const api = installFakeApi({ 'GET /api/limited/recipients': listOf(132) });
    renderWithProviders(<RecipientRoute />, { path: '/recipient' });
    expect(await screen.findByText('1–25 of 132')).toBeInTheDocument();
    expect(lastQuery(api.calls)).toEqual({ page: '1', pageSize: '25', sort: 'name', order: 'asc' });
    expect(screen.getAllByRole('row')).toHaveLength(26);
    expect(screen.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'ascending');
  });

  it('sorts by a column header: ascending first, then descending', async () => {
    const api = installFakeApi({ 'GET /api/limited/recipients': listOf(3) });
    renderWithProviders(<RecipientRoute />, { path: '/recipient' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'City' }));
    await waitFor(() =>
      expect(lastQuery(api.calls)).toMatchObject({ sort: 'city', order: 'asc', page: '1' }),
    );
    expect(screen.getByRole('columnheader', { name: 'City' })).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'none');
    await user.click(screen.getByRole('button', { name: 'City' }));
    await waitFor(() => expect(lastQuery(api.calls)).toMatchObject({ sort: 'city', order: 'desc' }));
    expect(screen.getByRole('columnheader', { name: 'City' })).toHaveAttribute('aria-sort', 'descending');
  });

  it('searches once the typing stops, from the first page', async () => {
    const api = installFakeApi({ 'GET /api/limited/recipients': listOf(60) });
    renderWithProviders(<RecipientRoute />, { path: '/recipient?page=2' });
    expect(await screen.findByText('26–50 of 60')).toBeInTheDocument();
    const before = listCalls(api.calls).length;
    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox', { name: 'Search recipients' }), 'Kund 5');
    await waitFor(() => expect(lastQuery(api.calls)).toMatchObject({ search: 'Kund 5', page: '1' }));
    // One call for the whole word, not one per key.
    expect(listCalls(api.calls).length - before).toBe(1);
    expect(await screen.findByText('1–11 of 11')).toBeInTheDocument();
  });

  it('pages forward and back and changes the page size', async () => {
    const api = installFakeApi({ 'GET /api/limited/recipients': listOf(60) });
    renderWithProviders(<RecipientRoute />, { path: '/recipient' });
    const user = userEvent.setup();
    const pages = await screen.findByRole('navigation', { name: 'Recipient list pages' });
    expect(within(pages).getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(lastQuery(api.calls)).toMatchObject({ page: '2', pageSize: '25' }));
    expect(await screen.findByText('26–50 of 60')).toBeInTheDocument();
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('51–60 of 60')).toBeInTheDocument();
    expect(within(pages).getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.selectOptions(within(pages).getByRole('combobox', { name: 'Rows per page' }), '10');
    await waitFor(() => expect(lastQuery(api.calls)).toMatchObject({ page: '1', pageSize: '10' }));
    expect(await screen.findByText('1–10 of 60')).toBeInTheDocument();
  });

  it('says when there are no recipients, and when a search finds none', async () => {
    installFakeApi({ 'GET /api/limited/recipients': listOf(0) });
    renderWithProviders(<RecipientRoute />, { path: '/recipient' });
    expect(
      await screen.findByText('You have no recipients yet. Add your first one with New recipient.'),
    ).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox', { name: 'Search recipients' }), 'Zz');
    expect(await screen.findByText('No recipients match “Zz”.')).toBeInTheDocument();
  });

  it('deletes after the confirmation, and explains a refusal', async () => {
    let inUse = true;
    const api = installFakeApi({
      'GET /api/limited/recipients': listOf(2),
      'DELETE /api/limited/recipients/00000000-0000-4000-8000-000000000001': () =>
        inUse ? { status: 409, body: { code: 'recipient.in_use' } } : { status: 200, body: { ok: true } },
    });
    renderWithProviders(<RecipientRoute />, { path: '/recipient' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete Kund 1 AB' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete recipient?' });
    expect(dialog).toHaveTextContent('Kund 1 AB will be deleted. This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(
      await within(dialog).findByText('The recipient is used by articles or invoices and cannot be deleted.'),
    ).toBeInTheDocument();

    inUse = false;
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(screen.getByRole('status')).toHaveTextContent('Kund 1 AB has been deleted.');
    expect(api.calls.filter((c) => c.method === 'DELETE')).toHaveLength(2);
  });

  it('opens a row in the edit form with its values', async () => {
    installFakeApi({ 'GET /api/limited/recipients': listOf(2) });
    renderWithProviders(<RecipientRoute />, { path: '/recipient' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Kund 2 AB' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit recipient' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Kund 2 AB');
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveFocus();
    expect(within(dialog).getByRole('textbox', { name: 'Email address' })).toHaveValue('kund2@example.com');
  });
});
