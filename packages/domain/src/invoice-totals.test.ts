import { describe, expect, it } from 'vitest';
import {
  computeInvoiceTotals,
  type InvoiceRowInput,
  type InvoiceTotals,
  ROW_KINDS,
  type RowKind,
  rowNetMinor,
  vatMinor,
} from './invoice-totals';
import { sumMinor } from './money';
import { seededRandom } from './test-support/seeded-random';

const SEK = 100;

// The identities every result must satisfy, to the öre.
function expectConsistent(totals: InvoiceTotals): void {
  const all = [
    totals.netMinor,
    totals.vatMinor,
    totals.grossMinor,
    totals.taxReductionMinor,
    totals.toPayMinor,
    totals.labour.netMinor,
    totals.labour.vatMinor,
    totals.labour.grossMinor,
    ...totals.rowNetsMinor,
    ...totals.vatByRate.flatMap((r) => [r.netMinor, r.vatMinor]),
  ];
  for (const value of all) expect(Number.isSafeInteger(value)).toBe(true);
  expect(totals.netMinor).toBe(sumMinor(totals.rowNetsMinor));
  expect(totals.netMinor).toBe(sumMinor(totals.vatByRate.map((r) => r.netMinor)));
  expect(totals.vatMinor).toBe(sumMinor(totals.vatByRate.map((r) => r.vatMinor)));
  expect(totals.grossMinor).toBe(totals.netMinor + totals.vatMinor);
  expect(totals.labour.grossMinor).toBe(totals.labour.netMinor + totals.labour.vatMinor);
  expect(totals.toPayMinor).toBe(totals.grossMinor - totals.taxReductionMinor);
  for (const rate of totals.vatByRate)
    expect(rate.vatMinor).toBe(vatMinor(rate.netMinor, rate.vatBasisPoints));
}

describe('rowNetMinor and vatMinor', () => {
  it.each([
    [1000, 12_345, 12_345],
    [1500, 333, 500], // 1.5 × 3.33 = 4.995 → 5.00
    [-1500, 333, -500],
    [1500, -333, -500],
    [1, 499, 0], // 0.001 × 4.99
    [1, 500, 1], // 0.001 × 5.00 = 0.5 öre → 1
    [2500, 19_990, 49_975],
    [0, 99_999, 0],
    [40_000, 100_000, 4_000_000], // 40 h × 1 000 SEK
  ])('quantity %i/1000 × %i öre → %i öre', (quantity, price, net) => {
    expect(rowNetMinor(quantity, price)).toBe(net);
  });

  it.each([
    [10_000, 2500, 2500],
    [10_000, 2550, 2550],
    [1, 2550, 0], // 0.255
    [2, 2550, 1], // 0.51
    [2, 2500, 1], // 0.5 → 1
    [-2, 2500, -1],
    [999, 1350, 135], // 134.865
    [12_345, 0, 0],
    [12_345, 10_000, 12_345],
  ])('VAT on %i at %i bp → %i', (net, bp, vat) => {
    expect(vatMinor(net, bp)).toBe(vat);
  });

  it('throws on non-integers and rates outside 0-10 000 bp', () => {
    expect(() => rowNetMinor(1.5, 100)).toThrow(RangeError);
    expect(() => rowNetMinor(1000, 99.5)).toThrow(RangeError);
    expect(() => vatMinor(100, 10_001)).toThrow(RangeError);
    expect(() => vatMinor(100, -1)).toThrow(RangeError);
    expect(() => vatMinor(100, 25.5)).toThrow(RangeError);
  });
});

