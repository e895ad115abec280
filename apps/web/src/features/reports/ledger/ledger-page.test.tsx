import type { LedgerResponse } from '@portal/contracts';
import { addDays } from '@portal/domain/calendar-date';
import { formatAmount } from '@portal/domain/money';
import { approvedPlan, runDailyOn } from '@portal/server/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { toIsoDate } from '../../../lib/format';
import { i18next, toLanguage } from '../../../lib/i18n';
import { formatMoney } from '../../../lib/money';
import { dateValue, typeDate } from '../../../test/date-field';
import { startRealApi } from '../../../test/real-api';
import { renderWithProviders } from '../../../test/render';
import { LedgerPage } from './ledger-page';

// One real server for the whole file; the demo seed has run the money flow, so the book has postings.
const api = startRealApi();

beforeEach(async () => {
  await api.signIn('demo');
});

const ledgerCalls = () => api.calls.filter((c) => c.path === '/api/limited/reports/ledger');

/** The invoice numbers of the table's rows, top to bottom. */
function shownNumbers(): string[] {
  const table = screen.getByRole('table');
  return within(table)
    .getAllByRole('rowheader')
    .map((c) => c.textContent ?? '');
}

describe('the ledger report (/reports/ledger)', () => {
  it('shows the ledger of today, then of the chosen date, as the API answers it', async () => {
    renderWithProviders(<LedgerPage />, { path: '/reports/ledger' });
    const today = toIsoDate(new Date());
    const asOf = await screen.findByRole('group', { name: 'As of' });
    expect(dateValue(asOf)).toBe(today);
    await waitFor(() => expect(ledgerCalls().at(-1)?.query.get('date')).toBe(today));

    // A date in the middle of the seeded history: there are open invoices then.
    const day = '2026-01-15';
    await typeDate(userEvent.setup(), asOf, day);
    await waitFor(() => expect(ledgerCalls().at(-1)?.query.get('date')).toBe(day));
    const expected = await api.call<LedgerResponse>(
      'GET',
      `/api/limited/reports/ledger?date=${day}&page=1&pageSize=25&sort=invoiceNumber&order=asc`,
    );
    expect(expected.total).toBeGreaterThan(0);
    await waitFor(() => expect(shownNumbers()).toEqual(expected.items.map((i) => i.invoiceNumber)));
    const first = expected.items[0];
    if (!first) throw new Error('a row');
    const row = screen.getByRole('rowheader', { name: first.invoiceNumber }).closest('tr') as HTMLElement;
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells[3]).toBe(first.customer);
    expect(cells[6]).toBe(first.sni);
    // Figures only, the currency in its own column (so that twelve columns fit 1280 px, issue #11).
    expect(cells[7]).toBe(formatAmount(first.amountMinor, toLanguage(i18next.language)));
    expect(cells[8]).toBe(first.currency);
    expect(cells[9]).toBe(formatAmount(first.remainingMinor, toLanguage(i18next.language)));
    const totalLines = screen.getAllByRole('listitem').map((li) => li.textContent ?? '');
    for (const total of expected.totals)
      expect(
        totalLines.some((line) =>
          line.includes(formatMoney(total.remainingMinor, total.currency, i18next.language)),
        ),
      ).toBe(true);
  });

  it('sorts by the remaining amount through the API', async () => {
    renderWithProviders(<LedgerPage />, { path: '/reports/ledger' });
    await typeDate(userEvent.setup(), await screen.findByRole('group', { name: 'As of' }), '2026-01-15');
    await waitFor(() => expect(ledgerCalls().at(-1)?.query.get('date')).toBe('2026-01-15'));
    await screen.findAllByRole('rowheader');
    await userEvent.click(screen.getByRole('button', { name: /Remaining/ }));
    await waitFor(() => expect(ledgerCalls().at(-1)?.query.get('sort')).toBe('remaining'));
    const order = ledgerCalls().at(-1)?.query.get('order');
    const expected = await api.call<LedgerResponse>(
      'GET',
      `/api/limited/reports/ledger?date=2026-01-15&page=1&pageSize=25&sort=remaining&order=${order}`,
    );
    await waitFor(() => expect(shownNumbers()).toEqual(expected.items.map((i) => i.invoiceNumber)));
  });

  it('names an installment invoice’s plan under its service, a link to the plan for a user who may open it', async () => {
    // A plan taken to active through the API (signed on the e-signing sandbox, approved), and the daily
    // job issuing its first installment's invoice.
    const plan = await approvedPlan(api.server, { terms: { startDate: '2026-03-20', noOfInstallments: 2 } });
    const [one] = plan.installments;
    if (!one) throw new Error('no schedule');
    const day = addDays(one.dueDate, -30);
    await runDailyOn(api.server, day);
    // The app's clock moved on to the job's day: sign in again.
    await api.signIn('demo');
    const answer = await api.call<LedgerResponse>(
      'GET',
      `/api/limited/reports/ledger?date=${day}&page=1&pageSize=25&sort=invoiceNumber&order=asc`,
    );
    const installment = answer.items.find((i) => i.installmentPlanID === plan.installmentPlanID);
    expect(installment).toMatchObject({ invoiceNumber: `${plan.loanNumber}-1`, loanNumber: plan.loanNumber });
    const label = `Installment plan ${plan.loanNumber}`;

    /** The ledger of the day on the page; the installment invoice's row. */
    const shown = async () => {
      await typeDate(userEvent.setup(), await screen.findByRole('group', { name: 'As of' }), day);
      await waitFor(() => expect(shownNumbers()).toContain(`${plan.loanNumber}-1`));
      return screen.getByRole('rowheader', { name: `${plan.loanNumber}-1` }).closest('tr') as HTMLElement;
    };
    const view = renderWithProviders(<LedgerPage canViewPlans />, { path: '/reports/ledger' });
    const row = await shown();
    const service = within(row).getAllByRole('cell')[2] as HTMLElement;
    expect(service.textContent).toBe(`Loan${label}`);
    expect(within(service).getByRole('link', { name: label })).toHaveAttribute(
      'href',
      `/installmentplans/${plan.installmentPlanID}`,
    );
    // Only installment invoices name a plan (the demo's plans' ones too), each its own.
    for (const link of within(screen.getByRole('table')).getAllByRole('link')) {
      const number = within(link.closest('tr') as HTMLElement).getByRole('rowheader').textContent ?? '';
      expect(number.startsWith(`${(link.textContent ?? '').replace('Installment plan ', '')}-`)).toBe(true);
    }
    view.unmount();

    // A user who may not open plans sees the plan as text, not as a link.
    renderWithProviders(<LedgerPage />, { path: '/reports/ledger' });
    const plain = await shown();
    expect(plain.textContent).toContain(label);
    expect(within(plain).queryByRole('link')).toBeNull();
  }, 40_000);
});
