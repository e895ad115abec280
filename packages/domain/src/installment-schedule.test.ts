import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { daysInMonth, formatIsoDate } from './calendar-date';
import {
  computeInstallmentSchedule,
  type InstallmentPlanTerms,
  type InstallmentRow,
  type InstallmentSchedule,
  installmentCountBetween,
  installmentDueDate,
  installmentEndDate,
  MAX_PLAN_INSTALLMENTS,
  MAX_PLAN_TOTAL_MINOR,
} from './installment-schedule';
import { sumMinor } from './money';

const terms = (overrides: Partial<InstallmentPlanTerms> = {}): InstallmentPlanTerms => ({
  financedMinor: 1_000_000,
  noOfInstallments: 3,
  startDate: '2025-01-31',
  monthlyFeeMinor: 0,
  initialFeeMinor: 0,
  administrationFeeMinor: 0,
  currency: 'SEK',
  ...overrides,
});

/** A real date in the years every request may use (contracts DATE_MIN_YEAR..DATE_MAX_YEAR). */
const isoDate = fc
  .record({
    year: fc.integer({ min: 1900, max: 2199 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.nat(),
  })
  .map(({ year, month, day }) => formatIsoDate({ year, month, day: 1 + (day % daysInMonth(year, month)) }));

/** Any terms within the bounds; the amounts are kept so that the total stays under the maximum. */
const anyTerms: fc.Arbitrary<InstallmentPlanTerms> = fc.record({
  financedMinor: fc.oneof(fc.integer({ min: 0, max: 1_000 }), fc.integer({ min: 0, max: 7_000_000_000 })),
  noOfInstallments: fc.integer({ min: 1, max: MAX_PLAN_INSTALLMENTS }),
  startDate: isoDate,
  monthlyFeeMinor: fc.integer({ min: 0, max: 10_000_000 }),
  initialFeeMinor: fc.integer({ min: 0, max: 100_000_000 }),
  administrationFeeMinor: fc.integer({ min: 0, max: 10_000_000 }),
  currency: fc.constantFrom('SEK' as const, 'EUR' as const),
});

/** Checks `check` on the schedule of any terms (fast-check's default of 100 runs, shrunk on failure). */
function forAnyTerms(check: (terms: InstallmentPlanTerms, schedule: InstallmentSchedule) => void): void {
  fc.assert(fc.property(anyTerms, (terms) => check(terms, computeInstallmentSchedule(terms))));
}

describe('computeInstallmentSchedule', () => {
  it('splits the principal evenly, the rest on the last installment, and charges the fees as documented', () => {
    const schedule = computeInstallmentSchedule(
      terms({
        financedMinor: 1_000_000,
        monthlyFeeMinor: 1_900,
        initialFeeMinor: 39_500,
        administrationFeeMinor: 2_900,
      }),
    );
    // 10 000 kr over 3: 3 333,33 twice and 3 333,34 last; 395 kr once, 19 + 29 kr every month.
    expect(schedule.rows).toEqual([
      {
        number: 1,
        dueDate: '2025-02-28',
        principalMinor: 333_333,
        initialFeeMinor: 39_500,
        monthlyFeeMinor: 1_900,
        administrationFeeMinor: 2_900,
        feeMinor: 44_300,
        amountMinor: 377_633,
        remainingPrincipalMinor: 666_667,
      },
      {
        number: 2,
        dueDate: '2025-03-31',
        principalMinor: 333_333,
        initialFeeMinor: 0,
        monthlyFeeMinor: 1_900,
        administrationFeeMinor: 2_900,
        feeMinor: 4_800,
        amountMinor: 338_133,
        remainingPrincipalMinor: 333_334,
      },
      {
        number: 3,
        dueDate: '2025-04-30',
        principalMinor: 333_334,
        initialFeeMinor: 0,
        monthlyFeeMinor: 1_900,
        administrationFeeMinor: 2_900,
        feeMinor: 4_800,
        amountMinor: 338_134,
        remainingPrincipalMinor: 0,
      },
    ]);
    expect(schedule).toMatchObject({
      currency: 'SEK',
      startDate: '2025-01-31',
      endDate: '2025-04-30',
      noOfInstallments: 3,
      principalMinor: 1_000_000,
      initialFeeMinor: 39_500,
      monthlyFeesMinor: 5_700,
      administrationFeesMinor: 8_700,
      feesMinor: 53_900,
      totalMinor: 1_053_900,
    });
  });

  it('takes each month-end from the start, not from the month before (31 Jan → 29 Feb → 31 Mar)', () => {
    const dates = computeInstallmentSchedule(
      terms({ startDate: '2023-12-31', noOfInstallments: 4 }),
    ).rows.map((r) => r.dueDate);
    expect(dates).toEqual(['2024-01-31', '2024-02-29', '2024-03-31', '2024-04-30']);
  });

  it('has one installment carrying everything when the plan has one', () => {
    const schedule = computeInstallmentSchedule(
      terms({ noOfInstallments: 1, financedMinor: 12_345, initialFeeMinor: 100, monthlyFeeMinor: 10 }),
    );
    expect(schedule.rows).toHaveLength(1);
    expect(schedule.rows[0]).toMatchObject({ principalMinor: 12_345, feeMinor: 110, amountMinor: 12_455 });
    expect(schedule.endDate).toBe('2025-02-28');
  });

  it('puts a principal smaller than the count on the last installment', () => {
    const schedule = computeInstallmentSchedule(terms({ financedMinor: 5, noOfInstallments: 12 }));
    expect(schedule.rows.map((r) => r.principalMinor)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5]);
  });

  it('accepts the maximum total and the maximum count', () => {
    const schedule = computeInstallmentSchedule(
      terms({ financedMinor: MAX_PLAN_TOTAL_MINOR - 120 * 100, noOfInstallments: 120, monthlyFeeMinor: 100 }),
    );
    expect(schedule.totalMinor).toBe(MAX_PLAN_TOTAL_MINOR);
    expect(schedule.rows).toHaveLength(120);
    expect(schedule.endDate).toBe('2035-01-31');
  });

  it.each<[string, Partial<InstallmentPlanTerms>]>([
    ['a total above the maximum', { financedMinor: MAX_PLAN_TOTAL_MINOR + 1 }],
    [
      'fees that take the total above the maximum',
      { financedMinor: MAX_PLAN_TOTAL_MINOR, initialFeeMinor: 1 },
    ],
    ['a monthly fee beyond the safe range once multiplied', { monthlyFeeMinor: Number.MAX_SAFE_INTEGER }],
    ['a negative amount', { financedMinor: -1 }],
    ['a negative fee', { administrationFeeMinor: -100 }],
    ['a fraction of an öre', { monthlyFeeMinor: 0.5 }],
    ['no installments', { noOfInstallments: 0 }],
    ['more installments than allowed', { noOfInstallments: MAX_PLAN_INSTALLMENTS + 1 }],
    ['a fractional count', { noOfInstallments: 2.5 }],
    ['an invalid start date', { startDate: '2025-02-30' }],
    ['an unknown currency', { currency: 'NOK' as 'SEK' }],
  ])('refuses %s with a RangeError', (_what, overrides) => {
    expect(() => computeInstallmentSchedule(terms(overrides))).toThrow(RangeError);
  });

  it('adds up to the total to the öre, with one row per installment and nothing negative, for any terms', () => {
    forAnyTerms((t, s) => {
      expect(s.rows).toHaveLength(t.noOfInstallments);
      const sumOf = (part: (row: InstallmentRow) => number) => sumMinor(s.rows.map(part));
      expect(sumOf((r) => r.amountMinor)).toBe(s.totalMinor);
      expect(sumOf((r) => r.principalMinor)).toBe(t.financedMinor);
      expect(sumOf((r) => r.feeMinor)).toBe(s.feesMinor);
      expect(sumOf((r) => r.initialFeeMinor)).toBe(t.initialFeeMinor);
      expect(sumOf((r) => r.monthlyFeeMinor)).toBe(s.monthlyFeesMinor);
      expect(sumOf((r) => r.administrationFeeMinor)).toBe(s.administrationFeesMinor);
      const perInstallment = t.monthlyFeeMinor + t.administrationFeeMinor;
      expect(s.totalMinor).toBe(t.financedMinor + t.initialFeeMinor + t.noOfInstallments * perInstallment);
      expect(s.totalMinor).toBeLessThanOrEqual(MAX_PLAN_TOTAL_MINOR);
      for (const r of s.rows) {
        for (const value of [r.principalMinor, r.feeMinor, r.amountMinor, r.remainingPrincipalMinor]) {
          expect(Number.isSafeInteger(value)).toBe(true);
          expect(value).toBeGreaterThanOrEqual(0);
        }
        expect(r.amountMinor).toBe(r.principalMinor + r.feeMinor);
        expect(r.feeMinor).toBe(r.initialFeeMinor + r.monthlyFeeMinor + r.administrationFeeMinor);
      }
    });
  });

  it('gives every installment but the last the same principal, the last at most n − 1 öre more', () => {
    forAnyTerms((t, s) => {
      const principals = s.rows.map((r) => r.principalMinor);
      const base = Math.floor(t.financedMinor / t.noOfInstallments);
      for (const p of principals.slice(0, -1)) expect(p).toBe(base);
      const rest = (principals.at(-1) ?? 0) - base;
      expect(rest).toBeGreaterThanOrEqual(0);
      expect(rest).toBeLessThan(t.noOfInstallments);
    });
  });

  it('runs the due dates strictly upwards, a month apart, from after the start to the end date', () => {
    forAnyTerms((t, s) => {
      let previous = t.startDate;
      for (const r of s.rows) {
        expect(r.dueDate > previous).toBe(true);
        expect(r.dueDate).toBe(installmentDueDate(t.startDate, r.number));
        previous = r.dueDate;
      }
      expect(s.endDate).toBe(previous);
      expect(s.endDate).toBe(installmentEndDate(t.startDate, t.noOfInstallments));
      expect(installmentCountBetween(t.startDate, s.endDate)).toBe(t.noOfInstallments);
    });
  });

  it('pays the principal down to zero, one installment at a time', () => {
    forAnyTerms((t, s) => {
      let remaining = t.financedMinor;
      for (const r of s.rows) {
        remaining -= r.principalMinor;
        expect(r.remainingPrincipalMinor).toBe(remaining);
      }
      expect(remaining).toBe(0);
    });
  });
});

describe('installment dates', () => {
  const counts = (start: string, ends: string[]) => ends.map((end) => installmentCountBetween(start, end));

  it('counts the due dates from a month after the start up to the end date', () => {
    expect(counts('2025-01-10', ['2025-06-09', '2025-06-10', '2025-06-15', '2026-01-10'])).toEqual([
      4, 5, 5, 12,
    ]);
    expect(counts('2025-01-10', ['2025-01-10', '2025-02-09', '2024-12-10'])).toEqual([0, 0, 0]);
  });

  it('counts a month-end due date in a shorter month', () => {
    expect(counts('2025-01-31', ['2025-02-28', '2025-03-30', '2025-03-31'])).toEqual([1, 1, 2]);
    expect(counts('2024-01-31', ['2024-02-28', '2024-02-29'])).toEqual([0, 1]);
  });

  it('counts exactly the due dates on or before the end date, for any dates', () => {
    fc.assert(
      fc.property(isoDate, isoDate, (start, end) => {
        const count = installmentCountBetween(start, end);
        expect(count).toBeGreaterThanOrEqual(0);
        if (count >= 1 && count <= MAX_PLAN_INSTALLMENTS)
          expect(installmentDueDate(start, count) <= end).toBe(true);
        if (count < MAX_PLAN_INSTALLMENTS) expect(installmentDueDate(start, count + 1) > end).toBe(true);
      }),
    );
  });

  it('refuses invalid dates and counts', () => {
    expect(() => installmentCountBetween('2025-01-01', '2025-13-01')).toThrow(RangeError);
    expect(() => installmentEndDate('2025-01-01', 0)).toThrow(RangeError);
    expect(() => installmentDueDate('2025-01-01', MAX_PLAN_INSTALLMENTS + 1)).toThrow(RangeError);
    expect(() => installmentDueDate('x', 1)).toThrow(RangeError);
  });
});
