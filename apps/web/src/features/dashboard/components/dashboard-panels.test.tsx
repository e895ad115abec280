import type { DashboardResponse, listInvoicesResponseSchema } from '@portal/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import InvoicesRoute from '../../../app/routes/invoices';
import { formatMoney } from '../../../lib/money';
import { startRealApi } from '../../../test/real-api';
import { renderWithProviders } from '../../../test/render';
import { DashboardPanels } from './dashboard-panels';

// One real server for the whole file; each test starts from the demo seed.
const api = startRealApi();

function renderDashboard() {
  renderWithProviders(
    <Routes>
      <Route path="/" element={<DashboardPanels />} />
      <Route path="/invoices" element={<InvoicesRoute />} />
    </Routes>,
  );
}

describe('the dashboard (/)', () => {
  beforeEach(async () => {
    await api.signIn('demo');
  });

  it('shows the figures of the issuer: top customers, both charts and the overdue buckets', async () => {
    renderDashboard();
    const bucketList = await screen.findByRole('list');
    const data = await api.call<DashboardResponse>('GET', '/api/limited/dashboard');
    const money = (minor: number) => formatMoney(minor, data.currency, 'en-US');
    expect(screen.getByRole('heading', { name: `Overview (${data.currency})` })).toBeTruthy();
    // The seed has sent invoices, overdue ones among them: the page is not the empty one.
    expect(data.topCustomers.length).toBeGreaterThan(0);
    expect(screen.queryByTestId('dashboard-empty')).toBeNull();

    const top = screen.getByRole('table', { name: '' });
    const rows = within(top).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(data.topCustomers.length);
    data.topCustomers.forEach((c, i) => {
      const row = rows[i] as HTMLElement;
      expect(within(row).getByRole('link', { name: c.name })).toBeTruthy();
      expect(row.textContent).toContain(money(c.grossMinor));
    });

    // Both charts: a named bar per period with its amount, and the period's total to the öre.
    const days = await screen.findByRole('group', { name: 'Sales in the last 30 days' });
    expect(within(days).getAllByRole('img')).toHaveLength(30);
    const months = await screen.findByRole('group', { name: 'Sales in the last 12 months' });
    const monthBars = within(months).getAllByRole('img');
    expect(monthBars).toHaveLength(12);
    data.sales12Months.forEach((m, i) => {
      expect(monthBars[i]?.getAttribute('aria-label')).toContain(money(m.grossMinor));
    });
    const totals = screen.getAllByTestId('chart-total').map((p) => p.textContent);
    expect(totals).toEqual([
      `Total ${money(data.sales30Days.reduce((sum, d) => sum + d.grossMinor, 0))}`,
      `Total ${money(data.sales12Months.reduce((sum, m) => sum + m.grossMinor, 0))}`,
    ]);

    for (const b of data.overdueBuckets) {
      const item = bucketList.querySelector(`[data-bucket="${b.bucket}"]`) as HTMLElement;
      expect(item.textContent).toContain(b.count === 1 ? '1 invoice' : `${b.count} invoices`);
      expect(item.textContent).toContain(money(b.remainingMinor));
      expect(within(item).getByRole('link').getAttribute('href')).toBe(
        `/invoices?bucket=${encodeURIComponent(b.bucket)}`,
      );
    }
    expect(data.overdueBuckets.some((b) => b.count > 0)).toBe(true);
  });

  it('opens the invoice list filtered to a bucket, with as many invoices as the bucket counts', async () => {
    const data = await api.call<DashboardResponse>('GET', '/api/limited/dashboard');
    const bucket = data.overdueBuckets.find((b) => b.count > 0);
    if (!bucket) throw new Error('the seed has no overdue invoice');
    renderDashboard();
    const item = await waitFor(() => {
      const found = document.querySelector(`[data-bucket="${bucket.bucket}"]`);
      if (!found) throw new Error('no bucket yet');
      return found as HTMLElement;
    });
    await userEvent.click(within(item).getByRole('link'));
    expect(await screen.findByTestId('bucket-filter')).toBeTruthy();
    await waitFor(() =>
      expect(
        api.calls.some((c) => c.path === '/api/limited/invoices' && c.query.get('bucket') === bucket.bucket),
      ).toBe(true),
    );
    const list = await api.call<z.output<typeof listInvoicesResponseSchema>>(
      'GET',
      `/api/limited/invoices?bucket=${encodeURIComponent(bucket.bucket)}&pageSize=100`,
    );
    expect(list.totals.find((t) => t.currency === data.currency)?.count).toBe(bucket.count);
    const table = await screen.findByRole('table', { name: 'Invoices' });
    await waitFor(() => expect(within(table).getAllByRole('row').length - 1).toBe(Math.min(25, list.total)));
  });

  it('shows the empty state to a new issuer', async () => {
    await api.signIn('demo-unverified');
    renderDashboard();
    expect(await screen.findByTestId('dashboard-empty')).toBeTruthy();
    expect(screen.getByText('No customers invoiced yet.')).toBeTruthy();
  });

  it('shows the installment plans by state group and the principal still owed, with contract financing only', async () => {
    renderDashboard();
    const card = await screen.findByTestId('dashboard-plans');
    const data = await api.call<DashboardResponse>('GET', '/api/limited/dashboard');
    const plans = data.installmentPlans;
    if (!plans) throw new Error('no plans on the dashboard of demo');
    const facts = (dl: HTMLElement) =>
      Array.from(dl.querySelectorAll('dt')).map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]);
    expect(facts(card)).toEqual([
      ['Registered or being signed', String(plans.counts.signing)],
      ['Active', String(plans.counts.active)],
      ['Final notice or recalled', String(plans.counts.arrears)],
      ['Ended', String(plans.counts.ended)],
      ['Principal still owed', formatMoney(plans.openPrincipalMinor, data.currency, 'en-US')],
    ]);
    expect(plans.openPrincipalMinor).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'All installment plans' }).getAttribute('href')).toBe(
      '/installmentplans',
    );
  });

  it('has no installment plans card without contract financing', async () => {
    await api.signIn('demo-limited');
    renderDashboard();
    await screen.findByRole('heading', { name: /^Overview/ });
    expect(screen.queryByTestId('dashboard-plans')).toBeNull();
    expect(screen.queryByText('Installment plans')).toBeNull();
  });
});
