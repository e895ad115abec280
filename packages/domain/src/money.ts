/**
 * Money in integer minor units (öre, cents). Every amount the portal stores, sends or adds up is a
 * safe integer `number` of minor units; decimals exist only in what a person types or reads.
 *
 * The portal's rounding rule is **half away from zero** (`roundHalfUp`), applied once per invoice row,
 * once per VAT rate and once per tax reduction (shared/domain/vat-rot-rut.md: "round each VAT amount and
 * each deduction once"). Why this rule: it is the commercial rounding that buyers, accountants and
 * accounting systems check an invoice by (half an öre goes up), and it is symmetric, so a credit row is
 * the exact negative of the row it credits. Half-even (`roundHalfEven`) only removes a bias that matters
 * over many roundings; an invoice rounds a handful of times.
 */

import { readGroupedInteger } from './grouped-digits';

/** Currencies the portal issues invoices in. */
export const CURRENCIES = ['SEK', 'EUR'] as const;
/** `SEK` or `EUR`. */
export type Currency = (typeof CURRENCIES)[number];

/**
 * True for a currency the portal issues in (`SEK`, `EUR`; exact and case-sensitive, so "sek" is
 * not). Narrows a currency code read from an answer or a row to `Currency`.
 */
export function isCurrency(value: string): value is Currency {
  return (CURRENCIES as readonly string[]).includes(value);
}

/**
 * A stored or typed currency code as a `Currency` for the money functions: `SEK` and `EUR` as they
 * are, anything else (which the portal never stores: an issuer's currencies are SEK and EUR) SEK,
 * whose two decimals every code the portal reads has.
 */
export function toCurrency(code: string): Currency {
  return isCurrency(code) ? code : 'SEK';
}

/** Minor units per major unit is 10^digits; both SEK (öre) and EUR (cent) have two. */
export const CURRENCY_MINOR_DIGITS: Readonly<Record<Currency, number>> = { SEK: 2, EUR: 2 };

/** Locales the portal formats and parses money in (spec §9). */
export const MONEY_LOCALES = ['sv-SE', 'en-US', 'fi-FI'] as const;
/** `sv-SE`, `en-US` or `fi-FI`. */
export type MoneyLocale = (typeof MONEY_LOCALES)[number];

/** How a quotient is rounded to an integer. */
export type RoundingRule = 'half-away-from-zero' | 'half-even';

/** The one rule the portal uses for rows, VAT and tax reductions (see the module comment). */
export const PORTAL_ROUNDING_RULE: RoundingRule = 'half-away-from-zero';

/** Throws a RangeError unless `value` is a safe integer; `name` goes into the message. */
export function assertMinorUnits(value: number, name = 'amount'): void {
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`${name} must be a safe integer of minor units, got ${String(value)}`);
  }
}

function toSafeNumber(value: bigint, name: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`${name} is outside the safe integer range: ${value.toString()}`);
  }
  // Number(-0n) is 0, so a negative zero never leaves this module.
  return Number(value);
}

function roundQuotient(numerator: bigint, denominator: bigint, rule: RoundingRule): bigint {
  if (denominator === 0n) throw new RangeError('division by zero');
  // Work with a positive denominator; BigInt division truncates toward zero.
  const n = denominator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const quotient = n / d;
  const remainder = n % d;
  if (remainder === 0n) return quotient;
  const twice = 2n * (remainder < 0n ? -remainder : remainder);
  const away = n < 0n ? quotient - 1n : quotient + 1n;
  if (twice > d) return away;
  if (twice < d) return quotient;
  if (rule === 'half-away-from-zero') return away;
  return quotient % 2n === 0n ? quotient : away;
}

/**
 * `numerator / denominator` rounded to an integer, half away from zero (2.5 → 3, −2.5 → −3): the
 * portal's rule. Both arguments must be safe integers and the denominator non-zero; exact for the
 * whole safe range (no float division).
 */
