import type { FeesPreviewResponse, InvoiceDetail, PendingInvoice, Recipient } from '@portal/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../../lib/money';
import { startSignedInApi } from '../../../test/real-api';
import { renderWithProviders } from '../../../test/render';
import { SendInvoicesPage } from './send-invoices-page';

const money = (minor: number, currency: string) => formatMoney(minor, currency, 'en-US').replace(/\s+/g, ' ');

const SEND = '/api/limited/invoices/send';

describe('the send confirmation (issue #11)', () => {
  const api = startSignedInApi();

  async function pending(): Promise<PendingInvoice[]> {
    return (await api.call<{ items: PendingInvoice[] }>('GET', '/api/limited/invoices/pending')).items;
  }

  /** A financed SEK invoice of the demo due on `dueDate` (the test server's today is 2026-03-02). */
  async function invoiceBody(invoiceNumber: string, dueDate: string) {
    const recipients = await api.call<{ items: Recipient[] }>('GET', '/api/limited/recipients');
    const recipient = recipients.items[0];
    if (!recipient) throw new Error('the demo has recipients');
    return {
      invoiceNumber,
      recipientID: recipient.recipientID,
      service: 'factoring',
      currency: 'SEK',
      invoiceDate: '2026-02-20',
      dueDate,
      rows: [
        { name: 'Arbete', quantityMilli: 2000, unit: 'h', unitPriceMinor: 65_050, vatBasisPoints: 2500 },
      ],
    };
  }

  async function register(invoiceNumber: string, dueDate: string): Promise<InvoiceDetail> {
    return api.call<InvoiceDetail>(
      'POST',
      '/api/limited/invoices',
      await invoiceBody(invoiceNumber, dueDate),
    );
  }

  const sendCalls = () => api.calls.filter((c) => c.method === 'POST' && c.path === SEND);

  it('lists the invoices with their total, fees and payout; cancel sends nothing, confirm sends them', async () => {
    // Two financed SEK invoices that may be sent today, beside the demo's own pending ones.
    await register('CONF-1', '2026-04-01');
    await register('CONF-2', '2026-04-15');
    const [a, b] = (await pending()).filter((i) => i.invoiceNumber.startsWith('CONF-')) as [
      PendingInvoice,
      PendingInvoice,
    ];
    expect([a, b].map((i) => [i.invoiceNumber, i.sendCode])).toEqual([
      ['CONF-1', null],
      ['CONF-2', null],
    ]);
    const fees = await api.call<FeesPreviewResponse>('POST', '/api/limited/invoices/fees-preview', {
      invoiceIDs: [a.invoiceID, b.invoiceID],
    });
    const sek = fees.totals.find((x) => x.currency === 'SEK');
    if (!sek) throw new Error('no SEK total');
    expect(sek.feeMinor).toBeGreaterThan(0);
    expect(sek.netMinor).toBe(sek.grossMinor - sek.feeMinor);

    renderWithProviders(<SendInvoicesPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText(`Select invoice ${a.invoiceNumber}`));
    await user.click(screen.getByLabelText(`Select invoice ${b.invoiceNumber}`));
    await user.click(screen.getByRole('button', { name: 'Send selected' }));

    let dialog = await screen.findByRole('dialog', { name: 'Send invoices?' });
    expect(dialog).toHaveAccessibleDescription(
      'Check the invoices, the fees and the payout. Nothing is sent until you confirm.',
    );
    const list = within(within(dialog).getByRole('table', { name: 'Invoices to send' }));
    for (const invoice of [a, b]) {
      expect(list.getByRole('row', { name: new RegExp(`^${invoice.invoiceNumber} `) })).toHaveTextContent(
        `${invoice.recipientName}`,
      );
      expect(list.getByRole('row', { name: new RegExp(`^${invoice.invoiceNumber} `) })).toHaveTextContent(
        money(invoice.grossMinor, 'SEK'),
      );
    }
    expect(
      within(within(dialog).getByRole('table', { name: 'Total per currency' })).getByRole('row', {
        name: /^SEK/,
      }),
    ).toHaveTextContent(`SEK2${money(a.grossMinor + b.grossMinor, 'SEK')}`);
    const feeTable = within(dialog).getByRole('table', { name: 'Fees and payout' });
    await waitFor(() =>
      expect(within(feeTable).getByRole('row', { name: /^SEK/ })).toHaveTextContent(
        `SEK${money(sek.grossMinor, 'SEK')}${money(sek.feeMinor, 'SEK')}${money(sek.netMinor, 'SEK')}`,
      ),
    );

    // Cancel: the dialog closes and nothing goes to the server; the selection stays.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(sendCalls()).toHaveLength(0);
    expect(screen.getByText('Selected invoices: 2')).toBeInTheDocument();
    expect((await pending()).map((i) => i.invoiceID)).toEqual(
      expect.arrayContaining([a.invoiceID, b.invoiceID]),
    );

    // Escape closes it as well, sending nothing.
    await user.click(screen.getByRole('button', { name: 'Send selected' }));
    await screen.findByRole('dialog', { name: 'Send invoices?' });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(sendCalls()).toHaveLength(0);

    // Confirm: one send of both, then the results.
    await user.click(screen.getByRole('button', { name: 'Send selected' }));
    dialog = await screen.findByRole('dialog', { name: 'Send invoices?' });
    const confirm = within(dialog).getByRole('button', { name: 'Send 2 invoices' });
    await waitFor(() => expect(confirm).toBeEnabled());
    await user.click(confirm);
    await screen.findByRole('heading', { name: 'Result' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(sendCalls()).toHaveLength(1);
    expect(sendCalls()[0]?.body).toEqual({ invoiceIDs: [a.invoiceID, b.invoiceID] });
    const left = (await pending()).map((i) => i.invoiceID);
    expect(left).not.toContain(a.invoiceID);
    expect(left).not.toContain(b.invoiceID);
  });

  it('flags an invoice due too soon in the list and the dialog, where Send stays disabled', async () => {
    const soon = await register('SOON-77', '2026-03-06');
    const passed = await register('PAST-77', '2026-03-01');
    const fine = await register('FINE-77', '2026-04-01');
    renderWithProviders(<SendInvoicesPage />);
    const user = userEvent.setup();
    const row = (n: string) => screen.getByRole('row', { name: new RegExp(`Select invoice ${n}`) });
    await screen.findByLabelText('Select invoice SOON-77');
    expect(row('SOON-77')).toHaveTextContent('Due in less than 10 days');
    expect(row('PAST-77')).toHaveTextContent('Due date has passed');
    expect(row('FINE-77')).not.toHaveTextContent(/Due in less than|Due date has passed/);

    await user.click(screen.getByLabelText('Select invoice SOON-77'));
    await user.click(screen.getByLabelText('Select invoice FINE-77'));
    await user.click(screen.getByRole('button', { name: 'Send selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send invoices?' });
    expect(within(dialog).getByRole('row', { name: /^SOON-77 / })).toHaveTextContent(
      'Due in less than 10 days',
    );
    expect(dialog).toHaveTextContent(
      'Invoices we finance must be due at least 10 days after they are sent. Clear the flagged invoices from the selection to send the others.',
    );
    // Even once the fees are in, Send stays disabled.
    await waitFor(() =>
      expect(within(dialog).getByRole('table', { name: 'Fees and payout' })).toHaveAttribute(
        'aria-busy',
        'false',
      ),
    );
    expect(within(dialog).getByRole('button', { name: 'Send 2 invoices' })).toBeDisabled();
    expect(sendCalls()).toHaveLength(0);
    expect(
      (await pending()).filter((i) =>
        [soon.invoiceID, passed.invoiceID, fine.invoiceID].includes(i.invoiceID),
      ),
    ).toHaveLength(3);
  });

  it("shows the server's refusal in the dialog when a due date changed meanwhile, and nothing is sent", async () => {
    const first = await register('RACE-1', '2026-04-01');
    const second = await register('RACE-2', '2026-04-01');
    renderWithProviders(<SendInvoicesPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('Select invoice RACE-1'));
    await user.click(screen.getByLabelText('Select invoice RACE-2'));
    await user.click(screen.getByRole('button', { name: 'Send selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send invoices?' });
    // Someone moves the second invoice's due date closer while the dialog is open.
    await api.call(
      'PUT',
      `/api/limited/invoices/${second.invoiceID}`,
      await invoiceBody('RACE-2', '2026-03-04'),
    );
    const confirm = within(dialog).getByRole('button', { name: 'Send 2 invoices' });
    await waitFor(() => expect(confirm).toBeEnabled());
    await user.click(confirm);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Nothing was sent: invoice RACE-2 is due in less than 10 days.',
    );
    expect(sendCalls()).toHaveLength(1);
    // All or nothing: the first is still pending as well, and the list now flags the second.
    const left = await pending();
    expect(left.find((i) => i.invoiceID === first.invoiceID)?.sendCode).toBeNull();
    expect(left.find((i) => i.invoiceID === second.invoiceID)?.sendCode).toBe('invoices.due_date_too_soon');
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Send 2 invoices' })).toBeDisabled(),
    );
    expect(within(dialog).getByRole('row', { name: /^RACE-2 / })).toHaveTextContent(
      'Due in less than 10 days',
    );
  });
});
