import { isLuhnValid, luhnCheckDigit } from './luhn';

/**
 * Payment references the buyer quotes when paying (shared/domain/references-and-ids.md §2, §4.1,
 * §4.2): the Swedish OCR reference (Bankgirot), the Finnish national reference number (viitenumero)
 * and the international RF creditor reference (ISO 11649). References are strings: leading zeros
 * matter. Input is normalised by removing spaces and hyphens (and `+` for OCR), as the notes advise.
 */

/** Shortest Swedish OCR reference, check digit included (Bankgirot). */
export const OCR_MIN_LENGTH = 2;
/** Longest Swedish OCR reference, check and length digits included (Bankgirot). */
export const OCR_MAX_LENGTH = 25;

function toBaseDigits(base: string | number): string {
  if (typeof base === 'number') {
    if (!Number.isSafeInteger(base) || base < 0) {
      throw new RangeError(`base must be a non-negative safe integer, got ${String(base)}`);
    }
    return String(base);
  }
  const digits = base.replace(/[\s-]/g, '');
  if (!/^[0-9]+$/.test(digits)) throw new RangeError(`base must be digits, got ${JSON.stringify(base)}`);
  return digits;
}

/** Options of `createOcrReference` and `ocrReferenceBase`. */
export interface CreateOcrReferenceOptions {
  /**
   * Add the length digit (total length mod 10) before the check digit; default true. A reference
   * with it passes every control level a payee can agree with Bankgirot (soft, hard, variable length),
   * so the portal always generates it unless an issuer's agreement says otherwise.
   */
  lengthDigit?: boolean;
}

/**
 * Makes a Swedish OCR reference from a stable internal number (e.g. an invoice's sequence number) so
 * that it can be read back from a BGMAX payment (`ocrReferenceBase`). With the length digit: base +
 * (total length mod 10) + Luhn check digit over everything before it, e.g. 12345 → "1234574";
 * without: base + check digit, 12345 → "123455". Throws a RangeError when the base is not digits (a
 * number must be a non-negative safe integer) or the result would be longer than 25 digits (base at
 * most 23 digits with the length digit, 24 without).
 */
export function createOcrReference(base: string | number, options: CreateOcrReferenceOptions = {}): string {
  const digits = toBaseDigits(base);
  const withLength = options.lengthDigit ?? true;
  const total = digits.length + (withLength ? 2 : 1);
  if (total > OCR_MAX_LENGTH) throw new RangeError(`an OCR reference has at most ${OCR_MAX_LENGTH} digits`);
  const body = withLength ? digits + String(total % 10) : digits;
  return body + String(luhnCheckDigit(body));
}

/** The control level to check an OCR reference against; the default is the check digit only. */
export interface OcrCheckOptions {
  /** Also require the length digit (the "variabel längd" control level). Default false. */
  lengthDigit?: boolean;
  /** Only accept these total lengths (the "fast längd" control level: one or two agreed lengths). */
  lengths?: readonly number[];
}

/** Digits of an OCR reference as typed or printed: spaces, hyphens and `+` removed. */
export function normalizeOcrReference(text: string): string {
  return text.replace(/[\s+-]/g, '');
}

/**
 * True for a Swedish OCR reference: 2-25 digits whose last digit is the Luhn check digit over the
 * rest (the hard control level; soft differs only in what the bank does with a wrong one). Options add
 * the length-digit check or fixed lengths. E.g. "1234574" and "123455" are valid; "657775" passes the
 * check digit but not the length digit.
 */
export function isValidOcrReference(text: string, options: OcrCheckOptions = {}): boolean {
  const digits = normalizeOcrReference(text);
  if (!/^[0-9]+$/.test(digits) || digits.length < OCR_MIN_LENGTH || digits.length > OCR_MAX_LENGTH)
    return false;
  if (!isLuhnValid(digits)) return false;
  if (options.lengthDigit && Number(digits.at(-2)) !== digits.length % 10) return false;
  if (options.lengths && !options.lengths.includes(digits.length)) return false;
  return true;
}

/**
 * The internal number behind an OCR reference made by `createOcrReference` with the same option:
 * the digits without the check digit (and the length digit, default). Null when the reference does
 * not pass those checks. E.g. "1234574" → "12345".
 */
export function ocrReferenceBase(text: string, options: CreateOcrReferenceOptions = {}): string | null {
  const withLength = options.lengthDigit ?? true;
  const digits = normalizeOcrReference(text);
  if (!isValidOcrReference(digits, { lengthDigit: withLength })) return null;
  const base = digits.slice(0, withLength ? -2 : -1);
  return base === '' ? null : base;
}

