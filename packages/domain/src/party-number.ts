import {
  formatSwedishOrganisationNumber,
  isFinnishBusinessId,
  isSwedishOrganisationNumber,
} from './organisation-number';
import { isValidPersonalNumber } from './personal-number';

/**
 * The identity number of an invoice recipient (shared/domain/references-and-ids.md §3.1–3.3, §4.3): a
 * Swedish organisationsnummer, a Swedish personnummer or samordningsnummer (a private person or a sole
 * trader), or a Finnish Y-tunnus, each with its check digit.
 */

/** True for a valid organisationsnummer, personnummer/samordningsnummer or Y-tunnus (spaces ignored). */
export function isValidPartyNumber(value: string): boolean {
  return isSwedishOrganisationNumber(value) || isValidPersonalNumber(value) || isFinnishBusinessId(value);
}

/**
 * How a valid party number is stored and shown: an organisationsnummer as `NNNNNN-NNNN` (the `16` of the
 * 12-digit form dropped), a Y-tunnus as `NNNNNNN-C`, a personnummer as typed without spaces (its `+` or
 * its century must stay). Any other text comes back trimmed, unchanged.
 */
export function normalizePartyNumber(value: string): string {
  const trimmed = value.trim();
  if (isSwedishOrganisationNumber(trimmed)) return formatSwedishOrganisationNumber(trimmed);
  if (isFinnishBusinessId(trimmed)) return trimmed;
  if (isValidPersonalNumber(trimmed)) return trimmed.replace(/\s/g, '');
  return trimmed;
}

/**
 * What makes two party numbers the same number: the digits, of a 12-digit Swedish form only the last ten
 * (`16` + organisationsnummer, century + personnummer). `556036-0793`, `5560360793` and `165560360793`
 * share the key `5560360793`; a Y-tunnus keeps its eight digits, so it never meets a Swedish number.
 * The database's unique index of the recipients (issuer, key) computes the same in SQL
 * (apps/server/src/db/schema.ts).
 */
export function partyNumberKey(value: string): string {
  return value.replace(/[^0-9]/g, '').slice(-10);
}
