import type { Recipient } from '@portal/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { type RealCall, startRealApi } from '../../test/real-api';
import { renderWithProviders } from '../../test/render';
import RecipientRoute from './recipient';

// One real server for the whole file; each test starts from the demo seed (30 recipients of Demo Bygg AB).
const api = startRealApi();

beforeEach(async () => {
  await api.signIn('demo');
});

const listCalls = (calls: RealCall[]) =>
  calls.filter((c) => c.method === 'GET' && c.path === '/api/limited/recipients');
const lastQuery = (calls: RealCall[]) => Object.fromEntries(listCalls(calls).at(-1)?.query ?? []);

async function recipients(query: string) {
  return api.call<{ items: Recipient[]; total: number }>('GET', `/api/limited/recipients?${query}`);
}

describe('the recipient list (/recipient)', () => {
  it('loads the first page sorted by name and says how many there are', async () => {
    renderWithProviders(<RecipientRoute />, { path: '/recipient' });
    expect(await screen.findByText('1–25 of 30')).toBeInTheDocument();
    expect(lastQuery(api.calls)).toEqual({ page: '1', pageSize: '25', sort: 'name', order: 'asc' });
    expect(screen.getAllByRole('row')).toHaveLength(26);
    expect(screen.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'ascending');
  });

  it('sorts by a column header: ascending first, then descending', async () => {
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
    // Descending by city: the server puts Örebro first.
    await waitFor(() => expect(screen.getAllByRole('row')[1]).toHaveTextContent('Örebro'));
  });

  it('searches once the typing stops, from the first page', async () => {
    const berg = await recipients('search=Berg');
    expect(berg.total).toBeGreaterThan(0);
    renderWithProviders(<RecipientRoute />, { path: '/recipient?page=2' });
    expect(await screen.findByText('26–30 of 30')).toBeInTheDocument();
    const before = listCalls(api.calls).length;
    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox', { name: 'Search recipients' }), 'Berg');
    await waitFor(() => expect(lastQuery(api.calls)).toMatchObject({ search: 'Berg', page: '1' }));
    // One call for the whole word, not one per key.
    expect(listCalls(api.calls).length - before).toBe(1);
    expect(await screen.findByText(`1–${berg.total} of ${berg.total}`)).toBeInTheDocument();
  });

  it('pages forward and back and changes the page size', async () => {
    renderWithProviders(<RecipientRoute />, { path: '/recipient' });
    const user = userEvent.setup();
    const pages = await screen.findByRole('navigation', { name: 'Recipient list pages' });
    expect(within(pages).getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(lastQuery(api.calls)).toMatchObject({ page: '2', pageSize: '25' }));
    expect(await screen.findByText('26–30 of 30')).toBeInTheDocument();
    expect(within(pages).getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.selectOptions(within(pages).getByRole('combobox', { name: 'Rows per page' }), '10');
    await waitFor(() => expect(lastQuery(api.calls)).toMatchObject({ page: '1', pageSize: '10' }));
    expect(await screen.findByText('1–10 of 30')).toBeInTheDocument();
  });

  it('says when there are no recipients, and when a search finds none', async () => {
    // The other demo issuer, Annan Firma Oy, has no recipients.
    await api.signIn('demo-other');
    renderWithProviders(<RecipientRoute />, { path: '/recipient' });
    expect(
      await screen.findByText('You have no recipients yet. Add your first one with New recipient.'),
    ).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox', { name: 'Search recipients' }), 'Zz');
    expect(await screen.findByText('No recipients match “Zz”.')).toBeInTheDocument();
  });

  it('explains the refusal to delete a recipient with invoices', async () => {
    const [used] = (await recipients('sort=name&order=asc&page=1&pageSize=1')).items;
    renderWithProviders(<RecipientRoute />, { path: '/recipient' });
    const user = userEvent.setup();
    const [button] = await screen.findAllByRole('button', { name: `Delete ${used?.name}` });
    await user.click(button as HTMLElement);
    const dialog = screen.getByRole('alertdialog', { name: 'Delete recipient?' });
    expect(dialog).toHaveTextContent(`${used?.name} will be deleted. This cannot be undone.`);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(
      await within(dialog).findByText('The recipient is used by articles or invoices and cannot be deleted.'),
    ).toBeInTheDocument();
    expect((await recipients('page=1')).total).toBe(30);
  });

  it('deletes an unused recipient after the confirmation', async () => {
    await api.call('POST', '/api/limited/recipients', {
      name: 'Aaa Oanvänd AB',
      address: 'Storgatan 1',
      zipcode: '111 22',
      city: 'Stockholm',
      email: 'faktura@oanvand.se',
      organizationNumber: '556036-0793',
    });
    renderWithProviders(<RecipientRoute />, { path: '/recipient' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete Aaa Oanvänd AB' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete recipient?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(screen.getByRole('status')).toHaveTextContent('Aaa Oanvänd AB has been deleted.');
    expect((await recipients('search=Oanv')).total).toBe(0);
  });

  it('opens a row in the edit form with its values', async () => {
    const all = (await recipients('sort=name&order=asc&page=1&pageSize=25')).items;
    const unique = all.find((r) => all.filter((o) => o.name === r.name).length === 1) as Recipient;
    renderWithProviders(<RecipientRoute />, { path: '/recipient' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `Edit ${unique.name}` }));
    const dialog = screen.getByRole('dialog', { name: 'Edit recipient' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue(unique.name);
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveFocus();
    expect(within(dialog).getByRole('textbox', { name: 'Email address' })).toHaveValue(unique.email);
  });
});
