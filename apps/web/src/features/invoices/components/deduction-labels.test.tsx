import type { PaymentsReportResponse } from '@portal/contracts';
import { moneyFlow } from '@portal/server/testing';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import ReportsPaymentsRoute from '../../../app/routes/reports-payments';
import { i18next } from '../../../lib/i18n';
import { startRealApi } from '../../../test/real-api';
import { renderWithProviders } from '../../../test/render';
import { plain } from '../../../test/text';
import { eventDetailsText } from './event-details';
import { InvoiceDetailPage } from './invoice-detail-page';

// One real server for the file; each test starts from the demo seed. The deduction is imported as the
// bank's BGMAX file and resolved by the back office's own service (docs/MONEY.md "Deductions (TK21)").
const api = startRealApi();

beforeEach(async () => {
  await api.signIn('demo');
});
afterEach(async () => {
  await i18next.changeLanguage('en-US');
});

describe('a handled BGMAX deduction on the invoice timeline and in the payments report', () => {
  it('settled against the invoice: event 12 with its figures, and the report’s note, in English', async () => {
    const t = api.server;
    const [invoice] = await moneyFlow.sentInvoices(t, { n: 1, approve: true, dueDate: '2026-04-01' });
    if (!invoice) throw new Error('no invoice');
    const file = moneyFlow.incomingPaymentsFile({
      paymentDate: '2026-03-05',
      deposits: [
        {
          bankgiro: moneyFlow.DEMO_BANKGIROS.bygg,
          payments: [
            { reference: invoice.ocr ?? '', amountMinor: invoice.toPayMinor },
            { reference: '4711', amountMinor: 30_000, deduction: true },
          ],
        },
      ],
      firstSerial: 660_001,
      firstDeposit: 66_001,
    });
    const { fileId } = await moneyFlow.importBgmaxFile(t.db, file, {
      filename: 'tk21.txt',
      operatorId: null,
      now: t.clock.now(),
    });
    const deduction = await moneyFlow.deductionOfFile(t.db, fileId);
    await moneyFlow.resolveDeduction(
      t.db,
      deduction,
      { action: 'settleInvoice', invoiceId: invoice.id },
      { operatorId: moneyFlow.TEST_OPERATOR.operatorId, now: t.clock.now() },
    );

    renderWithProviders(<InvoiceDetailPage invoiceID={invoice.id} abilities={['limited_invoices']} />);
    const timeline = within(await screen.findByRole('list'));
    const [item] = timeline.getAllByText('Reversed').map((el) => el.closest('li'));
    expect(plain(item?.querySelector('.timeline__details')?.textContent)).toBe(
      'The payer took SEK 300.00 off its payment of Mar 5, 2026 (deduction, reference 4711); it is settled against this invoice, SEK 300.00 left to pay',
    );

    const query = 'from=2026-03-01&to=2026-03-31';
    const report = await api.call<PaymentsReportResponse>(
      'GET',
      `/api/limited/reports/payments?${query}&pageSize=100`,
    );
    const shown = report.items.find((p) => p.paymentID === deduction);
    expect(shown).toMatchObject({ amountMinor: -30_000, appliedMinor: -30_000, deduction: 'settleInvoice' });
    renderWithProviders(<ReportsPaymentsRoute />, { path: `/reports/payments?${query}&pageSize=100` });
    const table = await screen.findByRole('table', { name: 'Payments' });
    const row = within(table)
      .getAllByRole('row')
      .find((r) => r.textContent?.includes('4711'));
    expect(row?.querySelector('.data-table__note')?.textContent).toBe(
      'Deduction, settled against the invoice',
    );
  });

  it('words the events of a deduction in Swedish and Finnish too', async () => {
    const details = {
      amountMinor: 125_000,
      reference: '1234567',
      paymentDate: '2026-02-23',
      remainingMinor: 125_000,
    };
    const texts = async (language: 'sv-SE' | 'fi-FI') => {
      await i18next.changeLanguage(language);
      return [12, 29].map((event) => {
        const text = eventDetailsText(event, details, 'SEK', language);
        return text ? plain(i18next.t(text.key, text.values)) : null;
      });
    };
    const [svSettled, svCharged] = await texts('sv-SE');
    expect(svSettled).toMatch(
      /^Betalaren drog av 1 250,00 kr på sin inbetalning .*1234567.*avräknas mot den här fakturan, 1 250,00 kr kvar att betala$/,
    );
    expect(svCharged).toMatch(
      /^Betalaren drog av 1 250,00 kr .*mot en kredit från er.*dras i er nästa avräkning$/,
    );
    const [fiSettled, fiCharged] = await texts('fi-FI');
    expect(fiSettled).toMatch(
      /^Maksaja vähensi 1 250,00 \S+ maksustaan .*1234567.*kuitataan tätä laskua vastaan/,
    );
    expect(fiCharged).toMatch(/veloitetaan seuraavassa tilityksessänne$/);
  });
});
