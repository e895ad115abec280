import { describe, expect, it } from 'vitest';
import {
  allocateMinor,
  assertMinorUnits,
  CURRENCIES,
  formatAmount,
  formatMoney,
  isCurrency,
  MONEY_LOCALES,
  type MoneyLocale,
  multiplyDivide,
  parseMoney,
  parseMoneyOrNull,
  roundHalfEven,
  roundHalfUp,
  sumMinor,
  toCurrency,
  toDecimalString,
} from './money';
import { seededRandom } from './test-support/seeded-random';

const MAX = Number.MAX_SAFE_INTEGER;

// Intl uses no-break and narrow no-break spaces; compare with plain spaces.
const plain = (s: string) => s.replace(/\s/g, ' ');

describe('roundHalfUp (half away from zero, the portal rule)', () => {
  it.each([
    [5, 2, 3],
    [-5, 2, -3],
    [7, 2, 4],
    [-7, 2, -4],
    [1, 3, 0],
    [2, 3, 1],
    [-2, 3, -1],
    [10, -4, -3],
    [-10, -4, 3],
    [4995, 1000, 5],
    [4994, 1000, 5],
    [4499, 1000, 4],
    [MAX, 1, MAX],
    [MAX, 2, 4503599627370496],
    [-MAX, 2, -4503599627370496],
  ])('%i / %i → %i', (n, d, q) => {
    expect(roundHalfUp(n, d)).toBe(q);
  });

  it('never returns negative zero', () => {
    expect(Object.is(roundHalfUp(-1, 3), 0)).toBe(true);
    expect(Object.is(roundHalfUp(0, -5), 0)).toBe(true);
  });

  it('throws on a zero denominator or non-integers', () => {
    expect(() => roundHalfUp(1, 0)).toThrow(RangeError);
    expect(() => roundHalfUp(1.5, 2)).toThrow(RangeError);
    expect(() => roundHalfUp(1, 2.5)).toThrow(RangeError);
    expect(() => roundHalfUp(MAX + 1, 2)).toThrow(RangeError);
    expect(() => roundHalfUp(Number.NaN, 2)).toThrow(RangeError);
  });

  it('matches sign(x)·round(|x|) and is symmetric, for 5000 seeded cases', () => {
    const random = seededRandom(20250101);
    for (let i = 0; i < 5000; i++) {
      const n = random.int(-1_000_000, 1_000_000);
      const d = random.pick([1, 2, 3, 4, 7, 10, 100, 1000, 10_000]) * random.pick([1, -1]);
      const x = n / d;
      const expected = Math.sign(x) * Math.round(Math.abs(x)) || 0;
      expect(roundHalfUp(n, d)).toBe(expected);
      expect(roundHalfUp(-n, d)).toBe(-roundHalfUp(n, d) || 0);
    }
  });
});

describe('roundHalfEven', () => {
  it.each([
    [5, 2, 2],
    [7, 2, 4],
    [-5, 2, -2],
    [-7, 2, -4],
    [1, 4, 0],
    [3, 4, 1],
    [6, 4, 2],
    [10, 4, 2],
    [14, 4, 4],
    [2, 3, 1],
    [-2, 3, -1],
    [5, -2, -2],
  ])('%i / %i → %i', (n, d, q) => {
    expect(roundHalfEven(n, d)).toBe(q);
  });

  it('differs from roundHalfUp only on exact halves with an even floor, for 5000 seeded cases', () => {
    const random = seededRandom(7);
    for (let i = 0; i < 5000; i++) {
      const n = random.int(-100_000, 100_000);
      const d = random.pick([2, 4, 6, 8, 10, 3]);
      const up = roundHalfUp(n, d);
      const even = roundHalfEven(n, d);
      const isHalf = (2 * Math.abs(n)) % d === 0 && Math.abs(n) % d !== 0;
      if (!isHalf) expect(even).toBe(up);
      else expect(Math.abs(even) % 2).toBe(0);
      expect(Math.abs(even - up)).toBeLessThanOrEqual(1);
    }
  });
});

describe('multiplyDivide', () => {
  it('rounds a × b / divisor once, exactly, even when a × b is beyond the safe range', () => {
    expect(multiplyDivide(1500, 333, 1000)).toBe(500); // 1.5 × 3.33 = 4.995 → 5.00
    expect(multiplyDivide(2 ** 52, 1000, 1000)).toBe(2 ** 52);
    expect(multiplyDivide(MAX, 2550, 10_000)).toBe(2296835809958953); // 2296835809958952.705
    expect(multiplyDivide(5, 1, 2, 'half-even')).toBe(2);
    expect(multiplyDivide(-5, 1, 2)).toBe(-3);
  });

  it('throws when the result is outside the safe range or the input is not integer', () => {
    expect(() => multiplyDivide(MAX, 2, 1)).toThrow(RangeError);
    expect(() => multiplyDivide(1, 0.5, 1)).toThrow(RangeError);
    expect(() => multiplyDivide(1, 1, 0)).toThrow(RangeError);
  });
});

