import { DATE_FORMAT } from '@portal/contracts';

/** A date as YYYY-MM-DD (spec §9 `DATE_FORMAT`) in local time, the form every call uses. */
export function toIsoDate(date: Date): string {
  const y = date.getFullYear();
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** `date` moved by a whole number of calendar days. */
export function addDays(date: Date, days: number): Date {
  const copy = new Date(date);
  copy.setDate(copy.getDate() + days);
  return copy;
}

/**
 * Shows an ISO date or timestamp in the user's locale; an unreadable value is shown as given. A date
 * that does not exist (2026-02-30, as an import file may have it) is unreadable too: Date would roll
 * it over to 2 March.
 */
export function formatDate(value: string | null | undefined, locale: string): string {
  if (!value) return '';
  const isDateOnly = value.length === DATE_FORMAT.length;
  const date = new Date(isDateOnly ? `${value}T00:00:00` : value);
  if (Number.isNaN(date.getTime())) return value;
  if (isDateOnly && toIsoDate(date) !== value) return value;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(date);
}

/** A timestamp with date and time in the user's language; an unreadable value is shown as given. */
export function formatDateTime(value: string, locale: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/**
 * A VAT rate in basis points as a percentage in the user's locale: 2500 → "25 %" (sv-SE), "25%"
 * (en-US); 2550 → "25,5 %" (fi-FI). The rate is whole hundredths of a percent, so two decimals show it
 * exactly.
 */
export function formatBasisPoints(basisPoints: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(
    basisPoints / 10_000,
  );
}
