import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18next } from '../../../lib/i18n';
import { startRealApi } from '../../../test/real-api';
import { renderWithProviders } from '../../../test/render';
import { BusinessInvoicesPage, type SendSlotProps } from './business-invoices-page';

// The page's fetch goes to the real server (test/real-api.ts), whose Fortnox client reaches the
// Fortnox sandbox over HTTP. The person on Fortnox's approval page uses Node's fetch.
const nodeFetch = globalThis.fetch;

/** Approves on the sandbox's page as a person would; answers the query Fortnox sends the browser back with. */
async function approveAtFortnox(redirectUrl: string): Promise<string> {
  const params = new URL(redirectUrl).searchParams;
  params.set('decision', 'approve');
  const res = await nodeFetch(new URL('/oauth-v1/auth', redirectUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: params.toString(),
  });
  return new URL(String(res.headers.get('location'))).search;
}

/** A stand-in for the route's send slot: names the invoices it was given and confirms with one click. */
function TestSendSlot({ invoices, onSent }: SendSlotProps) {
  return (
    <div role="dialog" aria-label="Send slot">
      <p>{invoices.map((i) => i.invoiceNumber).join(', ')}</p>
      <button
        type="button"
        onClick={() =>
          onSent(
            invoices.map((i) => ({
              invoiceID: i.invoiceID,
              invoiceNumber: i.invoiceNumber,
              ok: true,
              state: 9,
              ocr: i.ocr ?? '',
              code: null,
            })),
          )
        }
      >
        Confirm
      </button>
    </div>
  );
}

describe('the business invoices page', () => {
  const api = startRealApi();
  afterEach(() => act(() => i18next.changeLanguage('en-US')));

  it('explains the inactive integration, connects, lists the invoices and hands the chosen ones to the send slot', async () => {
    await api.signIn('demo');
    const goTo = vi.fn();
    const first = renderWithProviders(
      <BusinessInvoicesPage goTo={goTo} renderSend={(props) => <TestSendSlot {...props} />} />,
      { path: '/invoice/send-business' },
    );
    const inactive = await screen.findByRole('alert');
    expect(inactive).toHaveTextContent(
      "The Fortnox integration is not active: your company's Fortnox is not connected.",
    );
    const user = userEvent.setup();
    await user.click(within(inactive).getByRole('button', { name: 'Connect to Fortnox' }));
    await waitFor(() => expect(goTo).toHaveBeenCalledTimes(1));
    const back = await approveAtFortnox(String(goTo.mock.calls[0]?.[0]));
    first.unmount();

    // Fortnox sent the browser back with code and state.
    renderWithProviders(
      <BusinessInvoicesPage goTo={goTo} renderSend={(props) => <TestSendSlot {...props} />} />,
      {
        path: `/invoice/send-business${back}`,
      },
    );
    expect(await screen.findByText(/Connected to Demo Bygg AB \(556036-0793\)/)).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Unpaid invoices in Fortnox' });
    expect(within(table).getAllByRole('row')).toHaveLength(26);
    expect(screen.getByLabelText('Select invoice 2009')).toBeDisabled();
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    await user.click(screen.getByLabelText('Select invoice 2001'));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Page 2 of 2')).toBeInTheDocument();
    await user.click(await screen.findByLabelText('Select invoice 2036'));
    expect(screen.getByText('Selected: 2')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Preview fees and send' }));
    const slot = await screen.findByRole('dialog', { name: 'Send slot' });
    // In the order of the send list: by invoice date.
    expect(slot).toHaveTextContent('2036, 2001');
    await user.click(within(slot).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(document.body).toHaveTextContent('Invoice 2001 was sent, OCR 20016.'));
    expect(screen.getByText('Selected: 0')).toBeInTheDocument();
  });

  it('says Fortnox refused the access and offers to reconnect, in Swedish', async () => {
    await api.signIn('demo');
    const { redirectUrl } = await api.call<{ redirectUrl: string }>('POST', '/api/limited/fortnox/connect');
    const back = new URLSearchParams(await approveAtFortnox(redirectUrl));
    await api.call('POST', '/api/limited/fortnox/callback', {
      state: back.get('state') ?? '',
      code: back.get('code') ?? '',
    });
    api.server.fortnoxSandbox?.revokeAll();
    await act(() => i18next.changeLanguage('sv-SE'));
    renderWithProviders(<BusinessInvoicesPage renderSend={() => null} />, { path: '/invoice/send-business' });
    const message = await screen.findByText(/Fortnox godtar inte längre vår åtkomst/, {}, { timeout: 5000 });
    expect(message.closest('[role="alert"]')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Anslut till Fortnox igen' })).toBeInTheDocument();
  });
});
