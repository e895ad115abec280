import type { InvoiceSummary } from '@portal/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { installFakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { totalsByCurrency } from '../utils/money';
import { SendInvoicesPage } from './send-invoices-page';

function summary(n: number, currency: string, grossMinor: number): InvoiceSummary {
  return {
    invoiceID: `00000000-0000-4000-8000-00000000000${n}`,
    invoiceNumber: `700${n}`,
    recipientID: 'r1',
    recipientName: `Kund ${n}`,
    service: 'factoring',
    state: 1,
    currency,
    invoiceDate: '2026-03-02',
    dueDate: '2026-04-01',
    created: '2026-03-02T10:00:00.000Z',
    ocr: null,
    grossMinor,
    toPayMinor: grossMinor,
    remainingMinor: grossMinor,
    overdue: false,
  };
}

const PENDING = [summary(1, 'SEK', 125_050), summary(2, 'SEK', 10_000), summary(3, 'EUR', 9_999)];

function totalsTable() {
  return within(screen.getByRole('table', { name: 'Selected, per currency' }));
}

describe('totalsByCurrency', () => {
  it('counts and adds up per currency in integers', () => {
    expect(totalsByCurrency(PENDING)).toEqual([
      { currency: 'EUR', count: 1, grossMinor: 9_999 },
      { currency: 'SEK', count: 2, grossMinor: 135_050 },
    ]);
    expect(totalsByCurrency([])).toEqual([]);
  });
});

describe('the send page (/invoice/send)', () => {
  it('shows the count and total of the selection per currency', async () => {
    installFakeApi({
      'GET /api/limited/invoices/pending': () => ({ status: 200, body: { items: PENDING } }),
    });
    renderWithProviders(<SendInvoicesPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Select invoice 7001'));
    await user.click(screen.getByLabelText('Select invoice 7003'));
    expect(screen.getByText('Selected invoices: 2')).toBeInTheDocument();
    expect(totalsTable().getByRole('row', { name: /SEK 1 SEK\s1,250\.50/ })).toBeInTheDocument();
    expect(totalsTable().getByRole('row', { name: /EUR 1 €99\.99/ })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Select all' }));
    expect(screen.getByText('Selected invoices: 3')).toBeInTheDocument();
    expect(totalsTable().getByRole('row', { name: /SEK 2 SEK\s1,350\.50/ })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select all' })).toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.getByText('Selected invoices: 0')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Selected' })).not.toBeInTheDocument();
  });

  it('refuses to send nothing, then sends with a key and reports each invoice', async () => {
    const api = installFakeApi({
      'GET /api/limited/invoices/pending': () => ({ status: 200, body: { items: PENDING } }),
      'POST /api/limited/invoices/send': () => ({
        status: 200,
        body: {
          results: [
            {
              invoiceID: PENDING[0]?.invoiceID,
              invoiceNumber: '7001',
              ok: true,
              state: 9,
              ocr: '1000018',
              code: null,
            },
            {
              invoiceID: PENDING[1]?.invoiceID,
              invoiceNumber: '7002',
              ok: false,
              state: 4,
              ocr: null,
              code: 'invoices.invalid_transition',
            },
          ],
        },
      }),
    });
    renderWithProviders(<SendInvoicesPage />);
    const user = userEvent.setup();
    await screen.findByLabelText('Select invoice 7001');
    await user.click(screen.getByRole('button', { name: 'Send selected' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Select at least one invoice.');
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);

    await user.click(screen.getByLabelText('Select invoice 7001'));
    await user.click(screen.getByLabelText('Select invoice 7002'));
    await user.click(screen.getByRole('button', { name: 'Send selected' }));
    const results = await screen.findByRole('heading', { name: 'Result' });
    const list = within(results.parentElement as HTMLElement);
    expect(list.getByText(/Invoice 7001:/).parentElement).toHaveTextContent(
      'Invoice 7001: sent. Status: Awaiting credit decision. OCR reference: 1000018.',
    );
    expect(list.getByText(/Invoice 7002:/).parentElement).toHaveTextContent(
      'Invoice 7002: not sent. That cannot be done to the invoice in its current status.',
    );
    const post = api.calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({ invoiceIDs: [PENDING[0]?.invoiceID, PENDING[1]?.invoiceID] });
    expect(post?.headers['Idempotency-Key']).toMatch(/^[0-9a-f]{32}$/);
    await waitFor(() => expect(screen.getByText('Selected invoices: 0')).toBeInTheDocument());
  });
});
