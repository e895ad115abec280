import { readGroupedInteger } from './grouped-digits';
import type { MoneyLocale } from './money';

/**
 * Invoice row quantities in integer thousandths (1500 = 1.5 units, 1.125 h = 1125), so that fractions
 * of an hour are exact without floats; decimals exist only in what a person types or reads. The
 * invoice form and the invoice import read typed quantities with the same `parseQuantity`.
 */

/** Thousandths per unit: a quantity of 1500 is 1.5 units. */
export const QUANTITY_SCALE = 1000;
/** Decimals a quantity may have: thousandths, e.g. 1,125 h. */
export const QUANTITY_DECIMALS = 3;
/** Largest quantity of one row, in thousandths: one million units (docs/MONEY.md "Money bounds"). */
export const MAX_QUANTITY_MILLI = 1_000_000_000;

/** Why a typed quantity was refused; the form and the import map these to their codes. */
export type QuantityParseError = 'empty' | 'invalid' | 'too_many_decimals' | 'out_of_range';
/** The thousandths of a typed quantity, or why it was refused. */
export type QuantityParseResult = { ok: true; milli: number } | { ok: false; error: QuantityParseError };

/**
 * Reads a typed quantity into thousandths exactly (the digits are joined as text, never multiplied as
 * a float): "1,5" → 1500 in sv-SE and fi-FI, "1.5" → 1500 everywhere, "2" → 2000.
 *
 * Separators: when both `.` and `,` occur the last one is the decimal mark; a single `.` is decimal;
 * a single `,` is decimal in sv-SE and fi-FI and groups thousands in en-US ("1,500" is 1500 units);
 * spaces (any kind) group thousands in every locale, in groups of three ("12 34" is refused).
 * A sign (`-`, `−`, `–`, `+`) is kept, so that the contract's own rule refuses zero or less.
 *
 * Refused: blank text (`empty`); letters, misplaced groups or a decimal mark without digits after
 * it (`invalid`); more than three decimals unless the extra ones are zeros ("1,5000" is 1500;
 * `too_many_decimals`, never rounded); more than `MAX_QUANTITY_MILLI` thousandths (`out_of_range`).
 */
export function parseQuantity(text: string, locale: MoneyLocale): QuantityParseResult {
  let s = text.replace(/\s/g, ' ').trim();
  if (s === '') return { ok: false, error: 'empty' };
  let negative = false;
  if (/^[-\u2212\u2013+]/.test(s)) {
    negative = !s.startsWith('+');
    s = s.slice(1).trim();
  }
  if (!/^[0-9 .,]*[0-9][0-9 .,]*$/.test(s)) return { ok: false, error: 'invalid' };
  const dots = s.split('.').length - 1;
  const commas = s.split(',').length - 1;
  let decimal: '.' | ',' | null = null;
  if (dots > 0 && commas > 0) decimal = s.lastIndexOf('.') > s.lastIndexOf(',') ? '.' : ',';
  else if (dots === 1) decimal = '.';
  else if (commas === 1 && locale !== 'en-US') decimal = ',';
  const at = decimal === null ? -1 : s.lastIndexOf(decimal);
  const integerText = at === -1 ? s : s.slice(0, at);
  const fractionText = at === -1 ? '' : s.slice(at + 1);
  if (at !== -1 && !/^[0-9]+$/.test(fractionText)) return { ok: false, error: 'invalid' };
  const integerDigits = readGroupedInteger(integerText, decimal === ',' ? '.' : ',');
  if (integerDigits === null) return { ok: false, error: 'invalid' };
  if (/[^0]/.test(fractionText.slice(QUANTITY_DECIMALS))) return { ok: false, error: 'too_many_decimals' };
  const digits = `${integerDigits}${fractionText.slice(0, QUANTITY_DECIMALS).padEnd(QUANTITY_DECIMALS, '0')}`;
  const trimmed = digits.replace(/^0+/, '');
  if (trimmed.length > 15) return { ok: false, error: 'out_of_range' };
  const magnitude = trimmed === '' ? 0 : Number(trimmed);
  if (magnitude > MAX_QUANTITY_MILLI) return { ok: false, error: 'out_of_range' };
  return { ok: true, milli: negative && magnitude !== 0 ? -magnitude : magnitude };
}

/**
 * Thousandths as a person would type them, without grouping and without trailing zeros: 1500 →
 * "1,5" (sv-SE, fi-FI) or "1.5" (en-US); 2000 → "2"; −1500 → "-1,5". `parseQuantity` reads it back
 * to the same value for every quantity up to `MAX_QUANTITY_MILLI`. `milli` must be an integer.
 */
export function formatQuantity(milli: number, locale: MoneyLocale): string {
  const abs = Math.abs(milli);
  const fraction = abs % QUANTITY_SCALE;
  const whole = (abs - fraction) / QUANTITY_SCALE;
  const decimalMark = locale === 'en-US' ? '.' : ',';
  const fractionText = String(fraction).padStart(QUANTITY_DECIMALS, '0').replace(/0+$/, '');
  const sign = milli < 0 ? '-' : '';
  return `${sign}${whole}${fractionText ? `${decimalMark}${fractionText}` : ''}`;
}