export function roundHalfUp(numerator: number, denominator: number): number {
  assertMinorUnits(numerator, 'numerator');
  assertMinorUnits(denominator, 'denominator');
  return toSafeNumber(
    roundQuotient(BigInt(numerator), BigInt(denominator), 'half-away-from-zero'),
    'quotient',
  );
}

/**
 * `numerator / denominator` rounded to an integer, half to even (2.5 → 2, 3.5 → 4, −2.5 → −2).
 * Offered for reports that sum many rounded values; invoices use `roundHalfUp`.
 */
export function roundHalfEven(numerator: number, denominator: number): number {
  assertMinorUnits(numerator, 'numerator');
  assertMinorUnits(denominator, 'denominator');
  return toSafeNumber(roundQuotient(BigInt(numerator), BigInt(denominator), 'half-even'), 'quotient');
}

/**
 * `a × b / divisor` rounded once with `rule` (default: the portal's rule). The product is formed
 * exactly (BigInt), so it may exceed the safe range as long as the result does not, e.g.
 * quantity (thousandths) × unit price / 1000, or net × basis points / 10 000. Throws a RangeError on
 * non-integers, a zero divisor or a result outside the safe range.
 */
export function multiplyDivide(
  a: number,
  b: number,
  divisor: number,
  rule: RoundingRule = PORTAL_ROUNDING_RULE,
): number {
  assertMinorUnits(a, 'a');
  assertMinorUnits(b, 'b');
  assertMinorUnits(divisor, 'divisor');
  return toSafeNumber(roundQuotient(BigInt(a) * BigInt(b), BigInt(divisor), rule), 'result');
}

/** Sum of minor amounts; throws a RangeError on a non-integer or when the sum leaves the safe range. */
export function sumMinor(values: readonly number[]): number {
  let total = 0;
  for (const value of values) {
    assertMinorUnits(value);
    total += value;
    assertMinorUnits(total, 'sum');
  }
  return total;
}

/**
 * Splits `totalMinor` in proportion to non-negative integer `weights` so that the parts add up to the
 * total exactly (largest remainder; a tie goes to the earlier part). E.g. 100 öre over [1, 1, 1] →
 * [34, 33, 33]. A negative total is split like its absolute value and negated. Throws when the weights
 * are empty, negative or all zero.
 */
export function allocateMinor(totalMinor: number, weights: readonly number[]): number[] {
  assertMinorUnits(totalMinor, 'totalMinor');
  if (weights.length === 0) throw new RangeError('weights must not be empty');
  for (const w of weights) {
    if (!Number.isSafeInteger(w) || w < 0) throw new RangeError('weights must be non-negative integers');
  }
  const weightSum = weights.reduce((s, w) => s + BigInt(w), 0n);
  if (weightSum === 0n) throw new RangeError('weights must not all be zero');
  const sign = totalMinor < 0 ? -1n : 1n;
  const total = BigInt(totalMinor) * sign;
  const parts = weights.map((w) => (total * BigInt(w)) / weightSum);
  const remainders = weights.map((w, i) => ({ i, r: (total * BigInt(w)) % weightSum }));
  let left = total - parts.reduce((s, p) => s + p, 0n);
  remainders.sort((x, y) => (x.r === y.r ? x.i - y.i : x.r > y.r ? -1 : 1));
  for (const { i } of remainders) {
    if (left === 0n) break;
    parts[i] = (parts[i] ?? 0n) + 1n;
    left -= 1n;
  }
  return parts.map((p) => toSafeNumber(p * sign, 'part'));
}

/** Why a typed amount was refused; the UI maps these to messages. */
export type MoneyParseError = 'empty' | 'invalid' | 'too_many_decimals' | 'out_of_range';
/** The minor units of a typed amount, or why it was refused. */
export type MoneyParseResult = { ok: true; minor: number } | { ok: false; error: MoneyParseError };

