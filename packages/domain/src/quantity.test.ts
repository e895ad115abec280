import { describe, expect, it } from 'vitest';
import { formatQuantity, MAX_QUANTITY_MILLI, parseQuantity, QUANTITY_SCALE } from './quantity';

describe('parseQuantity: typed quantities to thousandths, exactly', () => {
  it.each([
    ['2', 'sv-SE', 2000],
    ['1,5', 'sv-SE', 1500],
    ['1.5', 'sv-SE', 1500],
    ['0,125', 'fi-FI', 125],
    ['1.5', 'en-US', 1500],
    ['1,500', 'en-US', 1_500_000],
    ['1 500,25', 'sv-SE', 1_500_250],
    ['1\u00a0500,25', 'fi-FI', 1_500_250],
    ['1.000,5', 'sv-SE', 1_000_500],
    ['1,000.5', 'sv-SE', 1_000_500],
    ['2,500', 'sv-SE', 2500],
    [' 3 ', 'en-US', 3000],
    ['1,5000', 'sv-SE', 1500],
    [',5', 'sv-SE', 500],
    ['+2', 'sv-SE', 2000],
    ['0', 'sv-SE', 0],
    ['-0', 'sv-SE', 0],
    ['-1', 'sv-SE', -1000],
    ['\u22121,5', 'sv-SE', -1500],
    ['1000000', 'sv-SE', MAX_QUANTITY_MILLI],
    ['25', 'sv-SE', 25_000],
    ['12,5', 'sv-SE', 12_500],
  ] as const)('%j in %s is %d thousandths', (text, locale, milli) => {
    expect(parseQuantity(text, locale)).toEqual({ ok: true, milli });
  });

  it.each([
    ['', 'sv-SE', 'empty'],
    ['   ', 'en-US', 'empty'],
    ['abc', 'sv-SE', 'invalid'],
    ['1,5', 'en-US', 'invalid'],
    ['1,2,3', 'sv-SE', 'invalid'],
    ['12 34', 'sv-SE', 'invalid'],
    ['1 2', 'sv-SE', 'invalid'],
    ['1.000.000', 'sv-SE', 'invalid'],
    ['5.', 'sv-SE', 'invalid'],
    ['1e3', 'en-US', 'invalid'],
    ['1,2345', 'sv-SE', 'too_many_decimals'],
    ['0.0001', 'en-US', 'too_many_decimals'],
    ['1000000,001', 'sv-SE', 'out_of_range'],
    ['2000000', 'sv-SE', 'out_of_range'],
    ['999999999', 'sv-SE', 'out_of_range'],
    ['9999999999999999', 'sv-SE', 'out_of_range'],
  ] as const)('refuses %j in %s: %s', (text, locale, error) => {
    expect(parseQuantity(text, locale)).toEqual({ ok: false, error });
  });
});

describe('formatQuantity: thousandths as typed, read back by parseQuantity', () => {
  it.each([
    [1500, 'sv-SE', '1,5'],
    [1500, 'en-US', '1.5'],
    [2000, 'fi-FI', '2'],
    [125, 'sv-SE', '0,125'],
    [1_234_500, 'en-US', '1234.5'],
    [-1500, 'sv-SE', '-1,5'],
    [0, 'en-US', '0'],
    [QUANTITY_SCALE, 'fi-FI', '1'],
    [MAX_QUANTITY_MILLI, 'sv-SE', '1000000'],
  ] as const)('%d thousandths in %s is %j, which parses back', (milli, locale, text) => {
    expect(formatQuantity(milli, locale)).toBe(text);
    expect(parseQuantity(text, locale)).toEqual({ ok: true, milli });
  });
});
