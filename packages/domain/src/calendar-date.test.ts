import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  daysBetween,
  daysInMonth,
  formatIsoDate,
  isLeapYear,
  isRealDate,
  isValidIsoDate,
  parseIsoDate,
} from './calendar-date';
import { seededRandom } from './test-support/seeded-random';

describe('calendar dates', () => {
  it.each([
    [2024, true],
    [2025, false],
    [2000, true],
    [1900, false],
    [2100, false],
    [1600, true],
  ])('leap year %i: %s', (year, leap) => {
    expect(isLeapYear(year)).toBe(leap);
  });

  it('knows the length of each month', () => {
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2025, 2)).toBe(28);
    expect(daysInMonth(2025, 4)).toBe(30);
    expect(daysInMonth(2025, 12)).toBe(31);
    expect(() => daysInMonth(2025, 13)).toThrow(RangeError);
    expect(() => daysInMonth(2025, 1.5)).toThrow(RangeError);
  });

  it.each(['2024-02-29', '2025-12-31', '0001-01-01', '9999-12-31', '2000-02-29'])('accepts %s', (d) => {
    expect(isValidIsoDate(d)).toBe(true);
  });

  it.each([
    '2025-02-29',
    '1900-02-29',
    '2025-13-01',
    '2025-00-10',
    '2025-04-31',
    '2025-1-01',
    '2025-01-1',
    '25-01-01',
    '2025/01/01',
    ' 2025-01-01',
    '2025-01-01T00:00',
    '0000-01-01',
    '',
  ])('refuses %j', (d) => {
    expect(isValidIsoDate(d)).toBe(false);
    expect(parseIsoDate(d)).toBeNull();
  });

  it('parses and formats', () => {
    expect(parseIsoDate('2025-03-09')).toEqual({ year: 2025, month: 3, day: 9 });
    expect(formatIsoDate({ year: 7, month: 3, day: 9 })).toBe('0007-03-09');
    expect(() => formatIsoDate({ year: 2025, month: 2, day: 29 })).toThrow(RangeError);
    expect(isRealDate(2025, 2, 28)).toBe(true);
    expect(isRealDate(10_000, 1, 1)).toBe(false);
  });

  it.each([
    ['2024-02-28', 1, '2024-02-29'],
    ['2024-02-29', 1, '2024-03-01'],
    ['2025-02-28', 1, '2025-03-01'],
    ['2025-12-31', 1, '2026-01-01'],
    ['2026-01-01', -1, '2025-12-31'],
    ['2025-01-31', 30, '2025-03-02'],
    ['2024-01-31', 30, '2024-03-01'],
    ['2025-03-15', 0, '2025-03-15'],
    ['1970-01-01', -1, '1969-12-31'],
    ['2000-02-28', 366, '2001-02-28'],
    ['2025-06-01', 3650, '2035-05-30'],
  ])('%s + %i days = %s', (date, days, result) => {
    expect(addDays(date, days)).toBe(result);
    expect(daysBetween(date, result)).toBe(days);
  });

  it('throws on invalid input or a result outside 0001-9999', () => {
    expect(() => addDays('2025-02-30', 1)).toThrow(RangeError);
    expect(() => addDays('2025-01-01', 1.5)).toThrow(RangeError);
    expect(() => addDays('9999-12-31', 1)).toThrow(RangeError);
    expect(() => addDays('0001-01-01', -1)).toThrow(RangeError);
    expect(() => daysBetween('2025-01-01', 'x')).toThrow(RangeError);
  });

  it('agrees with Date.UTC (which has no time zone) for 5000 seeded dates and offsets', () => {
    const random = seededRandom(99);
    const msPerDay = 86_400_000;
    for (let i = 0; i < 5000; i++) {
      const year = random.int(1600, 2400);
      const month = random.int(1, 12);
      const day = random.int(1, daysInMonth(year, month));
      const date = formatIsoDate({ year, month, day });
      const offset = random.int(-40_000, 40_000);
      const expected = new Date(Date.UTC(year, month - 1, day) + offset * msPerDay)
        .toISOString()
        .slice(0, 10);
      expect(addDays(date, offset)).toBe(expected);
      expect(daysBetween(date, expected)).toBe(offset);
    }
  });
});

describe('addMonths', () => {
  const monthly = (start: string, counts: number[]) => counts.map((months) => addMonths(start, months));

  it('counts each month from the start, taking the last day where the month is shorter', () => {
    expect(monthly('2025-01-31', [1, 2, 3, 13])).toEqual([
      '2025-02-28',
      '2025-03-31',
      '2025-04-30',
      '2026-02-28',
    ]);
    expect(monthly('2024-01-31', [1, 2])).toEqual(['2024-02-29', '2024-03-31']);
    expect(monthly('2024-02-29', [12, 48])).toEqual(['2025-02-28', '2028-02-29']);
    expect(monthly('2025-01-30', [1, 120])).toEqual(['2025-02-28', '2035-01-30']);
  });

  it('goes back as well as forward, across years, and nowhere for 0', () => {
    expect(monthly('2025-03-31', [-1, -13, 0])).toEqual(['2025-02-28', '2024-02-29', '2025-03-31']);
    expect(monthly('2025-12-15', [1, -12, 25])).toEqual(['2026-01-15', '2024-12-15', '2028-01-15']);
  });

  it('keeps the day of the month where the month has it, else takes its last day', () => {
    const random = seededRandom(7);
    for (let i = 0; i < 2000; i++) {
      const year = random.int(1900, 2200);
      const month = random.int(1, 12);
      const day = random.int(1, daysInMonth(year, month));
      const months = random.int(-240, 240);
      const result = parseIsoDate(addMonths(formatIsoDate({ year, month, day }), months));
      if (result === null) throw new Error('not a date');
      expect((result.year - year) * 12 + result.month - month).toBe(months);
      expect(result.day).toBe(Math.min(day, daysInMonth(result.year, result.month)));
    }
  });

  it('throws on invalid input or a result outside 0001-9999', () => {
    expect(() => addMonths('2025-02-30', 1)).toThrow(RangeError);
    expect(() => addMonths('2025-01-01', 0.5)).toThrow(RangeError);
    expect(() => addMonths('9999-12-01', 1)).toThrow(RangeError);
    expect(() => addMonths('0001-01-31', -1)).toThrow(RangeError);
  });
});
