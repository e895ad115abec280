import type { PaymentsReportResponse } from '@portal/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ReportsPaymentsRoute from '../../../app/routes/reports-payments';
import { toIsoDate } from '../../../lib/format';
import { formatMoney } from '../../../lib/money';
import { dateField, dateValue, typeDate } from '../../../test/date-field';
import { captureDownloads } from '../../../test/downloads';
import { startRealApi } from '../../../test/real-api';
import { renderWithProviders } from '../../../test/render';

// One real server for the file; the demo seed has paid invoices in February 2026 (before its clock's day).
const api = startRealApi();
const FEB = 'from=2026-02-01&to=2026-02-28';

beforeEach(async () => {
  await api.signIn('demo');
});
afterEach(() => vi.unstubAllGlobals());

const reportCalls = () => api.calls.filter((c) => c.path === '/api/limited/reports/payments');

async function shownRows(): Promise<string[][]> {
  const table = await screen.findByRole('table', { name: 'Payments' });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) =>
      within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent ?? ''),
    );
}

describe('the payments report (/reports/payments)', () => {
  it('asks for the current month by default', async () => {
    renderWithProviders(<ReportsPaymentsRoute />, { path: '/reports/payments' });
    await vi.waitFor(() => expect(reportCalls()).toHaveLength(1));
    const now = new Date();
    const query = reportCalls()[0]?.query;
    expect(query?.get('from')).toBe(toIsoDate(new Date(now.getFullYear(), now.getMonth(), 1)));
    expect(query?.get('to')).toBe(toIsoDate(new Date(now.getFullYear(), now.getMonth() + 1, 0)));
    expect(dateValue(dateField('From'))).toBe(query?.get('from'));
  });

  it('shows the server’s payments and totals of the period, pages and filters by invoice number', async () => {
    const expected = await api.call<PaymentsReportResponse>(
      'GET',
      `/api/limited/reports/payments?${FEB}&page=1&pageSize=10`,
    );
    expect(expected.total).toBeGreaterThan(10);
    renderWithProviders(<ReportsPaymentsRoute />, { path: `/reports/payments?${FEB}&pageSize=10` });
    await screen.findByRole('table', { name: 'Payments' });
    const rows = await shownRows();
    expect(rows.map((r) => r[1])).toEqual(expected.items.map((p) => p.invoiceNumber));
    expect(rows[0]?.[5]).toBe(formatMoney(expected.items[0]?.amountMinor ?? -1, 'SEK', 'en-US'));
    const totals = screen.getByRole('list', { name: 'Payments' });
    expect(within(totals).getAllByRole('listitem')).toHaveLength(expected.totals.length);
    for (const total of expected.totals)
      expect(totals).toHaveTextContent(
        `Total ${total.currency}: ${formatMoney(total.amountMinor, total.currency, 'en-US')} (${new Intl.NumberFormat('en-US').format(total.count)})`.replace(
          /\s+/g,
          ' ',
        ),
      );

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /next/i }));
    const second = await api.call<PaymentsReportResponse>(
      'GET',
      `/api/limited/reports/payments?${FEB}&page=2&pageSize=10`,
    );
    await vi.waitFor(async () =>
      expect((await shownRows()).map((r) => r[1])).toEqual(second.items.map((p) => p.invoiceNumber)),
    );

    const wanted = expected.items[3]?.invoiceNumber ?? '';
    await user.type(screen.getByLabelText('Invoice number'), wanted);
    await user.click(screen.getByRole('button', { name: 'Show' }));
    await vi.waitFor(async () => {
      const shown = await shownRows();
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.every((r) => r[1]?.startsWith(wanted))).toBe(true);
    });
    const last = reportCalls().at(-1)?.query;
    expect(last?.get('invoiceNumber')).toBe(wanted);
    expect(last?.get('page')).toBe('1');
  });

  it('filters by recipient', async () => {
    const recipients = await api.call<{ items: { recipientID: string; name: string }[] }>(
      'GET',
      '/api/limited/recipients?sort=name&order=asc&pageSize=100',
    );
    const all = await api.call<PaymentsReportResponse>(
      'GET',
      `/api/limited/reports/payments?${FEB}&pageSize=100`,
    );
    // A recipient whose name no other recipient has (the select shows names only).
    const unique = (n: string) => recipients.items.filter((r) => r.name === n).length === 1;
    const name = all.items.find((p) => unique(p.recipientName))?.recipientName ?? '';
    const recipient = recipients.items.find((r) => r.name === name);
    expect(recipient).toBeDefined();
    renderWithProviders(<ReportsPaymentsRoute />, { path: `/reports/payments?${FEB}` });
    await screen.findByRole('table', { name: 'Payments' });
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('Recipient'), name);
    await user.click(screen.getByRole('button', { name: 'Show' }));
    await vi.waitFor(
      () => expect(reportCalls().at(-1)?.query.get('recipientID')).toBe(recipient?.recipientID),
      { timeout: 5_000 },
    );
    await vi.waitFor(async () => expect((await shownRows()).every((r) => r[2] === name)).toBe(true), {
      timeout: 5_000,
    });
  });

  it('refuses an end before the start without asking the server', async () => {
    renderWithProviders(<ReportsPaymentsRoute />, { path: `/reports/payments?${FEB}` });
    await screen.findByRole('table', { name: 'Payments' });
    const calls = reportCalls().length;
    const user = userEvent.setup();
    await typeDate(user, dateField('To'), '2026-01-15');
    expect(await screen.findByText(/before/i)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show' })).toBeDisabled();
    expect(reportCalls()).toHaveLength(calls);
  });

  it('downloads the period as CSV in the page’s language, with every row of the period', async () => {
    const all = await api.call<PaymentsReportResponse>(
      'GET',
      `/api/limited/reports/payments?${FEB}&pageSize=100`,
    );
    const { saved } = captureDownloads();
    renderWithProviders(<ReportsPaymentsRoute />, { path: `/reports/payments?${FEB}&pageSize=10` });
    await screen.findByRole('table', { name: 'Payments' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Download CSV' }));
    await vi.waitFor(() => expect(saved).toHaveLength(1), { timeout: 10_000 });
    expect(saved[0]?.name).toBe('payments-2026-02-01-2026-02-28.csv');
    const exportCall = api.calls.find((c) => c.path.endsWith('/reports/payments/export'));
    expect(exportCall?.query.get('format')).toBe('csv');
    expect(exportCall?.query.get('language')).toBe('en-US');
    const text = (await (saved[0] as { blob: Blob }).blob.text()).replace(/^\uFEFF/, '');
    const lines = text.split('\r\n').filter((l) => l !== '');
    // English: comma-separated with a decimal point (lib/csv.ts on the server).
    expect(lines[0]?.startsWith('Payment date,Invoice number,Recipient')).toBe(true);
    // Every row of the period, not only the 10 of the page on screen.
    expect(all.total).toBeGreaterThan(10);
    expect(lines.length - 1).toBe(all.total);
  });
});
