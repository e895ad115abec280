import { moneyFlow } from '@portal/server/testing';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { i18next } from '../../../lib/i18n';
import { startRealApi } from '../../../test/real-api';
import { renderWithProviders } from '../../../test/render';
import { plain } from '../../../test/text';
import { InvoiceDetailPage } from './invoice-detail-page';

// One real server for the whole file; each test starts from the demo seed. The money events are made
// by the server's own services, as the back office's payout, BGMAX import and daily job make them.
const api = startRealApi();

beforeEach(async () => {
  await api.signIn('demo');
});
afterEach(async () => {
  await i18next.changeLanguage('en-US');
});

type Event = { event: number; details: Record<string, string | number> };

/** A part payment of SEK 100.00 on 5 March 2026 to `invoice`, imported as the bank's BGMAX file. */
async function payPart(invoice: { ocr?: string | null }) {
  const t = api.server;
  const file = moneyFlow.incomingPaymentsFile({
    paymentDate: '2026-03-05',
    deposits: [
      {
        bankgiro: moneyFlow.DEMO_BANKGIROS.bygg,
        payments: [{ reference: invoice.ocr ?? '', amountMinor: 10_000 }],
      },
    ],
  });
  await moneyFlow.importBgmaxFile(t.db, file, { filename: 'bg.txt', operatorId: null, now: t.clock.now() });
}

describe('the invoice timeline shows the figures of money events (docs/MONEY.md)', () => {
  it('payout, part payment, overdue, reminder, collection and interest, in English', async () => {
    const t = api.server;
    // 8 h at SEK 650.00 with 25 % VAT: SEK 6,500.00 to pay, due 2026-04-01, approved on 2 March.
    const [invoice] = await moneyFlow.sentInvoices(t, { n: 1, approve: true, dueDate: '2026-04-01' });
    if (!invoice) throw new Error('no invoice');
    expect(invoice.toPayMinor).toBe(650_000);
    await moneyFlow.runPayout(t.db, { payoutDate: '2026-03-03', now: t.clock.now(), operatorId: null });
    await payPart(invoice);
    // 39 days after the due date every collection step is reached at once, with interest at hand-over.
    await moneyFlow.runDailyJob(t.db, {
      date: '2026-05-10',
      now: new Date('2026-05-10T04:00:00Z'),
      referenceRateBp: 200,
    });

    const detail = await api.call<{ events: Event[] }>('GET', `/api/limited/invoices/${invoice.id}`);
    const byEvent = (n: number) => detail.events.find((e) => e.event === n)?.details ?? {};
    const payout = byEvent(5);
    expect(payout.grossMinor).toBe(650_000);
    expect(Number(payout.grossMinor) - Number(payout.feeMinor)).toBe(payout.netMinor);
    expect(byEvent(7)).toEqual({ amountMinor: 10_000, paymentDate: '2026-03-05', remainingMinor: 640_000 });
    expect(byEvent(25)).toEqual({ dueDate: '2026-04-01' });
    // No internal ids reach the customer.
    expect(detail.events.some((e) => 'operatorId' in e.details || 'paymentId' in e.details)).toBe(false);

    renderWithProviders(<InvoiceDetailPage invoiceID={invoice.id} abilities={['limited_invoices']} />);
    const timeline = within(await screen.findByRole('list'));
    const itemOf = (label: string) => {
      const [item] = timeline.getAllByText(label).map((el) => el.closest('li'));
      return plain(item?.querySelector('.timeline__details')?.textContent);
    };
    const sek = (minor: number) =>
      `SEK ${(minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
    expect(itemOf('Paid out')).toBe(
      `Settlement ${payout.settlementNumber}: SEK 6,500.00 less the fee ${sek(Number(payout.feeMinor))}, ${sek(Number(payout.netMinor))} paid out`,
    );
    expect(itemOf('Part payment received')).toBe('SEK 100.00 paid on Mar 5, 2026, SEK 6,400.00 left to pay');
    expect(itemOf('Overdue')).toBe('The due date Apr 1, 2026 has passed');
    const reminder = byEvent(8);
    expect(itemOf('Reminder 1 sent')).toBe(`Reminder fee ${sek(Number(reminder.reminderFeeMinor))}`);
    const collection = byEvent(10);
    expect(itemOf('Sent to debt collection')).toBe(
      `${sek(Number(collection.remainingMinor))} left to collect`,
    );
    const interest = byEvent(14);
    expect(Number(interest.interestMinor)).toBeGreaterThan(0);
    expect(itemOf('Interest charged')).toMatch(
      new RegExp(
        `^Interest ${sek(Number(interest.interestMinor))} at [\\d.]+% from \\w{3} \\d+, 2026 to \\w{3} \\d+, 2026$`,
      ),
    );
    // Events without figures show none.
    expect(itemOf('Registered')).toBe('');
  });

  it.each([
    [
      'sv-SE',
      'Delbetalning mottagen',
      '100,00 kr betalt 5 mars 2026, 6 400,00 kr kvar att betala',
      'Förfallen',
      'Förfallodagen 1 apr. 2026 har passerat',
    ],
    [
      'fi-FI',
      'Osasuoritus vastaanotettu',
      '100,00 SEK maksettu 5.3.2026, maksamatta 6 400,00 SEK',
      'Erääntynyt',
      'Eräpäivä 1.4.2026 on ohitettu',
    ],
  ])('in %s', async (language, partLabel, partText, overdueLabel, overdueText) => {
    const t = api.server;
    const [invoice] = await moneyFlow.sentInvoices(t, { n: 1, approve: true, dueDate: '2026-04-01' });
    if (!invoice) throw new Error('no invoice');
    await payPart(invoice);
    await moneyFlow.runDailyJob(t.db, {
      date: '2026-04-02',
      now: new Date('2026-04-02T04:00:00Z'),
      referenceRateBp: 200,
    });
    await i18next.changeLanguage(language);
    renderWithProviders(<InvoiceDetailPage invoiceID={invoice.id} abilities={['limited_invoices']} />);
    const timeline = within(await screen.findByRole('list'));
    const detailsOf = (label: string) =>
      plain(timeline.getByText(label).closest('li')?.querySelector('.timeline__details')?.textContent);
    expect(detailsOf(partLabel)).toBe(partText);
    expect(detailsOf(overdueLabel)).toBe(overdueText);
  });
});
