import { listInvoicesQuerySchema, ROUTES } from '@portal/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import InvoicesRoute from '../../../app/routes/invoices';
import { buildUrl } from '../../../lib/api-client';
import { installFakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { listInvoicesRequestQuery } from '../api/list-invoices';

const ITEM = {
  invoiceID: '7e0c1f5a-0d1e-4a57-9d33-2f0e6f0e9b10',
  invoiceNumber: '10042',
  recipientID: 'r1',
  recipientName: 'Norrbygg AB',
  service: 'factoring',
  state: 2,
  currency: 'SEK',
  invoiceDate: '2026-01-10',
  dueDate: '2026-02-09',
  created: '2026-01-10T10:00:00.000Z',
  ocr: '1000034',
  grossMinor: 1_250_000,
  toPayMinor: 1_250_000,
  remainingMinor: 1_250_000,
  overdue: true,
};

describe('listInvoicesRequestQuery', () => {
  it('turns filter, search, dates, sort and page into the query string, leaving out what is empty', () => {
    const query = listInvoicesQuerySchema.parse({
      filter: 'overdue',
      search: ' Norr ',
      from: '2026-01-01',
      sort: 'grossMinor',
      order: 'desc',
      page: '3',
      pageSize: '50',
    });
    expect(buildUrl(ROUTES.listInvoices.path, listInvoicesRequestQuery(query))).toBe(
      '/api/limited/invoices?filter=overdue&search=Norr&from=2026-01-01&sort=grossMinor&order=desc&page=3&pageSize=50',
    );
    expect(
      buildUrl(ROUTES.listInvoices.path, listInvoicesRequestQuery(listInvoicesQuerySchema.parse({}))),
    ).toBe('/api/limited/invoices?filter=all&sort=invoiceDate&order=asc&page=1&pageSize=25');
  });
});

const invoiceTable = () => within(screen.getByRole('table', { name: 'Invoices' }));

describe('the invoice history (/invoices)', () => {
  function setup(path: string) {
    const api = installFakeApi({
      'GET /api/limited/invoices': () => ({
        status: 200,
        body: {
          items: [ITEM],
          total: 312,
          page: 1,
          pageSize: 25,
          totals: [
            { currency: 'EUR', grossMinor: 9_999, count: 2 },
            { currency: 'SEK', grossMinor: 123_456_789, count: 310 },
          ],
        },
      }),
    });
    renderWithProviders(<InvoicesRoute />, { path });
    const lastQuery = () =>
      api.calls
        .filter((c) => c.path === '/api/limited/invoices')
        .at(-1)
        ?.query.toString();
    return { api, lastQuery };
  }

  it('reads the list state from the URL and asks the server for exactly that', async () => {
    const { lastQuery } = setup(
      '/invoices?filter=overdue&search=Norr&sort=dueDate&order=desc&page=2&to=2026-02-28',
    );
    expect(await screen.findByRole('link', { name: '10042' })).toBeInTheDocument();
    expect(lastQuery()).toBe(
      'filter=overdue&search=Norr&to=2026-02-28&sort=dueDate&order=desc&page=2&pageSize=25',
    );
    expect(screen.getByRole('tab', { name: 'Overdue' })).toHaveAttribute('aria-selected', 'true');
    expect(invoiceTable().getByRole('columnheader', { name: /Due date/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    expect(invoiceTable().getByRole('columnheader', { name: /Amount/ })).toHaveAttribute('aria-sort', 'none');
  });

  it('filters, sorts, searches and pages through new queries', async () => {
    const { lastQuery } = setup('/invoices?page=2');
    const user = userEvent.setup();
    await screen.findByRole('link', { name: '10042' });

    await user.click(screen.getByRole('tab', { name: 'Paid' }));
    await waitFor(() =>
      expect(lastQuery()).toBe('filter=paid&sort=invoiceDate&order=asc&page=1&pageSize=25'),
    );

    await user.click(screen.getByRole('button', { name: /Amount/ }));
    await waitFor(() => expect(lastQuery()).toBe('filter=paid&sort=grossMinor&order=asc&page=1&pageSize=25'));
    expect(invoiceTable().getByRole('columnheader', { name: /Amount/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );

    await user.type(screen.getByRole('searchbox', { name: 'Search' }), '1000034');
    await waitFor(() =>
      expect(lastQuery()).toBe('filter=paid&search=1000034&sort=grossMinor&order=asc&page=1&pageSize=25'),
    );

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(lastQuery()).toContain('page=2'));
  });

  it('shows the summary, the totals per currency, the state badge and the overdue mark', async () => {
    setup('/invoices');
    await screen.findByRole('link', { name: '10042' });
    expect(screen.getByText(/1–25 of 312/)).toBeInTheDocument();
    const totals = screen.getByRole('table', { name: 'All matching invoices' });
    expect(totals).toHaveTextContent(/SEK\s*310\s*SEK\s1,234,567\.89/);
    expect(totals).toHaveTextContent(/EUR\s*2\s*€99\.99/);
    const row = screen.getByRole('row', { name: /10042/ });
    expect(row).toHaveTextContent('Not paid');
    expect(row).toHaveTextContent('Overdue');
    expect(row).toHaveClass('is-overdue');
  });
});