// Finnish reference number: weights 7, 3, 1 from the rightmost digit of the base.
const FI_WEIGHTS = [7, 3, 1] as const;

function finnishCheckDigit(base: string): number {
  let sum = 0;
  for (let i = 0; i < base.length; i++) {
    sum += (base.charCodeAt(base.length - 1 - i) - 48) * (FI_WEIGHTS[i % 3] as number);
  }
  return (10 - (sum % 10)) % 10;
}

/**
 * Makes a Finnish reference number (viitenumero): the base with leading zeros removed, 3-19 digits,
 * plus the 7-3-1 check digit, e.g. 12345 → "123453", 100 → "1009". Throws a RangeError for a base that
 * is not digits or is shorter than 3 or longer than 19 digits without its leading zeros.
 */
export function createFinnishReference(base: string | number): string {
  const digits = toBaseDigits(base).replace(/^0+/, '');
  if (digits.length < 3 || digits.length > 19) {
    throw new RangeError('a Finnish reference base has 3-19 digits (leading zeros not counted)');
  }
  return digits + String(finnishCheckDigit(digits));
}

/**
 * True for a Finnish reference number: after removing spaces and leading zeros (the machine-readable
 * form pads to 20 digits), 4-20 digits whose last digit is the 7-3-1 check digit of the rest. The
 * 3-digit references some banks accept are refused.
 */
export function isValidFinnishReference(text: string): boolean {
  const raw = text.replace(/\s/g, '');
  if (!/^[0-9]{1,20}$/.test(raw)) return false;
  const digits = raw.replace(/^0+/, '');
  if (digits.length < 4) return false;
  return finnishCheckDigit(digits.slice(0, -1)) === Number(digits.at(-1));
}

/** Prints a valid Finnish reference for people: no leading zeros, groups of five from the right ("12 34561"). */
export function formatFinnishReference(text: string): string {
  if (!isValidFinnishReference(text)) throw new RangeError(`invalid Finnish reference: ${text}`);
  const digits = text.replace(/\s/g, '').replace(/^0+/, '');
  const groups: string[] = [];
  for (let end = digits.length; end > 0; end -= 5) groups.unshift(digits.slice(Math.max(0, end - 5), end));
  return groups.join(' ');
}

// Letters become two digits (A = 10 … Z = 35); the remainder is taken digit by digit, no big integers.
function mod97(text: string): number {
  let remainder = 0;
  for (const char of text) {
    const code = char.charCodeAt(0);
    const value = code >= 65 ? String(code - 55) : char;
    for (const digit of value) remainder = (remainder * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return remainder;
}

/** An RF reference or its payload as typed: spaces removed, upper case. */
export function normalizeRfReference(text: string): string {
  return text.replace(/\s/g, '').toUpperCase();
}

/**
 * Makes an RF creditor reference (ISO 11649) from a reference of 1-21 letters A-Z and digits (spaces
 * ignored, case-insensitive): "RF" + two check digits + the reference, the check digits being
 * 98 − (reference + "RF00" as a number) mod 97. E.g. "1234512345" → "RF451234512345"; the Finnish
 * reference "123453" → "RF81123453". Throws a RangeError on other input.
 */
export function createRfReference(reference: string): string {
  const payload = normalizeRfReference(reference);
  if (!/^[0-9A-Z]{1,21}$/.test(payload)) {
    throw new RangeError('an RF reference payload is 1-21 letters A-Z or digits');
  }
  const check = 98 - mod97(`${payload}RF00`);
  return `RF${String(check).padStart(2, '0')}${payload}`;
}

/**
 * True for an RF creditor reference: "RF", check digits 02-98, 1-21 letters or digits (at most 25
 * characters), and (first four characters moved to the end, letters as numbers) mod 97 = 1. Spaces
 * and case are ignored ("rf18 5390 0754 7034" is valid).
 */
export function isValidRfReference(text: string): boolean {
  const ref = normalizeRfReference(text);
  const match = /^RF([0-9]{2})[0-9A-Z]{1,21}$/.exec(ref);
  if (!match) return false;
  const check = Number(match[1]);
  if (check < 2 || check > 98) return false;
  return mod97(ref.slice(4) + ref.slice(0, 4)) === 1;
}

/** Prints a valid RF reference in groups of four ("RF18 5390 0754 7034"); throws on an invalid one. */
export function formatRfReference(text: string): string {
  if (!isValidRfReference(text)) throw new RangeError(`invalid RF reference: ${text}`);
  return normalizeRfReference(text).replace(/(.{4})(?=.)/g, '$1 ');
}
