/**
 * Calendar dates as `YYYY-MM-DD` strings (spec §9 date format), with arithmetic on the proleptic
 * Gregorian calendar only: no `Date`, no clock and no time zone, so the browser and the server get the
 * same answer for the same input. Valid dates compare correctly as plain strings.
 */

/** A date split into its numbers; `month` is 1-12. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const ISO_DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;

/** True for a Gregorian leap year (divisible by 4, except centuries not divisible by 400). */
export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/** Number of days in `month` (1-12) of `year`; throws a RangeError for another month. */
export function daysInMonth(year: number, month: number): number {
  const days = MONTH_DAYS[month - 1];
  if (!Number.isInteger(month) || days === undefined) throw new RangeError(`no month ${String(month)}`);
  return month === 2 && isLeapYear(year) ? 29 : days;
}

/** True when year 1-9999, month 1-12 and day exist together in the calendar. */
export function isRealDate(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || year < 1 || year > 9999) return false;
  if (!Number.isInteger(month) || month < 1 || month > 12) return false;
  return Number.isInteger(day) && day >= 1 && day <= daysInMonth(year, month);
}

/** Splits a strict `YYYY-MM-DD` string of a real date (year 0001-9999); null for anything else. */
export function parseIsoDate(text: string): CalendarDate | null {
  const match = ISO_DATE.exec(text);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  return isRealDate(year, month, day) ? { year, month, day } : null;
}

/** True for a strict `YYYY-MM-DD` string of a real date: "2024-02-29" yes, "2025-02-29" and "2025-2-1" no. */
export function isValidIsoDate(text: string): boolean {
  return parseIsoDate(text) !== null;
}

/** Writes a date as `YYYY-MM-DD`; throws a RangeError when it is not a real date. */
export function formatIsoDate(date: CalendarDate): string {
  if (!isRealDate(date.year, date.month, date.day)) throw new RangeError('not a real date');
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}

function requireDate(text: string): CalendarDate {
  const date = parseIsoDate(text);
  if (date === null) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(text)}`);
  return date;
}

// Days since 1970-01-01 and back, after Howard Hinnant's "days_from_civil" / "civil_from_days".
function toDayNumber({ year, month, day }: CalendarDate): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

function fromDayNumber(dayNumber: number): CalendarDate {
  const z = dayNumber + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/**
 * `date` moved by a whole number of calendar days (negative goes back): "2024-02-28" + 1 →
 * "2024-02-29", "2025-12-31" + 1 → "2026-01-01". Throws a RangeError on an invalid date, a
 * non-integer `days` or a result outside years 0001-9999.
 */
export function addDays(date: string, days: number): string {
  if (!Number.isSafeInteger(days)) throw new RangeError(`days must be an integer, got ${String(days)}`);
  const result = fromDayNumber(toDayNumber(requireDate(date)) + days);
  if (!isRealDate(result.year, result.month, result.day)) throw new RangeError('date out of range');
  return formatIsoDate(result);
}

/** Whole calendar days from `from` to `to` (negative when `to` is earlier); throws on an invalid date. */
export function daysBetween(from: string, to: string): number {
  return toDayNumber(requireDate(to)) - toDayNumber(requireDate(from));
}

/**
 * `date` moved by a whole number of calendar months (negative goes back), keeping its day of the month
 * where that month has it and otherwise taking the month's last day: "2025-01-31" + 1 → "2025-02-28",
 * "2024-01-31" + 1 → "2024-02-29", "2025-01-31" + 2 → "2025-03-31", "2025-03-15" − 1 → "2025-02-15".
 * Each call counts from `date` itself, so a monthly series is `addMonths(start, k)` for k = 1, 2, …, never
 * a chain of single steps (a chain would stick at the 28th after February). Throws a RangeError on an
 * invalid date, a non-integer `months` or a result outside years 0001-9999.
 */
export function addMonths(date: string, months: number): string {
  if (!Number.isSafeInteger(months)) throw new RangeError(`months must be an integer, got ${String(months)}`);
  const { year, month, day } = requireDate(date);
  const monthIndex = year * 12 + (month - 1) + months;
  const resultYear = Math.floor(monthIndex / 12);
  const resultMonth = monthIndex - resultYear * 12 + 1;
  if (resultYear < 1 || resultYear > 9999) throw new RangeError('date out of range');
  return formatIsoDate({
    year: resultYear,
    month: resultMonth,
    day: Math.min(day, daysInMonth(resultYear, resultMonth)),
  });
}