describe('computeInvoiceTotals', () => {
  it('gives zeros for no rows', () => {
    const totals = computeInvoiceTotals([]);
    expect(totals).toEqual({
      rowNetsMinor: [],
      vatByRate: [],
      netMinor: 0,
      vatMinor: 0,
      grossMinor: 0,
      labour: { netMinor: 0, vatMinor: 0, grossMinor: 0 },
      taxReduction: null,
      taxReductionMinor: 0,
      toPayMinor: 0,
    });
  });

  it('rounds VAT once per rate, not per row', () => {
    // Three rows of 3 öre at 25 %: per row 0.75 → 1 each (3 öre); per rate 9 × 25 % = 2.25 → 2 öre.
    const row = { quantity: 1000, unitPriceMinor: 3, vatBasisPoints: 2500 };
    const totals = computeInvoiceTotals([row, row, row]);
    expect(totals.vatByRate).toEqual([{ vatBasisPoints: 2500, netMinor: 9, vatMinor: 2 }]);
    expect(totals.grossMinor).toBe(11);
    expectConsistent(totals);
  });

  it('groups Swedish and Finnish rates, highest rate first', () => {
    const rows: InvoiceRowInput[] = [
      { quantity: 2000, unitPriceMinor: 12_550, vatBasisPoints: 1200 },
      { quantity: 1000, unitPriceMinor: 10_000, vatBasisPoints: 2550 },
      { quantity: 3000, unitPriceMinor: 1_999, vatBasisPoints: 600 },
      { quantity: 1000, unitPriceMinor: 5_000, vatBasisPoints: 0 },
      { quantity: 1500, unitPriceMinor: 333, vatBasisPoints: 1350 },
      { quantity: 1000, unitPriceMinor: 2_001, vatBasisPoints: 1200 },
      { quantity: 1000, unitPriceMinor: 10_000, vatBasisPoints: 1000 },
    ];
    const totals = computeInvoiceTotals(rows);
    expect(totals.rowNetsMinor).toEqual([25_100, 10_000, 5_997, 5_000, 500, 2_001, 10_000]);
    expect(totals.vatByRate).toEqual([
      { vatBasisPoints: 2550, netMinor: 10_000, vatMinor: 2_550 },
      { vatBasisPoints: 1350, netMinor: 500, vatMinor: 68 }, // 67.5 → 68
      { vatBasisPoints: 1200, netMinor: 27_101, vatMinor: 3_252 }, // 3 252.12
      { vatBasisPoints: 1000, netMinor: 10_000, vatMinor: 1_000 },
      { vatBasisPoints: 600, netMinor: 5_997, vatMinor: 360 }, // 359.82
      { vatBasisPoints: 0, netMinor: 5_000, vatMinor: 0 },
    ]);
    expect(totals.netMinor).toBe(58_598);
    expect(totals.vatMinor).toBe(7_230);
    expect(totals.grossMinor).toBe(65_828);
    expect(totals.toPayMinor).toBe(65_828);
    expect(totals.taxReduction).toBeNull();
    expectConsistent(totals);
  });

  // vat-rot-rut.md §3.5: labour 40 000 + material 10 000 SEK excl. VAT, 25 %.
  const rotRows: InvoiceRowInput[] = [
    { quantity: 40_000, unitPriceMinor: 1_000 * SEK, vatBasisPoints: 2500, kind: 'labour' },
    { quantity: 1000, unitPriceMinor: 10_000 * SEK, vatBasisPoints: 2500, kind: 'material' },
  ];

  it.each([
    ['2024-06-28', 15_000, 47_500],
    ['2026-02-27', 15_000, 47_500],
    ['2025-06-30', 25_000, 37_500],
  ])('ROT paid %s: reduction %i SEK, buyer pays %i SEK (§3.5)', (paymentDate, reduction, toPay) => {
    const totals = computeInvoiceTotals(rotRows, { type: 'rot', paymentDate });
    expect(totals.grossMinor).toBe(62_500 * SEK);
    expect(totals.vatMinor).toBe(12_500 * SEK);
    expect(totals.labour).toEqual({
      netMinor: 40_000 * SEK,
      vatMinor: 10_000 * SEK,
      grossMinor: 50_000 * SEK,
    });
    expect(totals.taxReductionMinor).toBe(reduction * SEK);
    expect(totals.toPayMinor).toBe(toPay * SEK);
    expectConsistent(totals);
  });

  it('RUT on cleaning 4 000 SEK excl. VAT: reduction 2 500, buyer pays 2 500 (§3.5)', () => {
    const totals = computeInvoiceTotals(
      [{ quantity: 1000, unitPriceMinor: 4_000 * SEK, vatBasisPoints: 2500, kind: 'labour' }],
      { type: 'rut', paymentDate: '2026-01-15' },
    );
    expect(totals.grossMinor).toBe(5_000 * SEK);
    expect(totals.taxReduction).toEqual({
      type: 'rut',
      rateBasisPoints: 5000,
      uncappedMinor: 2_500 * SEK,
      deductionMinor: 2_500 * SEK,
      isCapped: false,
    });
    expect(totals.toPayMinor).toBe(2_500 * SEK);
  });

  it('only labour rows count for the reduction, and the reduction leaves the VAT unchanged', () => {
    const rows: InvoiceRowInput[] = [
      ...rotRows,
      { quantity: 1000, unitPriceMinor: 500 * SEK, vatBasisPoints: 2500, kind: 'other' }, // travel
      { quantity: 1000, unitPriceMinor: 300 * SEK, vatBasisPoints: 2500 }, // no kind: other
    ];
    const without = computeInvoiceTotals(rows);
    const withRot = computeInvoiceTotals(rows, { type: 'rot', paymentDate: '2026-03-01' });
    expect(withRot.vatMinor).toBe(without.vatMinor);
    expect(withRot.grossMinor).toBe(without.grossMinor);
    expect(withRot.labour.grossMinor).toBe(50_000 * SEK);
    expect(withRot.taxReductionMinor).toBe(15_000 * SEK);
    expect(withRot.toPayMinor).toBe(without.grossMinor - 15_000 * SEK);
  });

  it('applies the cap, default or given', () => {
    const big: InvoiceRowInput[] = [
      { quantity: 1000, unitPriceMinor: 200_000 * SEK, vatBasisPoints: 2500, kind: 'labour' },
    ];
    const capped = computeInvoiceTotals(big, { type: 'rot', paymentDate: '2026-03-01' });
    expect(capped.taxReduction).toMatchObject({
      uncappedMinor: 75_000 * SEK,
      deductionMinor: 50_000 * SEK,
      isCapped: true,
    });
    expect(capped.toPayMinor).toBe(250_000 * SEK - 50_000 * SEK);
    const shared = computeInvoiceTotals(big, {
      type: 'rot',
      paymentDate: '2026-03-01',
      availableCapMinor: 100_000 * SEK,
    });
    expect(shared.taxReductionMinor).toBe(75_000 * SEK);
  });

  it('labour VAT is rounded once per rate within the labour rows', () => {
    const rows: InvoiceRowInput[] = [
      { quantity: 1000, unitPriceMinor: 3, vatBasisPoints: 2500, kind: 'labour' },
      { quantity: 1000, unitPriceMinor: 3, vatBasisPoints: 2500, kind: 'labour' },
      { quantity: 1000, unitPriceMinor: 3, vatBasisPoints: 2500, kind: 'material' },
    ];
    const totals = computeInvoiceTotals(rows, { type: 'rut', paymentDate: '2026-03-01' });
    expect(totals.labour).toEqual({ netMinor: 6, vatMinor: 2, grossMinor: 8 }); // 1.5 → 2
    expect(totals.vatMinor).toBe(2); // 2.25 → 2
    expect(totals.taxReductionMinor).toBe(4);
    expectConsistent(totals);
  });

  it('gives no reduction when the labour is zero or negative', () => {
    const totals = computeInvoiceTotals(
      [{ quantity: -1000, unitPriceMinor: 10_000, vatBasisPoints: 2500, kind: 'labour' }],
      { type: 'rot', paymentDate: '2026-03-01' },
    );
    expect(totals.taxReductionMinor).toBe(0);
    expect(totals.toPayMinor).toBe(-12_500);
  });

  it('throws on bad rows or settings', () => {
    const ok = { quantity: 1000, unitPriceMinor: 100, vatBasisPoints: 2500 };
    expect(() => computeInvoiceTotals([{ ...ok, quantity: 0.5 }])).toThrow(RangeError);
    expect(() => computeInvoiceTotals([{ ...ok, unitPriceMinor: 1.25 }])).toThrow(RangeError);
    expect(() => computeInvoiceTotals([{ ...ok, vatBasisPoints: 25 * 1.1 }])).toThrow(RangeError);
    expect(() => computeInvoiceTotals([{ ...ok, vatBasisPoints: 10_001 }])).toThrow(RangeError);
    expect(() => computeInvoiceTotals([{ ...ok, kind: 'travel' as RowKind }])).toThrow(RangeError);
    expect(() => computeInvoiceTotals([ok], { type: 'rot', paymentDate: '2023-01-01' })).toThrow(RangeError);
    // Ten rows of 10^15 öre each: the sum leaves the safe integer range.
    const huge = { ...ok, quantity: 1_000_000_000, unitPriceMinor: 1_000_000_000 };
    expect(() => computeInvoiceTotals(Array.from({ length: 10 }, () => huge))).toThrow(RangeError);
  });

  it('adds up to the öre, mirrors credits exactly and ignores row order (3000 seeded invoices)', () => {
    const random = seededRandom(2026);
    const rates = [2500, 1200, 600, 0, 2550, 1350, 1400, 1000, 2400];
    const kinds = [...ROW_KINDS, 'none'] as const;
    for (let i = 0; i < 3000; i++) {
      const rows = Array.from({ length: random.int(0, 12) }, (): InvoiceRowInput => {
        const kind = random.pick(kinds);
        const row = {
          quantity: random.int(-5_000, 500_000),
          unitPriceMinor: random.int(-100_000, 10_000_000),
          vatBasisPoints: random.pick(rates),
        };
        return kind === 'none' ? row : { ...row, kind };
      });
      const settings =
        random.next() < 0.5
          ? {
              type: random.pick(['rot', 'rut'] as const),
              paymentDate: random.pick(['2025-01-10', '2025-07-01', '2026-05-05']),
            }
          : null;
      const totals = computeInvoiceTotals(rows, settings);
      expectConsistent(totals);

      // Each rounding is within half a unit of the exact value.
      rows.forEach((row, j) => {
        expect(
          Math.abs((totals.rowNetsMinor[j] ?? 0) * 1000 - row.quantity * row.unitPriceMinor),
        ).toBeLessThanOrEqual(500);
      });
      for (const rate of totals.vatByRate) {
        expect(Math.abs(rate.vatMinor * 10_000 - rate.netMinor * rate.vatBasisPoints)).toBeLessThanOrEqual(
          5_000,
        );
      }
      if (totals.taxReduction) {
        expect(totals.taxReductionMinor).toBeGreaterThanOrEqual(0);
        expect(totals.taxReductionMinor).toBeLessThanOrEqual(Math.max(0, totals.labour.grossMinor));
      }

      // A credit invoice (every quantity negated) is the exact negative, without ROT/RUT.
      const credit = computeInvoiceTotals(rows.map((r) => ({ ...r, quantity: -r.quantity })));
      const plain = computeInvoiceTotals(rows);
      expect(credit.grossMinor).toBe(-plain.grossMinor || 0);
      expect(credit.vatMinor).toBe(-plain.vatMinor || 0);
      expect(credit.rowNetsMinor).toEqual(plain.rowNetsMinor.map((n) => -n || 0));

      // The browser may list rows in another order; the totals must not change.
      const shuffled = [...rows].reverse();
      const again = computeInvoiceTotals(shuffled, settings);
      expect(again.grossMinor).toBe(totals.grossMinor);
      expect(again.vatByRate).toEqual(totals.vatByRate);
      expect(again.toPayMinor).toBe(totals.toPayMinor);
    }
  });
});
