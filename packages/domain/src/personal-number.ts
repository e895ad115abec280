import { formatIsoDate, isRealDate, parseIsoDate } from './calendar-date';
import { isLuhnValid } from './luhn';

/**
 * Swedish personnummer and samordningsnummer (shared/domain/references-and-ids.md §3.2): the ROT/RUT
 * buyer's identity and a sole trader's number. Forms accepted, spaces ignored:
 * `YYMMDD-NNNC`, `YYMMDD+NNNC` (the `+` says the person has turned 100), `YYMMDDNNNC`,
 * `YYYYMMDD-NNNC` and `YYYYMMDDNNNC` (century 18, 19 or 20). The Luhn check digit `C` always runs over
 * the last ten digits. A samordningsnummer has 60 added to the day of birth (born the 3rd → 63).
 */

/** A checked personnummer or samordningsnummer. */
export interface PersonalNumber {
  /** The 12-digit form Skatteverket stores, `YYYYMMDDNNNC` (day + 60 kept for a samordningsnummer). */
  digits: string;
  /** Date of birth as `YYYY-MM-DD`, with 60 taken off a samordningsnummer's day. */
  birthDate: string;
  /** True for a samordningsnummer (day of month 61-91). */
  isCoordinationNumber: boolean;
}

const SHAPE = /^([0-9]{6}|[0-9]{8})([-+]?)([0-9]{4})$/;

interface Parts {
  century: number | null;
  yy: number;
  month: number;
  dayField: number;
  separator: string;
  ten: string;
}

// Shape, month 01-12, day 01-31 or 61-91 and Luhn; the real-date check needs the century.
function readParts(value: string): Parts | null {
  const match = SHAPE.exec(value.replace(/\s/g, ''));
  if (!match) return null;
  const date = match[1] ?? '';
  const separator = match[2] ?? '';
  const ten = date.slice(-6) + (match[3] ?? '');
  let century: number | null = null;
  if (date.length === 8) {
    century = Number(date.slice(0, 2));
    // The + only carries meaning in the 10-digit form; 12 digits already name the century.
    if (century < 18 || century > 20 || separator === '+') return null;
  }
  const yy = Number(ten.slice(0, 2));
  const month = Number(ten.slice(2, 4));
  const dayField = Number(ten.slice(4, 6));
  if (month < 1 || month > 12) return null;
  if (!((dayField >= 1 && dayField <= 31) || (dayField >= 61 && dayField <= 91))) return null;
  if (!isLuhnValid(ten)) return null;
  return { century, yy, month, dayField, separator, ten };
}

function birthDay(parts: Parts): number {
  return parts.dayField > 60 ? parts.dayField - 60 : parts.dayField;
}

/**
 * Checks and reads a personnummer or samordningsnummer; null when invalid. `today` (`YYYY-MM-DD`,
 * passed in so this stays pure) decides the century of a 10-digit number. With `+` (used from the
 * calendar year the person turns 100) the birth year is the latest one ending in YY that is at least
 * 100 years before today's year; otherwise the latest birth date ending in YY that is not after today,
 * so the person is at most 99 (or 100 when the `+` was left out in the year they turn 100). A 12-digit
 * number born after `today` is invalid. Checks: 10 or 12 digits, month 01-12, day 01-31 or 61-91 (samordningsnummer), a real date
 * (29 February only in leap years), Luhn over the last ten digits. Throws a RangeError when `today` is
 * not a valid date.
 */
export function parsePersonalNumber(value: string, today: string): PersonalNumber | null {
  const now = parseIsoDate(today);
  if (now === null) throw new RangeError(`today must be a YYYY-MM-DD date, got ${JSON.stringify(today)}`);
  const parts = readParts(value);
  if (parts === null) return null;
  const day = birthDay(parts);
  let year: number;
  if (parts.century !== null) {
    year = parts.century * 100 + parts.yy;
  } else {
    // The latest year ending in YY that is not after `latest`.
    const latest = parts.separator === '+' ? now.year - 100 : now.year;
    year = latest - ((((latest - parts.yy) % 100) + 100) % 100);
    // Born later this year: a birth date cannot be in the future, so it is the century before.
    if (year === now.year && parts.month * 100 + day > now.month * 100 + now.day) year -= 100;
  }
  if (!isRealDate(year, parts.month, day)) return null;
  const birthDate = formatIsoDate({ year, month: parts.month, day });
  if (birthDate > today) return null;
  return {
    digits: String(Math.floor(year / 100)) + parts.ten,
    birthDate,
    isCoordinationNumber: parts.dayField > 60,
  };
}

/**
 * True for a valid personnummer or samordningsnummer (rules of `parsePersonalNumber`). Without
 * `today` a 10-digit number's century is unknown, so its date only has to exist in 1900 + YY or
 * 2000 + YY (this matters only for 29 February); with `today` the full check runs.
 */
export function isValidPersonalNumber(value: string, today?: string): boolean {
  if (today !== undefined) return parsePersonalNumber(value, today) !== null;
  const parts = readParts(value);
  if (parts === null) return false;
  const day = birthDay(parts);
  const centuries = parts.century === null ? [19, 20] : [parts.century];
  return centuries.some((c) => isRealDate(c * 100 + parts.yy, parts.month, day));
}

/** The 12-digit form with a hyphen, `YYYYMMDD-NNNC`, as shown on an invoice and in the portal. */
export function formatPersonalNumber(personalNumber: PersonalNumber): string {
  return `${personalNumber.digits.slice(0, 8)}-${personalNumber.digits.slice(8)}`;
}

/**
 * The 10-digit form on `today`: `YYMMDD-NNNC`, or `YYMMDD+NNNC` from the year the person turns 100
 * (Skatteverket's rule, which is why the `+` tells the century).
 */
export function toTenDigitForm(personalNumber: PersonalNumber, today: string): string {
  const now = parseIsoDate(today);
  if (now === null) throw new RangeError(`today must be a YYYY-MM-DD date, got ${JSON.stringify(today)}`);
  const birthYear = Number(personalNumber.digits.slice(0, 4));
  const separator = now.year - birthYear >= 100 ? '+' : '-';
  return `${personalNumber.digits.slice(2, 8)}${separator}${personalNumber.digits.slice(8)}`;
}
