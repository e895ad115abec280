import { INVOICE_STATE } from '@portal/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PostingRow } from './ledger';
import {
  acceptsPayment,
  dedupeKeysOf,
  emptyBatch,
  type Incoming,
  type MatchCounts,
  matchPayments,
  type PaymentTarget,
  splitParts,
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
    parts: null,
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
  const counts: MatchCounts = { matched: 0, unmatched: 0, deductions: 0, information: 0, overpayments: 0 };
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
    expect(counts).toEqual({ matched: 3, unmatched: 0, deductions: 0, information: 0, overpayments: 1 });
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

  it('leaves unmatched what it cannot apply: another currency, an unknown bankgiro, an unpayable state', () => {
    const open = target({ ocr: '1', currency: 'SEK' });
    const pending = target({ ocr: '2', state: INVOICE_STATE.pending });
    const { batch, counts } = run(
      [
        incoming({ reference: '1', currency: 'EUR' }),
        incoming({ reference: '1', bankgiro: '9999-9999' }),
        incoming({ reference: '2' }),
        incoming({ reference: '', extraReferences: ['11', '12'] }),
      ],
      [open, pending],
    );
    expect(batch.payments.map((p) => p.status)).toEqual(Array(4).fill('unmatched'));
    expect(batch.payments[1]?.issuerId).toBeNull();
    expect(batch.payments[3]?.reference).toBe('11 12');
    expect(open).toMatchObject({ remainingMinor: 25_000, touched: false });
    expect(counts).toMatchObject({ matched: 0, unmatched: 4 });
    expectBalanced(batch.postings);
    const sent = 10_000 * 4;
    expect(byAccount(batch.postings)).toEqual({ bank: sent, unmatched_payments: -sent });
  });

  it('keeps a zero amount as information: never applied, never booked, never lost', () => {
    const open = target({ ocr: '1' });
    const { batch, counts } = run(
      [
        incoming({ reference: '1', amountMinor: 0 }),
        incoming({ reference: '', amountMinor: 0, extraReferences: ['1', '2'] }),
      ],
      [open],
    );
    expect(batch.payments.map((p) => [p.status, p.reference, p.amountMinor, p.invoiceId])).toEqual([
      ['information', '1', 0, null],
      ['information', '1 2', 0, null],
    ]);
    expect(batch.payments[0]?.issuerId).toBe(ISSUER);
    expect(counts).toMatchObject({ matched: 0, unmatched: 0, information: 2 });
    expect(batch.postings).toEqual([]);
    expect(open).toMatchObject({ remainingMinor: 25_000, touched: false });
  });

  describe('a payment split over its extra references (issue #16)', () => {
    const extra = (reference: string, amountMinor: number, sign: 'positive' | 'negative' = 'positive') => ({
      sign,
      reference,
      amountMinor,
      referenceCode: 2 as const,
    });
    const split = (amountMinor: number, refs: ReturnType<typeof extra>[]) =>
      splitParts({ kind: 'payment', amountMinor, extraReferences: refs });

    it('is split when two or more extra references add up to the amount, a TK23 taken off', () => {
      // Bankgirot's own example (shared/domain/bgmax.md §3): 100 000 + 50 000 + 40 000 − 50 000.
      expect(
        split(140_000, [
          extra('7495575', 100_000),
          extra('695668', 50_000),
          extra('8988777', 40_000),
          extra('74450', 50_000, 'negative'),
        ]),
      ).toEqual([
        { part: 1, reference: '7495575', amountMinor: 100_000 },
        { part: 2, reference: '695668', amountMinor: 50_000 },
        { part: 3, reference: '8988777', amountMinor: 40_000 },
        { part: 4, reference: '74450', amountMinor: -50_000 },
      ]);
      // Not split: amounts that do not add up, all zero (not split by the payer), one reference, a
      // deduction, a payment of nothing.
      expect(split(30_000, [extra('1', 20_000), extra('2', 5_000)])).toBeNull();
      expect(split(30_000, [extra('1', 0), extra('2', 0)])).toBeNull();
      expect(split(30_000, [extra('1', 30_000)])).toBeNull();
      expect(
        splitParts({
          kind: 'deduction',
          amountMinor: 30_000,
          extraReferences: [extra('1', 15_000), extra('2', 15_000)],
        }),
      ).toBeNull();
      expect(split(0, [extra('1', 5), extra('2', 5, 'negative')])).toBeNull();
      // Added up exactly: in floats max + 2 rounds to max + 1, and less 1 would "equal" max.
      const max = Number.MAX_SAFE_INTEGER;
      expect(split(max, [extra('1', max), extra('2', 2), extra('3', 1, 'negative')])).toBeNull();
      expect(split(max, [extra('1', max), extra('2', 1), extra('3', 1, 'negative')])).toHaveLength(3);
    });

    it('applies each part to the invoice its reference names, as its own row; the rest waits part by part', () => {
      const a = target({ id: 'inv-a', ocr: '11', remainingMinor: 100_000 });
      const b = target({ id: 'inv-b', ocr: '22', remainingMinor: 30_000 });
      const p = incoming({
        dedupeKey: 'bg|2026-11-25|1|7|TK20',
        reference: '',
        amountMinor: 140_000,
        extraReferences: ['11', '22', '99', '74450'],
        parts: [
          { part: 1, reference: '11', amountMinor: 100_000 },
          { part: 2, reference: '22', amountMinor: 50_000 },
          { part: 3, reference: '99', amountMinor: 40_000 },
          { part: 4, reference: '74450', amountMinor: -50_000 },
        ],
      });
      const { batch, counts } = run([p], [a, b]);
      expect(
        batch.payments.map((r) => [r.dedupeKey, r.part, r.status, r.invoiceId, r.reference, r.amountMinor]),
      ).toEqual([
        ['bg|2026-11-25|1|7|TK20|1', 1, 'matched', 'inv-a', '11', 100_000],
        ['bg|2026-11-25|1|7|TK20|2', 2, 'matched', 'inv-b', '22', 50_000],
        ['bg|2026-11-25|1|7|TK20|3', 3, 'unmatched', null, '99', 40_000],
        ['bg|2026-11-25|1|7|TK20|4', 4, 'deduction', null, '74450', -50_000],
      ]);
      expect(dedupeKeysOf(p)).toEqual([p.dedupeKey, ...batch.payments.map((r) => r.dedupeKey)]);
      expect(batch.payments[1]).toMatchObject({ appliedMinor: 30_000, overpaidMinor: 20_000 });
      expect(a).toMatchObject({ state: INVOICE_STATE.paid, remainingMinor: 0 });
      expect(b).toMatchObject({ state: INVOICE_STATE.paid, remainingMinor: 0 });
      expect(counts).toEqual({ matched: 2, unmatched: 1, deductions: 1, information: 0, overpayments: 1 });
      expectBalanced(batch.postings);
      // The bank takes exactly the TK20's amount: the parts add up to it.
      expect(byAccount(batch.postings)).toEqual({
        bank: 140_000,
        receivable: -130_000,
        overpayments: -20_000,
        unmatched_payments: -40_000,
        payment_deductions: 50_000,
      });
    });

    it('applies the whole payment to the invoice its own reference names, parts or not; keeps a zero part as information', () => {
      const own = target({ id: 'inv-own', ocr: '5' });
      const other = target({ id: 'inv-other', ocr: '6' });
      const parts = [
        { part: 1, reference: '6', amountMinor: 10_000 },
        { part: 2, reference: '7', amountMinor: 0 },
      ];
      const { batch } = run(
        [
          incoming({ reference: '5', amountMinor: 10_000, parts }),
          incoming({ reference: '', amountMinor: 10_000, parts, dedupeKey: 'k2' }),
        ],
        [own, other],
      );
      expect(batch.payments.map((r) => [r.status, r.invoiceId, r.part ?? null, r.amountMinor])).toEqual([
        ['matched', 'inv-own', null, 10_000],
        ['matched', 'inv-other', 1, 10_000],
        ['information', null, 2, 0],
      ]);
      expect(batch.payments[2]?.dedupeKey).toBe('k2|2');
    });
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
