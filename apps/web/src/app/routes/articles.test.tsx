import type { Article } from '@portal/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { i18next } from '../../lib/i18n';
import { type FakeRequest, installFakeApi, makeSelf } from '../../test/fake-api';
import { renderWithProviders } from '../../test/render';
import ArticlesRoute from './articles';

const RECIPIENT_ID = '7a0c9c1e-1111-4222-8333-944455556666';

const ARTICLES: Article[] = [
  {
    articleID: '2d3c7a4e-8f1b-4c2d-9e3f-0a1b2c3d4e01',
    articleNumber: 'A-100',
    name: 'Konsulttimme',
    description: '',
    priceMinor: 123_450,
    currency: 'SEK',
    unit: 'h',
    vatBasisPoints: 2500,
    recipientID: RECIPIENT_ID,
    recipientName: 'Kund AB',
    updated: '2026-03-02T10:00:00.000Z',
  },
  {
    articleID: '2d3c7a4e-8f1b-4c2d-9e3f-0a1b2c3d4e02',
    articleNumber: 'B-7',
    name: 'Körning',
    description: '',
    priceMinor: 50,
    currency: 'SEK',
    unit: 'km',
    vatBasisPoints: 600,
    recipientID: null,
    recipientName: null,
    updated: '2026-03-01T10:00:00.000Z',
  },
];

function api(extra: Record<string, (request: FakeRequest) => { status: number; body?: unknown }> = {}) {
  return installFakeApi({
    'GET /api/self': () => ({
      status: 200,
      body: makeSelf({ taxRates: [2500, 1200, 600, 0].map((rateBasisPoints) => ({ rateBasisPoints })) }),
    }),
    'GET /api/limited/articles': (request) => ({
      status: 200,
      body: {
        items: ARTICLES,
        total: ARTICLES.length,
        page: Number(request.query.get('page')),
        pageSize: Number(request.query.get('pageSize')),
      },
    }),
    'GET /api/limited/recipients': () => ({
      status: 200,
      body: {
        items: [
          {
            recipientID: RECIPIENT_ID,
            name: 'Kund AB',
            address: '',
            address2: '',
            zipcode: '111 22',
            city: 'Stockholm',
            country: 'SE',
            email: 'a@kund.se',
            phone: '',
            organizationNumber: '556036-0793',
            vat: '',
            updated: '2026-03-02T10:00:00.000Z',
          },
        ],
        total: 1,
        page: 1,
        pageSize: 8,
      },
    }),
    ...extra,
  });
}

const articleCalls = (calls: FakeRequest[]) =>
  calls.filter((c) => c.method === 'GET' && c.path === '/api/limited/articles');
const lastQuery = (calls: FakeRequest[]) => Object.fromEntries(articleCalls(calls).at(-1)?.query ?? []);

describe('the article list (/articles)', () => {
  it('shows price, unit and VAT in the language and the article currency', async () => {
    api();
    renderWithProviders(<ArticlesRoute />, { path: '/articles' });
    const row = (await screen.findByRole('rowheader', { name: 'Konsulttimme' })).closest('tr') as HTMLElement;
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(0, 5)).toEqual(['A-100', 'SEK\u00a01,234.50', 'h', '25%', 'Kund AB']);
    const second = screen.getByRole('rowheader', { name: 'Körning' }).closest('tr') as HTMLElement;
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
      ).toEqual(['A-100', '1\u00a0234,50\u00a0kr', 'tim', '25\u00a0%', 'Kund AB']),
    );
  });

  it('sorts by price and searches with the right query', async () => {
    const calls = api().calls;
    renderWithProviders(<ArticlesRoute />, { path: '/articles' });
    const user = userEvent.setup();
    await screen.findByRole('rowheader', { name: 'Konsulttimme' });
    expect(lastQuery(calls)).toEqual({ page: '1', pageSize: '25', sort: 'articleNumber', order: 'asc' });
    await user.click(screen.getByRole('button', { name: 'Price' }));
    await waitFor(() => expect(lastQuery(calls)).toMatchObject({ sort: 'priceMinor', order: 'asc' }));
    await user.click(screen.getByRole('button', { name: 'Price' }));
    await waitFor(() => expect(lastQuery(calls)).toMatchObject({ sort: 'priceMinor', order: 'desc' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search articles' }), 'konsult');
    await waitFor(() =>
      expect(lastQuery(calls)).toEqual({
        page: '1',
        pageSize: '25',
        sort: 'priceMinor',
        order: 'desc',
        search: 'konsult',
      }),
    );
  });

  it('creates an article tied to a recipient chosen by searching the recipients', async () => {
    const { calls } = api({
      'POST /api/limited/articles': () => ({ status: 200, body: ARTICLES[0] }),
    });
    renderWithProviders(<ArticlesRoute />, { path: '/articles' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New article' }));
    const dialog = screen.getByRole('dialog', { name: 'New article' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Article number' }), 'A-101');
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Konsulttimme');
    await user.type(within(dialog).getByRole('textbox', { name: 'Price (SEK)' }), '1,234.50');
    const picker = within(dialog).getByRole('combobox', { name: 'Recipient' });
    await user.type(picker, 'Kund');
    await waitFor(() =>
      expect(
        calls.some((c) => c.path === '/api/limited/recipients' && c.query.get('search') === 'Kund'),
      ).toBe(true),
    );
    await user.keyboard('{ArrowDown}');
    expect(
      await within(dialog).findByRole('option', { name: /Kund AB/, selected: true }),
    ).toBeInTheDocument();
    // Enter picks the option; it does not save the form.
    await user.keyboard('{Enter}');
    expect(picker).toHaveValue('Kund AB');
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
      recipientID: RECIPIENT_ID,
    });
  });

  it('deletes an article after the confirmation', async () => {
    const { calls } = api({
      'DELETE /api/limited/articles/2d3c7a4e-8f1b-4c2d-9e3f-0a1b2c3d4e02': () => ({
        status: 200,
        body: { ok: true },
      }),
    });
    renderWithProviders(<ArticlesRoute />, { path: '/articles' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete Körning' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete article?' });
    expect(dialog).toHaveTextContent('Article B-7, Körning, will be deleted.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Körning has been deleted.'));
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });
});
