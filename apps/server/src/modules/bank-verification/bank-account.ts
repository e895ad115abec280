import { isLuhnValid } from '@portal/domain/luhn';
import { isValidPersonalNumber } from '@portal/domain/personal-number';

/**
 * The account numbers a verification can yield (shared/domain/bank-verification.md §3) and the rules
 * that decide whether we can pay to one: a Swedish issuer is paid by clearing + account number or by
 * bankgiro, a Finnish one by IBAN (issue #13).
 */
export type AccountIdentifier =
  | { kind: 'iban'; iban: string; bic?: string | undefined }
  | { kind: 'se-bban'; clearing: string; account: string }
  | { kind: 'bankgiro'; number: string };

/** An IBAN without spaces, upper case. */
export function compactIban(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

/** True for an IBAN whose ISO 13616 check (mod 97 = 1) passes; `country` limits the country code. */
export function isValidIban(value: string, country?: string): boolean {
  const iban = compactIban(value);
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{10,30}$/.test(iban)) return false;
  if (country && !iban.startsWith(country)) return false;
  if (iban.startsWith('FI') && iban.length !== 18) return false;
  if (iban.startsWith('SE') && iban.length !== 24) return false;
  const moved = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const digit of moved) rest = (rest * 10 + (digit.charCodeAt(0) - 48)) % 97;
  return rest === 1;
}

/**
 * A Swedish clearing number and account number we can pay to: 4 digits (5 for Swedbank's 8xxx-x
 * clearing numbers) and an account of 7 to 10 digits. The per-bank check digits are the bank's to
 * enforce; the bank answered this account from its own books.
 */
export function isPayableSwedishAccount(clearing: string, account: string): boolean {
  const c = clearing.replace(/[\s-]/g, '');
  const a = account.replace(/[\s-]/g, '');
  const clearingOk = /^[1-9][0-9]{3}$/.test(c) || /^8[0-9]{4}$/.test(c);
  return clearingOk && /^[0-9]{7,10}$/.test(a);
}

/** A bankgiro number: 7 or 8 digits with a Luhn check digit (shared/domain/references-and-ids.md §1). */
export function isValidBankgiro(value: string): boolean {
  const digits = value.replace(/[\s-]/g, '');
  return /^[0-9]{7,8}$/.test(digits) && isLuhnValid(digits);
}

/** Whether we can pay an issuer of `country` to `identifier` (issue #13). */
export function isPayableTo(country: 'SE' | 'FI', identifier: AccountIdentifier): boolean {
  if (country === 'FI') return identifier.kind === 'iban' && isValidIban(identifier.iban, 'FI');
  if (identifier.kind === 'se-bban') return isPayableSwedishAccount(identifier.clearing, identifier.account);
  if (identifier.kind === 'bankgiro') return isValidBankgiro(identifier.number);
  return false;
}

/**
 * The account as shown to users and written in messages: all but the last four digits hidden, so a
 * screen, a log or a message never carries a full account number (domain note §3).
 */
export function maskAccount(identifier: AccountIdentifier): string {
  const lastFour = (s: string) => s.replace(/[^0-9A-Z]/gi, '').slice(-4);
  if (identifier.kind === 'iban') {
    const iban = compactIban(identifier.iban);
    return `${iban.slice(0, 2)}•• •••• •••• ${lastFour(iban)}`;
  }
  if (identifier.kind === 'bankgiro') return `BG •••-${lastFour(identifier.number)}`;
  return `${identifier.clearing.replace(/[\s-]/g, '')}-••••${lastFour(identifier.account)}`;
}

/** The same account, whatever spaces or hyphens the bank wrote it with. */
export function accountKey(identifier: AccountIdentifier): string {
  const digits = (s: string) => s.replace(/[^0-9A-Z]/gi, '').toUpperCase();
  if (identifier.kind === 'iban') return `iban:${digits(identifier.iban)}`;
  if (identifier.kind === 'bankgiro') return `bankgiro:${digits(identifier.number)}`;
  return `se-bban:${digits(identifier.clearing)}:${digits(identifier.account)}`;
}

/** Lower case, accents and punctuation dropped, company-form words kept: `Nystart  Måleri AB` → `nystart maleri ab`. */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** The ten (Swedish) or eight (Finnish Y-tunnus) digits that make two identity numbers the same one. */
function idKey(value: string): string {
  const digits = value.replace(/[^0-9]/g, '');
  return digits.length === 12 ? digits.slice(2) : digits;
}

export interface HolderOfAccount {
  name: string;
  /** The holder's organisation number or personnummer, when the bank gives it. */
  identifier?: string | undefined;
}

export interface IssuerIdentity {
  name: string;
  organizationNo: string;
  country: 'SE' | 'FI';
}

/**
 * A Swedish sole trader (enskild näringsidkare) is registered under the owner's personnummer, so the
 * issuer's "organisation number" is a valid personnummer.
 */
export function isSoleTrader(issuer: IssuerIdentity): boolean {
  return issuer.country === 'SE' && isValidPersonalNumber(issuer.organizationNo);
}

/**
 * The rule of issue #13: the account holder must be the issuer. A company is matched by its
 * organisation number only (names are not unique); a sole trader by the number or, when the bank
 * gives none, by name: every word of the holder's name is in the issuer's name (the firm's name
 * carries the owner's, "Anna Berg Konsult" for holder "Anna Berg").
 */
export function holderIsIssuer(holders: readonly HolderOfAccount[], issuer: IssuerIdentity): boolean {
  const issuerKey = idKey(issuer.organizationNo);
  if (holders.some((h) => h.identifier && idKey(h.identifier) === issuerKey)) return true;
  if (!isSoleTrader(issuer)) return false;
  const issuerWords = new Set(normalizeName(issuer.name).split(' '));
  return holders.some((h) => {
    if (h.identifier) return false;
    const words = normalizeName(h.name).split(' ').filter(Boolean);
    return words.length >= 2 && words.every((w) => issuerWords.has(w));
  });
}
