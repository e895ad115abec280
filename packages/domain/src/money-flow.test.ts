import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DUNNING_STEPS, dunningStepOn, feeFor, interestFor, recourseDate } from './money-flow';

describe('feeFor', () => {
  it('adds the rounded percentage and the fixed fee', () => {
    // 1.50 % of 1 234,57 kr is 18,51855 kr: 1 852 öre after rounding, plus 25 kr.
    expect(feeFor(123_457, { percentBasisPoints: 150, fixedMinor: 2_500 })).toBe(1_852 + 2_500);
    expect(feeFor(123_457, { percentBasisPoints: 150, fixedMinor: 2_500 }, false)).toBe(1_852);
  });

  it('rounds half away from zero', () => {
    // 0.5 % of 101 öre is 0.505 öre → 1 öre; of 100 öre exactly 0.5 → 1.
    expect(feeFor(101, { percentBasisPoints: 50, fixedMinor: 0 })).toBe(1);
    expect(feeFor(100, { percentBasisPoints: 50, fixedMinor: 0 })).toBe(1);
    expect(feeFor(99, { percentBasisPoints: 50, fixedMinor: 0 })).toBe(0);
  });

  it('never takes more than the gross and nothing from nothing', () => {
    expect(feeFor(1_000, { percentBasisPoints: 0, fixedMinor: 5_000 })).toBe(1_000);
    expect(feeFor(0, { percentBasisPoints: 300, fixedMinor: 5_000 })).toBe(0);
    expect(feeFor(-500, { percentBasisPoints: 300, fixedMinor: 5_000 })).toBe(0);
  });

  it('keeps net = gross − fee within 0..gross for any terms', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (gross, bp, fixed) => {
          const fee = feeFor(gross, { percentBasisPoints: bp, fixedMinor: fixed });
          expect(Number.isSafeInteger(fee)).toBe(true);
          expect(fee).toBeGreaterThanOrEqual(0);
          expect(fee).toBeLessThanOrEqual(gross);
        },
      ),
    );
  });
});

describe('dunningStepOn', () => {
  it('moves through the steps on the set days after the due date', () => {
    const due = '2026-01-31';
    expect(dunningStepOn(due, '2026-01-31')).toBe(DUNNING_STEPS.none);
    expect(dunningStepOn(due, '2026-02-01')).toBe(DUNNING_STEPS.overdue);
    expect(dunningStepOn(due, '2026-02-09')).toBe(DUNNING_STEPS.overdue);
    expect(dunningStepOn(due, '2026-02-10')).toBe(DUNNING_STEPS.reminder1);
    expect(dunningStepOn(due, '2026-02-24')).toBe(DUNNING_STEPS.reminder2);
    expect(dunningStepOn(due, '2026-03-10')).toBe(DUNNING_STEPS.collection);
    expect(dunningStepOn(due, '2027-01-01')).toBe(DUNNING_STEPS.collection);
  });

  it('never goes back as days pass', () => {
    fc.assert(
      fc.property(fc.integer({ min: -30, max: 200 }), fc.integer({ min: 0, max: 60 }), (a, step) => {
        const due = '2026-03-01';
        const day = (n: number) => recourseDate(due, n);
        expect(dunningStepOn(due, day(a + step))).toBeGreaterThanOrEqual(dunningStepOn(due, day(a)));
      }),
    );
  });
});

describe('recourseDate and interestFor', () => {
  it('counts the agreed days from the due date', () => {
    expect(recourseDate('2026-12-15', 60)).toBe('2027-02-13');
  });

  it('charges simple interest per day on a 365-day year', () => {
    // 10 000 kr at 10 % for 73 days: 10 000 × 0.10 × 73/365 = 200 kr.
    expect(interestFor(1_000_000, 1_000, '2026-01-01', '2026-03-15')).toBe(20_000);
    expect(interestFor(1_000_000, 1_000, '2026-03-15', '2026-03-15')).toBe(0);
    expect(interestFor(0, 1_000, '2026-01-01', '2026-03-15')).toBe(0);
  });
});
