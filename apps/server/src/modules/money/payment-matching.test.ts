import { INVOICE_STATE } from '@portal/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PostingRow } from './ledger';
import {
  acceptsPayment,
  emptyBatch,
  type Incoming,
  matchPayments,
  type PaymentTarget,
} from './payment-matching';

// The matching of incoming payments without a database: the targets are plain objects, as the import
// reads them, and the batch is what it would write.

const AT = new Date('2026-11-26T08:00:00Z');
const ISSUER = 'issuer-1';
const BANKGIRO = '5555-5555';

function incoming(over: Partial<Incoming>): Incoming {
  return {
    dedupeKey: `k-${Math.random()}`,
    bankgiro: BANKGIRO,
    currency: 'SEK',
    paymentDate: '2026-11-25',
    reference: '',
    extraReference: null,
    extraReferences: [],
    amountMinor: 10_000,
    deduction: false,
    payerBankgiro: null,
    payerName: 'Betalare',
    channel: 1,
    bgcSerial: '1',
    ...over,
  };
}

function target(over: Partial<PaymentTarget>): PaymentTarget {
  return {
    id: `inv-${over.ocr ?? '1'}`,
    issuerId: ISSUER,
    invoiceNumber: '1001',
    ocr: '1234',
    state: INVOICE_STATE.notPaid,
    currency: 'SEK',
    service: 'factoring',
    remainingMinor: 25_000,
    touched: false,
    ...over,
  };
}

function run(payments: Incoming[], targets: PaymentTarget[]) {
  const batch = emptyBatch();
  const counts = { matched: 0, deductions: 0, overpayments: 0 };
  matchPayments(
    payments,
    0,
    payments.length,
    {
      fileId: 'file-1',
      at: AT,
      issuerOf: new Map([[BANKGIRO, ISSUER]]),
      targets: new Map(targets.map((t) => [`${t.issuerId}:${t.ocr}`, t])),
      counts,
    },
    batch,
  );
  return { batch, counts };
}

/** Sum per account of the postings. */
function byAccount(postings: PostingRow[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of postings) out[p.account] = (out[p.account] ?? 0) + p.amountMinor;
  return out;
}

/** Every journal of the batch sums to zero. */
function expectBalanced(postings: PostingRow[]) {
  const sums = new Map<string, number>();
  for (const p of postings) sums.set(p.journalId ?? '', (sums.get(p.journalId ?? '') ?? 0) + p.amountMinor);
  for (const sum of sums.values()) expect(sum).toBe(0);
}