/** How `parseMoney` reads separators and how many decimals it allows. */
export interface ParseMoneyOptions {
  /** Decides what a lone comma means: decimal in sv-SE and fi-FI, thousands separator in en-US. */
  locale: MoneyLocale;
  /** Sets the number of decimals (both SEK and EUR have two). Defaults to SEK. */
  currency?: Currency;
}

// Currency marks a user may type or paste around the number: codes, symbols and the Swedish "125:-".
const LEADING_CURRENCY_MARK = /^(?:sek|eur|kr|€)/i;
const TRAILING_CURRENCY_MARK = /(?:sek|eur|kr\.?|€|:-)$/i;
// Hyphen-minus, minus sign (U+2212, what sv-SE and fi-FI Intl output uses) and en dash.
const MINUS_SIGNS = new Set(['-', '\u2212', '\u2013']);

/**
 * Reads a typed amount into minor units exactly (string arithmetic, never a float).
 *
 * Accepted: an optional sign (`-`, `−`, `–`, `+`), digits, thousands groups of three separated by
 * spaces (any kind, incl. no-break space) or by the grouping character, one decimal separator, and a
 * currency mark before or after the number (`kr`, `SEK`, `EUR`, `€`, `:-`), which is ignored.
 * Separators are resolved as follows: when both `.` and `,` occur, the last one is the decimal
 * separator; a character that occurs more than once is grouping; a single `.` is decimal; a single `,`
 * is decimal in sv-SE and fi-FI and grouping in en-US. So "1 234,50", "1234.5", "−12,00" (sv-SE) and "1,234.50", "-SEK 1,234.50"
 * (en-US) all parse, and anything `formatMoney`/`formatAmount` writes parses back to the same value.
 *
 * Refused: more decimals than the currency has unless the extra ones are zeros (`too_many_decimals`,
 * never rounded), misplaced groups such as "12 34" or "12,50" in en-US (`invalid`), blank input
 * (`empty`) and values beyond `Number.MAX_SAFE_INTEGER` minor units (`out_of_range`).
 */
export function parseMoney(text: string, options: ParseMoneyOptions): MoneyParseResult {
  const fractionDigits = CURRENCY_MINOR_DIGITS[options.currency ?? 'SEK'];
  let s = text.trim();
  if (s === '') return { ok: false, error: 'empty' };
  s = s.replace(TRAILING_CURRENCY_MARK, '').trim().replace(LEADING_CURRENCY_MARK, '').trim();

  let negative = false;
  const first = s.charAt(0);
  if (MINUS_SIGNS.has(first) || first === '+') {
    negative = first !== '+';
    s = s.slice(1).trim().replace(LEADING_CURRENCY_MARK, '').trim();
  }
  s = s.replace(/\s/g, ' ');
  if (!/^[0-9 .,]*[0-9][0-9 .,]*$/.test(s)) return { ok: false, error: 'invalid' };

  const decimal = decimalSeparator(s, options.locale);
  const grouping = decimal === '.' || (decimal === null && s.includes(',')) ? ',' : '.';
  const decimalAt = decimal === null ? -1 : s.lastIndexOf(decimal);
  const integerText = decimalAt === -1 ? s : s.slice(0, decimalAt);
  const fractionText = decimalAt === -1 ? '' : s.slice(decimalAt + 1);

  if (decimalAt !== -1 && !/^[0-9]+$/.test(fractionText)) return { ok: false, error: 'invalid' };
  const integerDigits = readGroupedInteger(integerText, grouping);
  if (integerDigits === null) return { ok: false, error: 'invalid' };

  const kept = fractionText.slice(0, fractionDigits);
  if (/[^0]/.test(fractionText.slice(fractionDigits))) return { ok: false, error: 'too_many_decimals' };

  const digits = (integerDigits + kept.padEnd(fractionDigits, '0')).replace(/^0+/, '');
  if (digits.length > 16) return { ok: false, error: 'out_of_range' };
  const magnitude = digits === '' ? 0 : Number(digits);
  // A 16-digit string above 2^53 − 1 becomes a Number of at least 2^53, which is not safe.
  if (!Number.isSafeInteger(magnitude)) return { ok: false, error: 'out_of_range' };
  return { ok: true, minor: negative && magnitude !== 0 ? -magnitude : magnitude };
}

