import { isFinnishBusinessId, isSwedishOrganisationNumber } from './organisation-number';
import { isValidPersonalNumber } from './personal-number';

/**
 * VAT registration numbers of Sweden and Finland (shared/domain/references-and-ids.md §3.4, §4.4).
 * Other countries' numbers are not checked here.
 */

/** Countries whose VAT numbers this module checks. */
export type VatCountry = 'SE' | 'FI';

/** A VAT number as written by a person: spaces and hyphens removed, upper case ("se 5560360793 01" → "SE556036079301"). */
export function normalizeVatNumber(text: string): string {
  return text.replace(/[\s-]/g, '').toUpperCase();
}

/**
 * True for a Swedish VAT number (momsregistreringsnummer): "SE" + 10 digits + "01", 14 characters,
 * where the 10 digits are a valid organisation number or, for a sole trader, a valid personnummer or
 * samordningsnummer (month and day ranges, Luhn). Spaces and hyphens are ignored.
 */
export function isValidSwedishVatNumber(text: string): boolean {
  const match = /^SE([0-9]{10})01$/.exec(normalizeVatNumber(text));
  if (!match) return false;
  const digits = match[1] ?? '';
  return isSwedishOrganisationNumber(digits) || isValidPersonalNumber(digits);
}

/**
 * True for a Finnish VAT number (ALV-numero): "FI" + the 8 digits of a valid Y-tunnus without its
 * hyphen (mod 11 check digit), e.g. "FI01120389". Spaces and hyphens are ignored.
 */
export function isValidFinnishVatNumber(text: string): boolean {
  const match = /^FI([0-9]{7})([0-9])$/.exec(normalizeVatNumber(text));
  if (!match) return false;
  return isFinnishBusinessId(`${match[1] ?? ''}-${match[2] ?? ''}`);
}

/** The country of a valid Swedish or Finnish VAT number, or null (invalid, or another country). */
export function vatNumberCountry(text: string): VatCountry | null {
  if (isValidSwedishVatNumber(text)) return 'SE';
  if (isValidFinnishVatNumber(text)) return 'FI';
  return null;
}

/** True for a valid Swedish or Finnish VAT number; false for any other country's. */
export function isValidVatNumber(text: string): boolean {
  return vatNumberCountry(text) !== null;
}

/**
 * The Swedish VAT number of an organisation number or a sole trader's personnummer, 10 or 12 digits
 * with or without separators: "556036-0793" → "SE556036079301". Throws a RangeError when the number is
 * not valid.
 */
export function swedishVatNumberFrom(organisationOrPersonalNumber: string): string {
  const value = organisationOrPersonalNumber;
  // 12 digits are "16" + an organisation number or century 18/19/20 + a personnummer (§3.3); both
  // checks below enforce that, and the VAT number uses the last ten digits.
  if (!isSwedishOrganisationNumber(value) && !isValidPersonalNumber(value))
    throw new RangeError(`not a Swedish organisation or personal number: ${value}`);
  return `SE${value.replace(/[\s+-]/g, '').slice(-10)}01`;
}

/** The Finnish VAT number of a Y-tunnus: "0112038-9" → "FI01120389". Throws a RangeError on an invalid one. */
export function finnishVatNumberFrom(businessId: string): string {
  if (!isFinnishBusinessId(businessId)) throw new RangeError(`invalid Y-tunnus: ${businessId}`);
  return `FI${businessId.trim().replace('-', '')}`;
}
