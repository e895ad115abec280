import type { Article, Recipient } from '@portal/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { i18next } from '../../lib/i18n';
import { type RealCall, startRealApi } from '../../test/real-api';
import { renderWithProviders } from '../../test/render';
import ArticlesRoute from './articles';

// One real server for the whole file; each test starts from the demo seed (20 articles of Demo Bygg AB).
const api = startRealApi();

beforeEach(async () => {
  await api.signIn('demo');
});

/** A demo recipient whose name no other one has, so the page's labels find exactly it. */
async function uniqueRecipient(): Promise<Recipient> {
  const all = (
    await api.call<{ items: Recipient[] }>('GET', '/api/limited/recipients?sort=name&order=asc&pageSize=100')
  ).items;
  return all.find((r) => all.filter((o) => o.name === r.name).length === 1) as Recipient;
}

const articleCalls = (calls: RealCall[]) =>
  calls.filter((c) => c.method === 'GET' && c.path === '/api/limited/articles');
const lastQuery = (calls: RealCall[]) => Object.fromEntries(articleCalls(calls).at(-1)?.query ?? []);

describe('the article list (/articles)', () => {
  it('shows price, unit and VAT in the language and the article currency', async () => {
    const recipient = await uniqueRecipient();
    await api.call('POST', '/api/limited/articles', {
      articleNumber: 'A-100',
      name: 'Konsulttimme',
      priceMinor: 123_450,
      unit: 'h',
      vatBasisPoints: 2500,
      recipientID: recipient.recipientID,
    });
    renderWithProviders(<ArticlesRoute />, { path: '/articles' });
    const row = (await screen.findByRole('rowheader', { name: 'Konsulttimme' })).closest('tr') as HTMLElement;
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(0, 5)).toEqual(['A-100', 'SEK\u00a01,234.50', 'h', '25%', recipient.name]);
    const second = screen.getByRole('rowheader', { name: 'Facklitteratur' }).closest('tr') as HTMLElement;
    expect(
      within(second)
        .getAllByRole('cell')
        .map((c) => c.textContent)
        .slice(0, 4),
    ).toEqual(['LIT-01', 'SEK\u00a0399.00', 'pcs', '6%']);
    expect(
      within(second)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toContain('All recipients');

    await i18next.changeLanguage('sv-SE');
    await waitFor(() =>
      expect(
        within(row)
          .getAllByRole('cell')
          .map((c) => c.textContent)
          .slice(0, 5),
      ).toEqual(['A-100', '1\u00a0234,50\u00a0kr', 'tim', '25\u00a0%', recipient.name]),
    );
  });

  it('sorts by price and searches with the right query', async () => {
    const calls = api.calls;
    renderWithProviders(<ArticlesRoute />, { path: '/articles' });
    const user = userEvent.setup();
    await screen.findByRole('rowheader', { name: 'Arbetstimme snickare' });
    expect(lastQuery(calls)).toEqual({ page: '1', pageSize: '25', sort: 'articleNumber', order: 'asc' });
    await user.click(screen.getByRole('button', { name: 'Price' }));
    await waitFor(() => expect(lastQuery(calls)).toMatchObject({ sort: 'priceMinor', order: 'asc' }));
    await user.click(screen.getByRole('button', { name: 'Price' }));
    await waitFor(() => expect(lastQuery(calls)).toMatchObject({ sort: 'priceMinor', order: 'desc' }));
    // The dearest demo article first: scaffolding by the week.
    await waitFor(() => expect(screen.getAllByRole('rowheader')[0]).toHaveTextContent('Ställning per vecka'));
    await user.type(screen.getByRole('searchbox', { name: 'Search articles' }), 'arbetstimme');
    await waitFor(() =>
      expect(lastQuery(calls)).toEqual({
        page: '1',
        pageSize: '25',
        sort: 'priceMinor',
        order: 'desc',
        search: 'arbetstimme',
      }),
    );
    await waitFor(() => expect(screen.getAllByRole('rowheader')).toHaveLength(4));
  });

  it('creates an article tied to a recipient chosen by searching the recipients', async () => {
    const recipient = await uniqueRecipient();
    const calls = api.calls;
    renderWithProviders(<ArticlesRoute />, { path: '/articles' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New article' }));
    const dialog = screen.getByRole('dialog', { name: 'New article' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Article number' }), 'A-101');
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Konsulttimme');
    await user.type(within(dialog).getByRole('textbox', { name: 'Price (SEK)' }), '1,234.50');
    const picker = within(dialog).getByRole('combobox', { name: 'Recipient' });
    await user.type(picker, recipient.name);
    await waitFor(() =>
      expect(
        calls.some((c) => c.path === '/api/limited/recipients' && c.query.get('search') === recipient.name),
      ).toBe(true),
    );
    await within(dialog).findByRole('option', { name: new RegExp(recipient.name) });
    await user.keyboard('{ArrowDown}');
    expect(
      await within(dialog).findByRole('option', { name: new RegExp(recipient.name), selected: true }),
    ).toBeInTheDocument();
    // Enter picks the option; it does not save the form.
    await user.keyboard('{Enter}');
    expect(picker).toHaveValue(recipient.name);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Konsulttimme has been added.'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      articleNumber: 'A-101',
      name: 'Konsulttimme',
      description: '',
      priceMinor: 123_450,
      unit: 'st',
      vatBasisPoints: 2500,
      recipientID: recipient.recipientID,
    });
    const stored = await api.call<{ items: Article[] }>('GET', '/api/limited/articles?search=A-101');
    expect(stored.items).toEqual([
      expect.objectContaining({ name: 'Konsulttimme', priceMinor: 123_450, recipientName: recipient.name }),
    ]);
  });

  it('deletes an article after the confirmation', async () => {
    renderWithProviders(<ArticlesRoute />, { path: '/articles' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete Facklitteratur' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete article?' });
    expect(dialog).toHaveTextContent('Article LIT-01, Facklitteratur, will be deleted.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('Facklitteratur has been deleted.'),
    );
    expect(api.calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
    expect((await api.call<{ total: number }>('GET', '/api/limited/articles')).total).toBe(19);
  });
});
