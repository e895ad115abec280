import type { DebtClaimDetail, ListDebtClaimsResponse } from '@portal/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatMoney } from '../../../lib/money';
import { startRealApi } from '../../../test/real-api';
import { renderWithProviders } from '../../../test/render';
import { TransferCostsPage } from './transfer-costs-page';

/** The amount as the page writes it, with its spaces as the DOM text matcher reads them. */
const money = (minor: number, currency: string) => formatMoney(minor, currency, 'en-US').replace(/\s+/g, ' ');

describe('what the issuer owes us, on the transfer costs page', () => {
  const api = startRealApi();

  describe('Sjöberg Snickeri AB (demo-debt), whose debt was claimed and paid', () => {
    beforeEach(async () => {
      await api.signIn('demo-debt');
    });

    it('lists the claim apart from the settlements and opens its statement: the charge backs, how to pay, the payments', async () => {
      const { items } = await api.call<ListDebtClaimsResponse>('GET', '/api/limited/debtclaims');
      const [claim] = items;
      if (!claim) throw new Error('the demo has no debt claim');
      const detail = await api.call<DebtClaimDetail>('GET', `/api/limited/debtclaims/${claim.claimID}`);

      renderWithProviders(<TransferCostsPage />);
      const table = await screen.findByRole('table', { name: 'What you owe us' });
      const row = within(table).getAllByRole('row')[1] as HTMLElement;
      expect(row).toHaveTextContent(String(claim.number));
      expect(row).toHaveTextContent(money(claim.amountMinor, claim.currency));
      expect(row).toHaveTextContent('Paid');
      expect(screen.getByRole('heading', { name: 'What you owe us', level: 2 })).toBeInTheDocument();

      const user = userEvent.setup();
      await user.click(within(table).getByRole('button', { name: `Show claim ${claim.number}` }));
      const dialog = await screen.findByRole('dialog', { name: `Claim ${claim.number}` });
      const facts = within(dialog).getByTestId('debt-claim-facts');
      expect(facts).toHaveTextContent(claim.ocr);
      expect(facts).toHaveTextContent('5050-1055');
      expect(facts).toHaveTextContent(`Left to pay${money(0, claim.currency)}`);
      const rows = await within(dialog).findByRole('table', { name: `Rows of claim ${claim.number}` });
      // A header row, one per charge back, and the total owed.
      expect(within(rows).getAllByRole('row')).toHaveLength(detail.rows.length + 2);
      for (const r of detail.rows) {
        const line = within(rows).getByRole('row', { name: new RegExp(`^${r.invoiceNumber}`) });
        expect(line).toHaveTextContent('Charge back');
        expect(line).toHaveTextContent(r.recipientName);
        expect(line).toHaveTextContent(money(r.netMinor, claim.currency));
      }
      const paid = within(dialog).getByRole('table', { name: 'Payments received' });
      expect(within(paid).getAllByRole('row')).toHaveLength(detail.payments.length + 1);
      expect(detail.payments.reduce((s, p) => s + p.amountMinor, 0)).toBe(claim.amountMinor);
      expect(dialog).toHaveTextContent(/Paid in full on/);
    });
  });

  it('shows no such section to an issuer that owes us nothing', async () => {
    await api.signIn('demo-other');
    const { items } = await api.call<ListDebtClaimsResponse>('GET', '/api/limited/debtclaims');
    expect(items).toEqual([]);
    renderWithProviders(<TransferCostsPage />);
    await screen.findByRole('heading', { name: /transfer costs|tilitykset/i, level: 1 });
    await waitFor(() => expect(api.calls.some((c) => c.path === '/api/limited/debtclaims')).toBe(true));
    // The page's only second-level heading would be the section's.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryAllByRole('heading', { level: 2 })).toEqual([]);
  });
});