describe('matching incoming payments', () => {
  it('applies payments in file order: part paid, then paid, then an overpayment', () => {
    const invoice = target({ ocr: '1234', remainingMinor: 25_000 });
    const { batch, counts } = run(
      [
        incoming({ reference: '1234', amountMinor: 10_000 }),
        incoming({ reference: '1234', amountMinor: 15_000 }),
        incoming({ reference: '1234', amountMinor: 500 }),
      ],
      [invoice],
    );
    expect(
      batch.payments.map((p) => [p.status, p.appliedMinor, p.overpaidMinor, p.remainingAfterMinor]),
    ).toEqual([
      ['matched', 10_000, 0, 15_000],
      ['matched', 15_000, 0, 0],
      ['matched', 0, 500, 0],
    ]);
    expect(invoice).toMatchObject({ state: INVOICE_STATE.paid, remainingMinor: 0, touched: true });
    expect(counts).toEqual({ matched: 3, deductions: 0, overpayments: 1 });
    expectBalanced(batch.postings);
    expect(byAccount(batch.postings)).toMatchObject({
      bank: 25_500,
      receivable: -25_000,
      overpayments: -500,
    });
  });

  it("matches on the sole TK22 reference when the payment's own names no invoice, and keeps that reference", () => {
    const invoice = target({ ocr: '777', remainingMinor: 10_000 });
    const { batch } = run(
      [incoming({ reference: '999', extraReference: '777', amountMinor: 4_000 })],
      [invoice],
    );
    expect(batch.payments[0]).toMatchObject({ status: 'matched', invoiceId: invoice.id, reference: '777' });
    expect(invoice).toMatchObject({ state: INVOICE_STATE.partPaid, remainingMinor: 6_000 });
  });

  it('leaves unmatched what it cannot apply: another currency, a zero amount, an unknown bankgiro, an unpayable state', () => {
    const open = target({ ocr: '1', currency: 'SEK' });
    const pending = target({ ocr: '2', state: INVOICE_STATE.pending });
    const { batch, counts } = run(
      [
        incoming({ reference: '1', currency: 'EUR' }),
        incoming({ reference: '1', amountMinor: 0 }),
        incoming({ reference: '1', bankgiro: '9999-9999' }),
        incoming({ reference: '2' }),
        incoming({ reference: '', extraReferences: ['11', '12'] }),
      ],
      [open, pending],
    );
    expect(batch.payments.map((p) => p.status)).toEqual(Array(5).fill('unmatched'));
    expect(batch.payments[2]?.issuerId).toBeNull();
    expect(batch.payments[4]?.reference).toBe('11 12');
    expect(open).toMatchObject({ remainingMinor: 25_000, touched: false });
    expect(counts.matched).toBe(0);
    expectBalanced(batch.postings);
    const sent = 10_000 * 4;
    expect(byAccount(batch.postings)).toEqual({ bank: sent, unmatched_payments: -sent });
  });

  it('keeps a deduction (TK21) apart: no invoice, booked off the bank against payment_deductions', () => {
    const invoice = target({ ocr: '1234' });
    const { batch, counts } = run(
      [incoming({ reference: '1234', amountMinor: -3_000, deduction: true })],
      [invoice],
    );
    expect(batch.payments[0]).toMatchObject({ status: 'deduction', invoiceId: null, issuerId: ISSUER });
    expect(counts.deductions).toBe(1);
    expect(invoice.touched).toBe(false);
    expect(byAccount(batch.postings)).toEqual({ bank: -3_000, payment_deductions: 3_000 });
  });

  it("passes a payment on a charged-back invoice on to the issuer; holds a collected invoice's money for it", () => {
    const chargedBack = target({ ocr: '5', state: INVOICE_STATE.chargedBack, remainingMinor: 8_000 });
    const collected = target({ ocr: '6', service: 'invoicingService', remainingMinor: 8_000 });
    const { batch } = run(
      [incoming({ reference: '5', amountMinor: 8_000 }), incoming({ reference: '6', amountMinor: 8_000 })],
      [chargedBack, collected],
    );
    expect(batch.payments[0]).toMatchObject({ forwarded: true, appliedMinor: 8_000 });
    expect(chargedBack.state).toBe(INVOICE_STATE.chargedBack);
    expect(collected.state).toBe(INVOICE_STATE.paid);
    expect(byAccount(batch.postings)).toEqual({
      bank: 16_000,
      issuer_payable: -16_000,
      receivable: -8_000,
      claims_held: 8_000,
    });
    expectBalanced(batch.postings);
  });

  it('accepts payments in the states of the contracts’ table, and on a paid invoice (as an overpayment)', () => {
    const accepted = Object.values(INVOICE_STATE).filter(acceptsPayment);
    expect(accepted.sort()).toEqual([
      INVOICE_STATE.notPaid,
      INVOICE_STATE.partPaid,
      INVOICE_STATE.paid,
      INVOICE_STATE.chargedBack,
    ]);
  });

  it('for any payments, every journal balances and each öre is applied, overpaid or left unmatched', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 5 }),
        fc.array(
          fc.record({
            ref: fc.constantFrom('1', '2', '3'),
            amount: fc.integer({ min: -5_000, max: 900_000 }),
          }),
          {
            maxLength: 30,
          },
        ),
        (remainders, pays) => {
          const targets = remainders.map((r, i) => target({ ocr: String(i + 1), remainingMinor: r }));
          const before = targets.reduce((s, t) => s + t.remainingMinor, 0);
          const { batch } = run(
            pays.map((p) => incoming({ reference: p.ref, amountMinor: p.amount })),
            targets,
          );
          expectBalanced(batch.postings);
          const applied = batch.payments.reduce((s, p) => s + (p.appliedMinor ?? 0), 0);
          const overpaid = batch.payments.reduce((s, p) => s + (p.overpaidMinor ?? 0), 0);
          const unmatched = batch.payments
            .filter((p) => p.status === 'unmatched')
            .reduce((s, p) => s + p.amountMinor, 0);
          expect(applied + overpaid + unmatched).toBe(pays.reduce((s, p) => s + p.amount, 0));
          expect(targets.reduce((s, t) => s + t.remainingMinor, 0)).toBe(before - applied);
          for (const t of targets) expect(t.remainingMinor).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});