describe('sumMinor and assertMinorUnits', () => {
  it('adds integers and refuses floats and overflow', () => {
    expect(sumMinor([])).toBe(0);
    expect(sumMinor([1, -2, 3])).toBe(2);
    expect(() => sumMinor([0.1, 0.2])).toThrow(RangeError);
    expect(() => sumMinor([MAX, 1])).toThrow(RangeError);
    expect(() => assertMinorUnits(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => assertMinorUnits(12)).not.toThrow();
  });
});

describe('allocateMinor', () => {
  it.each([
    [100, [1, 1, 1], [34, 33, 33]],
    [-100, [1, 1, 1], [-34, -33, -33]],
    [5, [0, 1], [0, 5]],
    [1, [1, 1], [1, 0]],
    [1000, [3, 1], [750, 250]],
    [0, [2, 5], [0, 0]],
  ])('%i over %j → %j', (total, weights, parts) => {
    expect(allocateMinor(total, weights)).toEqual(parts);
  });

  it('throws on bad weights', () => {
    expect(() => allocateMinor(10, [])).toThrow(RangeError);
    expect(() => allocateMinor(10, [0, 0])).toThrow(RangeError);
    expect(() => allocateMinor(10, [-1, 2])).toThrow(RangeError);
    expect(() => allocateMinor(10, [0.5])).toThrow(RangeError);
  });

  it('parts add up to the total and stay within one unit of the exact share, for 2000 seeded cases', () => {
    const random = seededRandom(42);
    for (let i = 0; i < 2000; i++) {
      const total = random.int(-10_000_000, 10_000_000);
      const weights = Array.from({ length: random.int(1, 6) }, () => random.int(0, 100));
      if (!weights.some((w) => w > 0)) weights[0] = 1;
      const parts = allocateMinor(total, weights);
      expect(sumMinor(parts)).toBe(total);
      const weightSum = weights.reduce((a, b) => a + b, 0);
      parts.forEach((p, j) => {
        expect(Number.isSafeInteger(p)).toBe(true);
        expect(Math.abs(p - (total * (weights[j] ?? 0)) / weightSum)).toBeLessThan(1);
      });
    }
  });
});

describe('parseMoney', () => {
  const sv = { locale: 'sv-SE' } as const;
  const en = { locale: 'en-US' } as const;
  const fi = { locale: 'fi-FI' } as const;

  it.each([
    ['1 234,50', 123450],
    ['1234.5', 123450],
    ['−12,00', -1200],
    ['-12,00', -1200],
    ['–12,00', -1200],
    ['+5', 500],
    ['12', 1200],
    ['0,5', 50],
    [',5', 50],
    ['0,05', 5],
    ['1\u00a0234,50 kr', 123450],
    ['1\u202f234\u202f567,89', 123456789],
    ['1.234,50', 123450],
    ['1.234.567', 123456700],
    ['1,234.50', 123450],
    ['125:-', 12500],
    ['SEK 99', 9900],
    ['12,340', 1234],
    ['  7,1  ', 710],
    ['007', 700],
    ['90071992547409,91', MAX],
  ])('sv-SE %j → %i', (text, minor) => {
    expect(parseMoney(text, sv)).toEqual({ ok: true, minor });
  });

  it.each([
    ['1,234.50', 123450],
    ['1234.5', 123450],
    ['1,234', 123400],
    ['1,234,567', 123456700],
    ['1 234.50', 123450],
    ['-SEK 1,234.50', -123450],
    ['-€1,234.50', -123450],
    ['€0.99', 99],
    ['.5', 50],
    ['1.5 EUR', 150],
  ])('en-US %j → %i', (text, minor) => {
    expect(parseMoney(text, en)).toEqual({ ok: true, minor });
  });

  it.each([
    ['1 234,50 €', 123450],
    ['−1 234,50 €', -123450],
    ['0,10', 10],
  ])('fi-FI %j → %i', (text, minor) => {
    expect(parseMoney(text, { ...fi, currency: 'EUR' })).toEqual({ ok: true, minor });
  });

  it.each([
    ['', sv, 'empty'],
    ['   ', sv, 'empty'],
    ['abc', sv, 'invalid'],
    ['kr', sv, 'invalid'],
    ['12 34', sv, 'invalid'],
    ['1  234', sv, 'invalid'],
    ['1,2,3', sv, 'invalid'],
    ['12.3.4', sv, 'invalid'],
    ['1.234 567,00', sv, 'invalid'],
    ['5,', sv, 'invalid'],
    [',', sv, 'invalid'],
    ['1e5', sv, 'invalid'],
    ['--5', sv, 'invalid'],
    ['5-', sv, 'invalid'],
    ['1,234.5,6', sv, 'invalid'],
    ['12,50', en, 'invalid'],
    ['1234,5', en, 'invalid'],
    ['$5', en, 'invalid'],
    ['12,345', sv, 'too_many_decimals'],
    ['0,001', sv, 'too_many_decimals'],
    ['1.234', sv, 'too_many_decimals'],
    ['90071992547409,92', sv, 'out_of_range'],
    ['99999999999999,99', sv, 'out_of_range'],
    ['1 234 567 890 123 456,00', sv, 'out_of_range'],
  ] as const)('%j (%o) is refused as %s', (text, options, error) => {
    expect(parseMoney(text, options)).toEqual({ ok: false, error });
  });

  it('returns 0, not −0, for a negative zero', () => {
    const result = parseMoney('-0,00', sv);
    expect(result.ok && Object.is(result.minor, 0)).toBe(true);
  });

  it('parseMoneyOrNull gives the value or null', () => {
    expect(parseMoneyOrNull('1 234,50', sv)).toBe(123450);
    expect(parseMoneyOrNull('12,345', sv)).toBeNull();
  });
});

describe('formatMoney and formatAmount', () => {
  it.each([
    [123450, 'SEK', 'sv-SE', '1 234,50 kr'],
    [123450, 'SEK', 'en-US', 'SEK 1,234.50'],
    [123450, 'EUR', 'fi-FI', '1 234,50 €'],
    [123450, 'EUR', 'en-US', '€1,234.50'],
    [-50, 'SEK', 'sv-SE', '−0,50 kr'],
    [-50, 'EUR', 'en-US', '-€0.50'],
    [-123456789, 'EUR', 'fi-FI', '−1 234 567,89 €'],
    [0, 'SEK', 'sv-SE', '0,00 kr'],
    [7, 'EUR', 'en-US', '€0.07'],
    [MAX, 'SEK', 'sv-SE', '90 071 992 547 409,91 kr'],
    [-MAX, 'EUR', 'en-US', '-€90,071,992,547,409.91'],
  ] as const)('%i %s in %s → %s', (minor, currency, locale, text) => {
    expect(plain(formatMoney(minor, currency, locale))).toBe(text);
  });

  it.each([
    [123450, 'sv-SE', '1 234,50'],
    [123450, 'fi-FI', '1 234,50'],
    [123450, 'en-US', '1,234.50'],
    [-1, 'sv-SE', '−0,01'],
    [100, 'en-US', '1.00'],
  ] as const)('amount %i in %s → %s', (minor, locale, text) => {
    expect(plain(formatAmount(minor, locale))).toBe(text);
  });

  it('refuses non-integers', () => {
    expect(() => formatMoney(12.5, 'SEK', 'sv-SE')).toThrow(RangeError);
    expect(() => formatAmount(MAX + 2, 'sv-SE')).toThrow(RangeError);
  });

  it('toDecimalString writes a plain machine decimal', () => {
    expect(toDecimalString(-123450)).toBe('-1234.50');
    expect(toDecimalString(5)).toBe('0.05');
    expect(toDecimalString(-5)).toBe('-0.05');
    expect(toDecimalString(0, 'EUR')).toBe('0.00');
    expect(toDecimalString(MAX)).toBe('90071992547409.91');
  });

  it('parses back what it formats, in every locale and currency, for 3000 seeded amounts', () => {
    const random = seededRandom(1234);
    for (let i = 0; i < 3000; i++) {
      // Magnitudes from a few öre up to the safe limit.
      const digits = random.int(1, 16);
      let minor = Number(
        Array.from({ length: digits }, (_, j) => String(random.int(j === 0 ? 1 : 0, 9))).join(''),
      );
      if (!Number.isSafeInteger(minor)) minor = MAX - random.int(0, 1000);
      if (random.next() < 0.5) minor = -minor;
      for (const locale of MONEY_LOCALES as readonly MoneyLocale[]) {
        for (const currency of CURRENCIES) {
          expect(parseMoney(formatMoney(minor, currency, locale), { locale, currency })).toEqual({
            ok: true,
            minor,
          });
        }
        expect(parseMoneyOrNull(formatAmount(minor, locale), { locale })).toBe(minor);
        expect(parseMoneyOrNull(toDecimalString(minor), { locale })).toBe(minor);
      }
    }
  });
});

describe('isCurrency and toCurrency', () => {
  it.each([
    ['SEK', true, 'SEK'],
    ['EUR', true, 'EUR'],
    ['sek', false, 'SEK'],
    ['NOK', false, 'SEK'],
    ['', false, 'SEK'],
  ] as const)('%j: issued %s, read as %s', (code, issued, currency) => {
    expect(isCurrency(code)).toBe(issued);
    expect(toCurrency(code)).toBe(currency);
  });
});