function decimalSeparator(s: string, locale: MoneyLocale): '.' | ',' | null {
  const dots = s.split('.').length - 1;
  const commas = s.split(',').length - 1;
  if (dots > 0 && commas > 0) return s.lastIndexOf('.') > s.lastIndexOf(',') ? '.' : ',';
  if (dots === 1) return '.';
  if (commas === 1) return locale === 'en-US' ? null : ',';
  return null;
}

/** `parseMoney` for places that only need the value: the minor units, or null when refused. */
export function parseMoneyOrNull(text: string, options: ParseMoneyOptions): number | null {
  const result = parseMoney(text, options);
  return result.ok ? result.minor : null;
}

/**
 * Minor units as a plain decimal string with a dot and all minor digits, e.g. −123450 → "-1234.50".
 * For machine formats (exports, e-invoices), never for display.
 */
export function toDecimalString(minor: number, currency: Currency = 'SEK'): string {
  assertMinorUnits(minor);
  const { sign, major, fraction } = splitMinor(minor, CURRENCY_MINOR_DIGITS[currency]);
  return `${sign < 0 ? '-' : ''}${major}${fraction === '' ? '' : `.${fraction}`}`;
}

// Integer split: |minor| = major × 10^digits + fraction, computed with % so nothing is a float.
function splitMinor(minor: number, digits: number): { sign: number; major: number; fraction: string } {
  const scale = 10 ** digits;
  const abs = Math.abs(minor);
  const rest = abs % scale;
  return {
    sign: minor < 0 ? -1 : 1,
    major: (abs - rest) / scale,
    fraction: digits === 0 ? '' : String(rest).padStart(digits, '0'),
  };
}

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(locale: MoneyLocale, currency: Currency | null): Intl.NumberFormat {
  const key = `${locale}|${currency ?? ''}`;
  let nf = formatters.get(key);
  if (nf === undefined) {
    const digits = CURRENCY_MINOR_DIGITS[currency ?? 'SEK'];
    nf =
      currency === null
        ? new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits })
        : new Intl.NumberFormat(locale, { style: 'currency', currency });
    formatters.set(key, nf);
  }
  return nf;
}

// Intl formats the whole major units (an integer, so exact) and we put our own minor digits in its
// fraction slot. −0 keeps the minus sign for amounts such as −0,50.
function formatSplit(minor: number, locale: MoneyLocale, currency: Currency | null): string {
  assertMinorUnits(minor);
  const { sign, major, fraction } = splitMinor(minor, CURRENCY_MINOR_DIGITS[currency ?? 'SEK']);
  const value = sign < 0 ? (major === 0 ? -0 : -major) : major;
  return formatter(locale, currency)
    .formatToParts(value)
    .map((part) => (part.type === 'fraction' ? fraction : part.value))
    .join('');
}

/**
 * Minor units shown with the currency in the user's locale: 123450 SEK → "1 234,50 kr" (sv-SE),
 * "SEK 1,234.50" (en-US); EUR in fi-FI → "1 234,50 €". Negative values use the locale's minus sign.
 * Exact for every safe integer (Intl only ever sees whole major units).
 */
export function formatMoney(minor: number, currency: Currency, locale: MoneyLocale): string {
  return formatSplit(minor, locale, currency);
}

/**
 * Minor units as a number with two decimals and the locale's separators but no currency, e.g. for an
 * input field: 123450 → "1 234,50" (sv-SE, fi-FI) or "1,234.50" (en-US). Parses back with `parseMoney`.
 */
export function formatAmount(minor: number, locale: MoneyLocale): string {
  return formatSplit(minor, locale, null);
}
