import { listInvoicesQuerySchema, ROUTES } from '@portal/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import InvoicesRoute from '../../../app/routes/invoices';
import { buildUrl } from '../../../lib/api-client';
import { type FakeHandler, installFakeApi } from '../../../test/fake-api';
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

describe('choosing invoices for one PDF (/invoices)', () => {
  afterEach(() => vi.unstubAllGlobals());

  const SECOND = {
    ...ITEM,
    invoiceID: '2c9d4e61-8f0a-4b3c-9e1d-7a6b5c4d3e2f',
    invoiceNumber: '10043',
    overdue: false,
  };

  function setup(path: string, pdf: FakeHandler) {
    const api = installFakeApi({
      'GET /api/limited/invoices': () => ({
        status: 200,
        body: { items: [ITEM, SECOND], total: 60, page: 1, pageSize: 25, totals: [] },
      }),
      'POST /api/limited/invoices/pdf': pdf,
    });
    const saved: string[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:test'), revokeObjectURL: vi.fn() }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download);
    });
    renderWithProviders(
      <Routes>
        <Route path="/invoices" element={<InvoicesRoute />} />
        <Route path="/invoices/:id" element={<p>The invoice</p>} />
      </Routes>,
      { path },
    );
    return { api, saved, click };
  }

  const PDF_ANSWER: FakeHandler = () => ({
    status: 200,
    body: '%PDF-1.7',
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition':
        'attachment; filename="fakturor-2026-03-02.pdf"; filename*=UTF-8\'\'fakturor-2026-03-02.pdf',
    },
  });

  it('downloads one PDF of the chosen invoices under the server’s name, in the current language', async () => {
    const { api, saved, click } = setup('/invoices', PDF_ANSWER);
    const user = userEvent.setup();
    await screen.findByRole('link', { name: '10042' });
    const download = screen.getByRole('button', { name: 'Download PDF' });
    expect(download).toBeDisabled();
    expect(screen.getByText('0 invoices selected')).toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Select invoice 10043' }));
    expect(screen.getByText('1 invoice selected')).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /10043/ })).toHaveClass('is-selected');
    // Neither the checkbox nor its cell opens the invoice, as a click elsewhere on the row does.
    const checkCell = screen.getByRole('checkbox', { name: 'Select invoice 10043' }).closest('td');
    await user.click(checkCell as HTMLElement);
    expect(screen.queryByText('The invoice')).not.toBeInTheDocument();
    expect(screen.getByText('1 invoice selected')).toBeInTheDocument();
    const pageBox = screen.getByRole('checkbox', { name: 'Select all invoices on this page' });
    expect(pageBox).toHaveProperty('indeterminate', true);
    await user.click(screen.getByRole('checkbox', { name: 'Select invoice 10042' }));
    expect(pageBox).toBeChecked();
    expect(screen.getByText('2 invoices selected')).toBeInTheDocument();

    await user.click(download);
    await vi.waitFor(() => expect(saved).toEqual(['fakturor-2026-03-02.pdf']));
    const call = api.calls.find((c) => c.method === 'POST' && c.path === '/api/limited/invoices/pdf');
    expect(call?.body).toEqual({ invoiceIDs: [SECOND.invoiceID, ITEM.invoiceID], language: 'en-US' });
    expect(screen.queryByRole('alert')).toBeEmptyDOMElement();
    click.mockRestore();
  });

  it('selects and clears the whole page, keeps the choice across pages and lets it go with a new filter', async () => {
    setup('/invoices', PDF_ANSWER);
    const user = userEvent.setup();
    await screen.findByRole('link', { name: '10042' });
    await user.click(screen.getByRole('checkbox', { name: 'Select all invoices on this page' }));
    expect(screen.getByRole('checkbox', { name: 'Select invoice 10042' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select invoice 10043' })).toBeChecked();
    expect(screen.getByText('2 invoices selected')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('link', { name: '10042' });
    expect(screen.getByText('2 invoices selected')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.getByText('0 invoices selected')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select invoice 10042' }));
    expect(screen.getByText('1 invoice selected')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Paid' }));
    await waitFor(() => expect(screen.getByText('0 invoices selected')).toBeInTheDocument());
    expect(screen.getByRole('checkbox', { name: 'Select invoice 10042' })).not.toBeChecked();
    // Back on the first filter the old choice does not come back.
    await user.click(screen.getByRole('tab', { name: 'All' }));
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: 'All' })).toHaveAttribute('aria-selected', 'true'),
    );
    expect(screen.getByText('0 invoices selected')).toBeInTheDocument();
  });

  it('says the document could not be created when the server fails, and too many records beyond the limit', async () => {
    let answer: FakeAnswerLike = { status: 500, body: { code: 'server.internal' } };
    setup('/invoices', () => answer);
    const user = userEvent.setup();
    await screen.findByRole('link', { name: '10042' });
    await user.click(screen.getByRole('checkbox', { name: 'Select invoice 10042' }));
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect(
      await screen.findByText('Unable to create a document for the selected invoices.'),
    ).toBeInTheDocument();

    answer = { status: 422, body: { code: 'invoices.too_many_records' } };
    await user.click(screen.getByRole('button', { name: 'Download PDF' }));
    expect(
      await screen.findByText('Too many invoices. Choose fewer, for example with a date range.'),
    ).toBeInTheDocument();

    // A changed choice starts without the message.
    await user.click(screen.getByRole('checkbox', { name: 'Select invoice 10043' }));
    expect(screen.queryByText(/Too many invoices/)).not.toBeInTheDocument();
  });
});

type FakeAnswerLike = Awaited<ReturnType<FakeHandler>>;
