import type { FeesPreviewResponse, InvoiceSummary } from '@portal/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatMoney } from '../../../lib/money';
import { startRealApi } from '../../../test/real-api';
import { renderWithProviders } from '../../../test/render';
import { SendInvoicesPage } from './send-invoices-page';

const money = (minor: number, currency: string) => formatMoney(minor, currency, 'en-US').replace(/\s+/g, ' ');

describe('the fee preview on the send page', () => {
  const api = startRealApi();

  beforeEach(async () => {
    await api.signIn('demo');
  });

  it('shows the fees and the payout of the chosen invoices per currency, as the server computes them', async () => {
    const pending = (await api.call<{ items: InvoiceSummary[] }>('GET', '/api/limited/invoices/pending'))
      .items;
    // Two of the demo's unsent financed invoices in SEK.
    const chosen = pending.filter((i) => i.service === 'factoring' && i.currency === 'SEK').slice(0, 2);
    expect(chosen).toHaveLength(2);
    const [a, b] = chosen.map((i) => i.invoiceNumber);
    const expected = await api.call<FeesPreviewResponse>('POST', '/api/limited/invoices/fees-preview', {
      invoiceIDs: chosen.map((i) => i.invoiceID),
    });
    const sek = expected.totals.find((x) => x.currency === 'SEK');
    if (!sek) throw new Error('no SEK total');
    // The demo's factoring fee is not nothing: the preview shows something to check.
    expect(sek.feeMinor).toBeGreaterThan(0);

    renderWithProviders(<SendInvoicesPage />);
    const user = userEvent.setup();
    expect(screen.queryByRole('table', { name: 'Fees and payout' })).not.toBeInTheDocument();
    await user.click(await screen.findByLabelText(`Select invoice ${a}`));
    await user.click(screen.getByLabelText(`Select invoice ${b}`));
    const table = await screen.findByRole('table', { name: 'Fees and payout' });
    await waitFor(() =>
      expect(within(table).getByRole('row', { name: /^SEK/ })).toHaveTextContent(
        `SEK${money(sek.grossMinor, 'SEK')}${money(sek.feeMinor, 'SEK')}${money(sek.netMinor, 'SEK')}`,
      ),
    );
    const call = api.calls.filter((c) => c.path === '/api/limited/invoices/fees-preview').at(-1);
    const body = call?.body as { invoiceIDs: string[] } | undefined;
    expect([...(body?.invoiceIDs ?? [])].sort()).toEqual(chosen.map((i) => i.invoiceID).sort());

    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByRole('table', { name: 'Fees and payout' })).not.toBeInTheDocument();
  });
});
