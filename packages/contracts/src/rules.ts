import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, TWO_FACTOR_CODE_LENGTH } from './constants';

/**
 * The validation rules of spec §5. Each rule returns true when the value passes. The zod helpers
 * below turn them into schema pieces whose message is the rule's code (`validation.required`, ...),
 * which the web translates and the server answers in `issues`.
 */

/** Empty means null, undefined, an empty string or an empty array (spec §5). */
export function isEmpty(value: unknown): boolean {
  return (
    value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)
  );
}

// Local part may not start with a dot nor hold two dots in a row; the domain is dotted labels and a
// top-level domain of at least two letters (spec §5).
const EMAIL_PATTERN =
  /^(?!\.)(?!.*\.\.)[a-z0-9!#$%&'*+/=?^_`{|}~.-]+@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/i;

/** Email rule: empty passes; otherwise the value, or every element of an array, must be an address. */
export function isValidEmail(value: string | readonly string[] | null | undefined): boolean {
  if (isEmpty(value)) return true;
  const values = Array.isArray(value) ? value : [value];
  return values.every((v) => typeof v === 'string' && EMAIL_PATTERN.test(v));
}

/** Number of Unicode code points, so that "å" and an emoji each count once. */
export function codePointLength(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

/** Maximum length rule: empty passes; otherwise at most `max` code points (per element for arrays). */
export function isWithinMaxLength(
  value: string | readonly string[] | null | undefined,
  max: number,
): boolean {
  if (isEmpty(value)) return true;
  const values = Array.isArray(value) ? value : [value];
  return values.every((v) => typeof v === 'string' && codePointLength(v) <= max);
}

// 0-9 and the Arabic-Indic digits U+0660..U+0669 (spec §5).
const DIGITS_PATTERN = /^[0-9\u0660-\u0669]+$/;

/** Digits rule: empty passes; otherwise only 0-9 or Arabic-Indic digits. */
export function isDigitsOnly(value: string | number | null | undefined): boolean {
  if (value === null || value === undefined || value === '') return true;
  return DIGITS_PATTERN.test(String(value));
}

/** Required rule: fails for null, undefined, an empty array, false, or a blank string after trimming. */
export function isPresent(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'string') return value.trim().length > 0;
  return true;
}

/**
 * Password policy (spec §5): at least 8 code points with a digit, an upper-case letter, a lower-case
 * letter and a special character (anything that is not a letter, a digit or white space).
 * Returns the codes of the parts that fail, empty when the password passes.
 */
export function passwordPolicyFailures(password: string): string[] {
  const failures: string[] = [];
  const length = codePointLength(password);
  if (length < PASSWORD_MIN_LENGTH) failures.push('validation.password_too_short');
  if (length > PASSWORD_MAX_LENGTH) failures.push('validation.password_too_long');
  if (!/[0-9]/.test(password)) failures.push('validation.password_digit');
  if (!/\p{Lu}/u.test(password)) failures.push('validation.password_uppercase');
  if (!/\p{Ll}/u.test(password)) failures.push('validation.password_lowercase');
  if (!/[^\p{L}\p{N}\s]/u.test(password)) failures.push('validation.password_special');
  return failures;
}

/** True when the password passes the policy of spec §5. */
export function isStrongPassword(password: string): boolean {
  return passwordPolicyFailures(password).length === 0;
}

/**
 * True when the text holds a character nobody types on purpose: a C0 control (U+0000-U+001F; tab,
 * newline and carriage return are allowed in multi-line text), DEL or a C1 control (U+007F-U+009F),
 * or half of a UTF-16 surrogate pair without its other half. PostgreSQL refuses U+0000 in text, and
 * the others end up in PDFs, CSV files and mails where they do harm.
 */
export function hasControlCharacters(value: string, multiline = false): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20) {
      if (multiline && (c === 0x09 || c === 0x0a || c === 0x0d)) continue;
      return true;
    }
    if (c >= 0x7f && c <= 0x9f) return true;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return true;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

/**
 * The base of every string a caller sends (body, query, path): one line of text without control
 * characters, refused with `validation.control_characters`. `multilineText` also allows tab, newline
 * and carriage return (messages, descriptions). Every string field of a request schema starts here
 * (or at `requiredText`, `isoDateSchema`, an enum or a uuid); a server test sends every string field
 * of every route a NUL.
 */
