import { describe, expect, it } from 'vitest';
import { formatQuantity, parseQuantity } from './quantity';

describe('parseQuantity: typed quantities to thousandths, exactly', () => {
  it.each([
    ['2', 'sv-SE', 2000],
    ['1,5', 'sv-SE', 1500],
    ['1.5', 'sv-SE', 1500],
    ['0,125', 'fi-FI', 125],
    ['1.5', 'en-US', 1500],
    ['1,500', 'en-US', 1_500_000],
    ['1 500,25', 'sv-SE', 1_500_250],
    ['2,500', 'sv-SE', 2500],
    [' 3 ', 'en-US', 3000],
    ['1,5000', 'sv-SE', 1500],
    ['0', 'sv-SE', 0],
    ['-1', 'sv-SE', -1000],
  ] as const)('%s in %s is %d thousandths', (text, language, milli) => {
    expect(parseQuantity(text, language)).toEqual({ ok: true, milli });
  });

  it.each([
    ['', 'sv-SE', 'empty'],
    ['   ', 'en-US', 'empty'],
    ['abc', 'sv-SE', 'invalid'],
    ['1,5', 'en-US', 'invalid'],
    ['1,2,3', 'sv-SE', 'invalid'],
    ['12 34', 'sv-SE', 'invalid'],
    ['1,2345', 'sv-SE', 'too_many_decimals'],
    ['0.0001', 'en-US', 'too_many_decimals'],
    ['2000000', 'sv-SE', 'out_of_range'],
  ] as const)('refuses %j in %s: %s', (text, language, error) => {
    expect(parseQuantity(text, language)).toEqual({ ok: false, error });
  });

  it.each([
    [1500, 'sv-SE', '1,5'],
    [1500, 'en-US', '1.5'],
    [2000, 'fi-FI', '2'],
    [125, 'sv-SE', '0,125'],
    [1_234_500, 'en-US', '1234.5'],
  ] as const)('formats %d thousandths in %s as %s, which parses back', (milli, language, text) => {
    expect(formatQuantity(milli, language)).toBe(text);
    expect(parseQuantity(text, language)).toEqual({ ok: true, milli });
  });
});
