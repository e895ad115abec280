import type { InvoiceSummary, PendingInvoice } from '@portal/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { totalsByCurrency } from '../../../lib/money';
import { startSignedInApi } from '../../../test/real-api';
import { renderWithProviders } from '../../../test/render';
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
    decision: null,
    rejectionReason: null,
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
  const api = startSignedInApi();

  async function pending(): Promise<InvoiceSummary[]> {
    return (await api.call<{ items: InvoiceSummary[] }>('GET', '/api/limited/invoices/pending')).items;
  }

  it('shows the count and total of the selection per currency', async () => {
    // The demo seed's oldest two unsent invoices, as the page lists them.
    const all = await pending();
    const [a, b] = all;
    if (!a || !b) throw new Error('the demo seed has two unsent invoices');
    renderWithProviders(<SendInvoicesPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText(`Select invoice ${a.invoiceNumber}`));
    await user.click(screen.getByLabelText(`Select invoice ${b.invoiceNumber}`));
    expect(screen.getByText('Selected invoices: 2')).toBeInTheDocument();
    const two = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2 }).format(
      (a.grossMinor + b.grossMinor) / 100,
    );
    expect(
      totalsTable().getByRole('row', { name: new RegExp(`SEK 2 SEK\\s${two.replace('.', '\\.')}`) }),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Select all' }));
    expect(screen.getByText(`Selected invoices: ${all.length}`)).toBeInTheDocument();
    const [sek] = totalsByCurrency(all);
    expect(totalsTable().getByRole('row', { name: new RegExp(`SEK ${all.length} SEK`) })).toHaveTextContent(
      new Intl.NumberFormat('en-US', { minimumFractionDigits: 2 }).format((sek?.grossMinor ?? 0) / 100),
    );
    expect(screen.getByRole('checkbox', { name: 'Select all' })).toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.getByText('Selected invoices: 0')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Selected' })).not.toBeInTheDocument();
  });

  it('marks a rejected invoice Rejected with the reason, and only those (issue #11)', async () => {
    const all = await pending();
    const rejected = all.filter((i) => i.decision === 'rejected');
    const plain = all.find((i) => i.decision === null);
    if (rejected.length === 0 || !plain)
      throw new Error('the demo seed has rejected and new unsent invoices');
    renderWithProviders(<SendInvoicesPage />);
    await screen.findByLabelText(`Select invoice ${plain.invoiceNumber}`);
    for (const invoice of rejected) {
      const row = screen.getByRole('link', { name: invoice.invoiceNumber }).closest('tr') as HTMLElement;
      expect(within(row).getByText('Rejected')).toHaveClass('state-badge--danger');
      expect(within(row).getByText(invoice.rejectionReason ?? '')).toBeInTheDocument();
    }
    const plainRow = screen.getByRole('link', { name: plain.invoiceNumber }).closest('tr') as HTMLElement;
    expect(within(plainRow).queryByText('Rejected')).not.toBeInTheDocument();
  });

  it('refuses to send nothing, then sends with a key and reports each invoice', async () => {
    // Two the due-date rule lets through (sendCode null: see send-confirm-dialog.test.tsx for the others).
    const [first, second] = (await pending()).filter((i) => (i as PendingInvoice).sendCode === null);
    if (!first || !second) throw new Error('the demo seed has two unsent invoices');
    renderWithProviders(<SendInvoicesPage />);
    const user = userEvent.setup();
    await screen.findByLabelText(`Select invoice ${first.invoiceNumber}`);
    await user.click(screen.getByRole('button', { name: 'Send selected' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Select at least one invoice.');
    expect(api.calls.some((c) => c.method === 'POST' && c.path === '/api/limited/invoices/send')).toBe(false);

    await user.click(screen.getByLabelText(`Select invoice ${first.invoiceNumber}`));
    await user.click(screen.getByLabelText(`Select invoice ${second.invoiceNumber}`));
    // Someone else sends the second while the page is open: the server then refuses it for this page.
    await api.call('POST', '/api/limited/invoices/send', { invoiceIDs: [second?.invoiceID] });
    await user.click(screen.getByRole('button', { name: 'Send selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send invoices?' });
    const confirm = within(dialog).getByRole('button', { name: 'Send 2 invoices' });
    await waitFor(() => expect(confirm).toBeEnabled());
    await user.click(confirm);
    const results = await screen.findByRole('heading', { name: 'Result' });
    const list = within(results.parentElement as HTMLElement);
    const sent = await api.call<{ ocr: string; state: number }>(
      'GET',
      `/api/limited/invoices/${first.invoiceID}`,
    );
    expect(sent.ocr).toMatch(/^\d+$/);
    const status = sent.state === 9 ? 'Awaiting credit decision' : 'Queued';
    expect(list.getByText(new RegExp(`Invoice ${first.invoiceNumber}:`)).parentElement).toHaveTextContent(
      `Invoice ${first.invoiceNumber}: sent. Status: ${status}. OCR reference: ${sent.ocr}.`,
    );
    expect(list.getByText(new RegExp(`Invoice ${second.invoiceNumber}:`)).parentElement).toHaveTextContent(
      `Invoice ${second.invoiceNumber}: not sent. That cannot be done to the invoice in its current status.`,
    );
    const post = api.calls.find((c) => c.method === 'POST' && c.path === '/api/limited/invoices/send');
    expect(post?.body).toEqual({ invoiceIDs: [first?.invoiceID, second?.invoiceID] });
    expect(post?.headers['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
    await waitFor(() => expect(screen.getByText('Selected invoices: 0')).toBeInTheDocument());
    expect((await pending()).map((i) => i.invoiceNumber)).not.toContain(first.invoiceNumber);
  });
});
