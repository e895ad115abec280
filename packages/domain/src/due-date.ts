import { addDays, daysBetween, isValidIsoDate } from './calendar-date';

/**
 * Due dates and invoice number suggestions for the invoice form (spec §3: invoice number, date, due
 * date; §5: the invoice number is unique per issuer).
 */

/** The payment terms a new invoice starts with, in calendar days (the form's default, the import template's). */
export const DEFAULT_PAYMENT_TERMS_DAYS = 30;

/**
 * The due date: `invoiceDate` (`YYYY-MM-DD`) plus `paymentTermsDays` calendar days, e.g. "2025-01-31"
 * with 30 days → "2025-03-02". Pure calendar arithmetic, no time zone. A due date on a weekend or
 * holiday is not moved: the date printed is the agreed one, and when a payment counts as on time is
 * the bank's rule, not the invoice's. Throws a RangeError on an invalid date or when the terms are not
 * a non-negative integer.
 */
export function dueDate(invoiceDate: string, paymentTermsDays: number): string {
  if (!Number.isSafeInteger(paymentTermsDays) || paymentTermsDays < 0) {
    throw new RangeError(`payment terms must be a non-negative integer, got ${String(paymentTermsDays)}`);
  }
  return addDays(invoiceDate, paymentTermsDays);
}

/**
 * The payment terms of an invoice in calendar days, the inverse of `dueDate`: "2025-01-31" to
 * "2025-03-02" → 30; the same day → 0. Null when either date is not a valid `YYYY-MM-DD` or when the
 * due date is before the invoice date (`isDueBeforeInvoiceDate`), which has no terms.
 */
export function paymentTermsDays(invoiceDate: string, dueDateText: string): number | null {
  if (!isValidIsoDate(invoiceDate) || !isValidIsoDate(dueDateText)) return null;
  const days = daysBetween(invoiceDate, dueDateText);
  return days < 0 ? null : days;
}

/**
 * The rule `validation.due_before_invoice_date`: true when both dates are valid `YYYY-MM-DD` and the
 * due date is before the invoice date. A due date on the invoice date is allowed (terms of 0 days).
 * False when either date is invalid: that is the date field's own error, not this rule's.
 */
export function isDueBeforeInvoiceDate(invoiceDate: string, dueDateText: string): boolean {
  return isValidIsoDate(invoiceDate) && isValidIsoDate(dueDateText) && dueDateText < invoiceDate;
}

// A trailing run of ASCII digits and whatever precedes it ("INV-2025-" + "0042").
const NUMERIC_SUFFIX = /^(.*?)([0-9]+)$/s;

function compareDigitStrings(a: string, b: string): number {
  const x = a.replace(/^0+/, '');
  const y = b.replace(/^0+/, '');
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Suggests the next invoice number from the issuer's existing ones: the number whose trailing digits
 * have the largest value, with those digits plus one, keeping its prefix and zero padding:
 * ["F-0009", "F-0010"] → "F-0011"; ["2025-099"] → "2025-100"; ["999"] → "1000" (the padding grows
 * when it must). Numbers without trailing digits are ignored, and values are compared exactly however
 * long the digits are. On a tie the later entry wins (lists are usually oldest first). Because the
 * suggestion's digits are larger than every existing suffix, it is never one of `existing`. With no
 * numbered entry the suggestion is `fallback` ("1" unless given).
 */
export function nextInvoiceNumber(existing: readonly string[], fallback = '1'): string {
  let best: { prefix: string; digits: string } | null = null;
  for (const raw of existing) {
    const match = NUMERIC_SUFFIX.exec(raw.trim());
    if (!match) continue;
    const prefix = match[1] ?? '';
    const digits = match[2] ?? '';
    if (best === null || compareDigitStrings(digits, best.digits) >= 0) best = { prefix, digits };
  }
  if (best === null) return fallback;
  const next = (BigInt(best.digits) + 1n).toString();
  return best.prefix + next.padStart(best.digits.length, '0');
}
