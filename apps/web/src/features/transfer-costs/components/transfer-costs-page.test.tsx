import type { ListTransferCostsResponse, TransferCostDetail } from '@portal/contracts';
import { readBgmax } from '@portal/domain/bgmax';
import { setCollectionBankgiro } from '@portal/server/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatMoney } from '../../../lib/money';
import { dateField, typeDate } from '../../../test/date-field';
import { captureDownloads, readBlob } from '../../../test/downloads';
import { startRealApi } from '../../../test/real-api';
import { renderWithProviders } from '../../../test/render';
import { TransferCostsPage } from './transfer-costs-page';

/** The amount as the page writes it, with its spaces as the DOM text matcher reads them. */
const money = (minor: number, currency: string, language: string) =>
  formatMoney(minor, currency, language).replace(/\s+/g, ' ');

describe('the transfer costs page (/transfercosts)', () => {
  const api = startRealApi();

  beforeEach(async () => {
    await api.signIn('demo');
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const list = (query = '') =>
    api.call<ListTransferCostsResponse>('GET', `/api/limited/transfercosts?pageSize=100${query}`);

  it('lists the settlements newest first with their amounts, pages them and filters by created date', async () => {
    // The demo seed ran the money flow for 14 months: Demo Bygg has settlements.
    const all = await list();
    // More than one page of 25.
    expect(all.total).toBeGreaterThan(25);
    const newest = all.items[0];
    if (!newest) throw new Error('no settlement');
    renderWithProviders(<TransferCostsPage />);
    const table = await screen.findByRole('table', { name: 'Transfer costs' });
    const first = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(first).toHaveTextContent(String(newest.number));
    expect(first).toHaveTextContent(money(newest.totalPayoutMinor, newest.currency, 'en-US'));
    expect(first).toHaveTextContent(money(newest.feeMinor, newest.currency, 'en-US'));
    expect(screen.getByText(new RegExp(`of ${all.total}`))).toBeInTheDocument();

    const user = userEvent.setup();
    {
      // The next page starts where the first ended.
      await user.click(screen.getByRole('button', { name: 'Next' }));
      const second = all.items[25];
      await waitFor(() =>
        expect(
          within(screen.getByRole('table', { name: 'Transfer costs' })).getAllByRole('row')[1],
        ).toHaveTextContent(String(second?.number)),
      );
      expect(api.calls.at(-1)?.query.get('page')).toBe('2');
    }

    // Only the settlements created on the oldest one's day.
    const oldest = all.total > 100 ? undefined : all.items[all.items.length - 1];
    const day = oldest?.createdDate ?? newest.createdDate;
    const expected = await list(`&from=${day}&to=${day}`);
    await typeDate(user, dateField('From'), day);
    await typeDate(user, dateField('To'), day);
    await waitFor(() => {
      const rows = within(screen.getByRole('table', { name: 'Transfer costs' })).getAllByRole('row');
      expect(rows).toHaveLength(expected.items.length + 1);
    });
    const last = api.calls.filter((c) => c.path === '/api/limited/transfercosts').at(-1);
    expect(last?.query.get('from')).toBe(day);
    expect(last?.query.get('to')).toBe(day);
    expect(last?.query.get('page')).toBe('1');
  });

  it('opens a settlement with its rows and downloads its BGMAX file, which reads back to its total', async () => {
    const all = await list();
    const settlement = all.items.find((s) => s.totalPayoutMinor > 0 && s.rowCount > 0);
    if (!settlement) throw new Error('no settlement with a payout');
    const detail = await api.call<TransferCostDetail>(
      'GET',
      `/api/limited/transfercosts/${settlement.settlementID}?pageSize=25`,
    );
    const { saved } = captureDownloads();

    renderWithProviders(<TransferCostsPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `Show settlement ${settlement.number}` }));
    const dialog = await screen.findByRole('dialog', { name: `Settlement ${settlement.number}` });
    const rowsTable = await within(dialog).findByRole('table');
    const firstRow = detail.rows.items[0];
    if (!firstRow) throw new Error('no row');
    await within(rowsTable).findByText(firstRow.invoiceNumber);
    expect(within(rowsTable).getAllByRole('row')).toHaveLength(detail.rows.items.length + 2);
    expect(within(rowsTable).getAllByRole('row')[1]).toHaveTextContent(
      money(firstRow.netMinor, settlement.currency, 'en-US'),
    );

    await user.click(within(dialog).getByRole('button', { name: `Download BGMAX ${settlement.number}` }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toContain(String(settlement.number));
    const bytes = new Uint8Array(await readBlob((saved[0] as { blob: Blob }).blob));
    const parsed = readBgmax(bytes);
    expect(parsed.file.sections).toHaveLength(1);
    expect(parsed.file.sections[0]?.deposit.amountMinor).toBe(settlement.totalPayoutMinor);
  });

  it('says why there is no BGMAX file when the company has no bankgiro, and saves nothing', async () => {
    const settlement = (await list()).items.find((s) => s.totalPayoutMinor > 0 && s.rowCount > 0);
    if (!settlement) throw new Error('no settlement with a payout');
    await setCollectionBankgiro(api.server.db, 'demo', null);
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});

    renderWithProviders(<TransferCostsPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `Show settlement ${settlement.number}` }));
    const dialog = await screen.findByRole('dialog', { name: `Settlement ${settlement.number}` });
    await user.click(within(dialog).getByRole('button', { name: `Download BGMAX ${settlement.number}` }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your company has no bankgiro number with us, so the settlement cannot be written as a BGMAX file.',
    );
    expect(clicked).not.toHaveBeenCalled();
  });
});
