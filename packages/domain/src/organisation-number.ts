import { isLuhnValid } from './luhn';

/**
 * Swedish organisationsnummer and Finnish Y-tunnus (shared/domain/references-and-ids.md §3.1, §4.3).
 * The portal shows an issuer's number read-only (spec §3); these checks guard what is stored.
 */

/**
 * True for a Swedish organisation number: 10 digits (optionally `NNNNNN-NNNN`, or 12 digits with the
 * `16` prefix), third digit at least 2 (so it is never a personnummer), Luhn over all ten digits.
 */
export function isSwedishOrganisationNumber(value: string): boolean {
  let digits = value.replace(/[\s-]/g, '');
  if (/^16[0-9]{10}$/.test(digits)) digits = digits.slice(2);
  if (!/^[0-9]{10}$/.test(digits)) return false;
  if (Number(digits[2]) < 2) return false;
  return isLuhnValid(digits);
}

/** Writes a valid Swedish organisation number as `NNNNNN-NNNN`; throws on an invalid one. */
export function formatSwedishOrganisationNumber(value: string): string {
  if (!isSwedishOrganisationNumber(value)) throw new RangeError(`invalid organisation number: ${value}`);
  const digits = value.replace(/[\s-]/g, '').slice(-10);
  return `${digits.slice(0, 6)}-${digits.slice(6)}`;
}

const Y_TUNNUS_WEIGHTS = [7, 9, 10, 5, 8, 4, 2] as const;

/**
 * True for a Finnish Business ID `NNNNNNN-C`: weights 7, 9, 10, 5, 8, 4, 2 from the left, r = sum mod 11;
 * r = 0 gives check digit 0, r = 1 is never issued, otherwise the check digit is 11 − r.
 */
export function isFinnishBusinessId(value: string): boolean {
  const match = /^([0-9]{7})-([0-9])$/.exec(value.trim());
  if (!match) return false;
  const base = match[1] as string;
  let sum = 0;
  for (let i = 0; i < 7; i++) sum += (base.charCodeAt(i) - 48) * (Y_TUNNUS_WEIGHTS[i] as number);
  const r = sum % 11;
  if (r === 1) return false;
  return (r === 0 ? 0 : 11 - r) === Number(match[2]);
}