export function plainText(message = 'validation.invalid') {
  return z.string(message).refine((v) => !hasControlCharacters(v), 'validation.control_characters');
}

export function multilineText(message = 'validation.invalid') {
  return z.string(message).refine((v) => !hasControlCharacters(v, true), 'validation.control_characters');
}

/** A required text of at most `max` code points; blank after trimming fails `validation.required`. */
export function requiredText(max: number, options: { multiline?: boolean } = {}) {
  return (options.multiline ? multilineText : plainText)('validation.required')
    .refine(isPresent, 'validation.required')
    .refine((v) => isWithinMaxLength(v, max), 'validation.max_length');
}

/** A required, valid email of at most `max` code points. */
export function requiredEmail(max: number) {
  return requiredText(max).refine((v) => isValidEmail(v), 'validation.email');
}

/**
 * Whether a rule over several fields can run: the body is an object and none of `fields` has an issue
 * so far. The other fields' issues do not stop it, so that the form shows them all at once.
 */
export function canCheck(
  payload: { value: unknown; issues: readonly { path?: readonly PropertyKey[] }[] },
  fields: readonly string[],
): boolean {
  if (typeof payload.value !== 'object' || payload.value === null || Array.isArray(payload.value))
    return false;
  return payload.issues.every((issue) => {
    const field = issue.path?.[0];
    return field !== undefined && !fields.includes(String(field));
  });
}

/** A new password under the policy; the message is the first failing part's code. */
export const newPasswordSchema = plainText('validation.required').superRefine((value, ctx) => {
  if (!isPresent(value)) {
    ctx.addIssue({ code: 'custom', message: 'validation.required' });
    return;
  }
  const [first] = passwordPolicyFailures(value);
  if (first) ctx.addIssue({ code: 'custom', message: first });
});

/** A two-factor code: exactly six digits (spec §5, §9). */
export const twoFactorCodeSchema = z
  .string('validation.required')
  .regex(new RegExp(`^[0-9]{${TWO_FACTOR_CODE_LENGTH}}$`), 'validation.two_factor_code');

/** The years a date of any request may fall in: wide for history, narrow enough for every database. */
export const DATE_MIN_YEAR = 1900;
export const DATE_MAX_YEAR = 2199;

/** True for a calendar date written YYYY-MM-DD that exists (no 2025-02-30) in DATE_MIN_YEAR..DATE_MAX_YEAR. */
export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const year = Number(value.slice(0, 4));
  if (year < DATE_MIN_YEAR || year > DATE_MAX_YEAR) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/**
 * The one date type of every request (body, query, path; customer and back office): a calendar date
 * written YYYY-MM-DD that exists, in the years DATE_MIN_YEAR..DATE_MAX_YEAR, else `validation.date`.
 * Business rules on top (e.g. money movements near today) are the server's.
 */
export const isoDateSchema = z.iso.date('validation.date').refine(isIsoDate, 'validation.date');

/**
 * Every rule code a schema may answer under `validation.`; the web translates each under
 * `validation:` (a locale test checks them all).
 */
export const VALIDATION_CODES = [
  'required',
  'max_length',
  'min_length',
  'email',
  'digits',
  'password_too_short',
  'password_too_long',
  'password_digit',
  'password_uppercase',
  'password_lowercase',
  'password_special',
  'password_mismatch',
  'two_factor_code',
  'date',
  'organization_number',
  'vat_number',
  'whole_minor_units',
  'amount_range',
  'quantity_positive',
  'recipient_required',
  'rows_required',
  'select_at_least_one',
  'due_before_invoice_date',
  'personal_number',
  'rot_rut_labour_row',
  'rot_rut_private_buyer',
  'ocr_reference',
  'amount_positive',
  'vat_rate_repeated',
  'invoice_total_range',
  'invoice_total_positive',
  'control_characters',
  'phone',
  'installment_end_date',
  'installment_total_mismatch',
  'installment_amount_positive',
  'signees_required',
  'party_repeated',
  // Spec §5's one warning (installment plans: a start date in the past): shown, never refused.
  'start_date_past',
] as const;
