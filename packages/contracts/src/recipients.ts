import { isValidPartyNumber as isPartyNumber, normalizePartyNumber } from '@portal/domain/party-number';
import { isValidPhoneNumber, toE164PhoneNumber } from '@portal/domain/phone-number';
import { z } from 'zod';
import { LANGUAGES, type Language, RECIPIENT_NAME_MAX } from './constants';
import { listQuerySchema, pageSchema } from './lists';
import {
  canCheck,
  isPresent,
  isWithinMaxLength,
  multilineText,
  plainText,
  requiredEmail,
  requiredText,
} from './rules';

/** Limits of the recipient form besides the name (spec §5 gives the name's; the rest are ours). */
export const RECIPIENT_LIMITS = {
  name: RECIPIENT_NAME_MAX,
  address: 45,
  address2: 45,
  zipcode: 10,
  city: 45,
  email: 100,
  phone: 20,
  organizationNumber: 13,
  vat: 25,
} as const;

/**
 * Issue codes of the recipient rules besides the shared `validation.*` ones, each on its field: a phone
 * number that cannot be one, and a party number another recipient of the issuer already has (the
 * server's answer is 400 `recipient.invalid` with this issue and that recipient's `recipientID`,
 * `recipientName` and `recipientOrganizationNumber` in `details`).
 */
export const RECIPIENT_ISSUES = {
  phoneInvalid: 'recipient.phone_invalid',
  orgNumberTaken: 'recipient.org_number_taken',
} as const;

export const RECIPIENT_COUNTRIES = ['SE', 'FI', 'NO', 'DK', 'DE', 'GB', 'US'] as const;

/**
 * The language a recipient's documents are written in when none is chosen: Swedish for Sweden,
 * Finnish for Finland, English for every other country (and for an unknown one). The documents of
 * an invoice follow the recipient, never the language of the user who downloads them (issue #11).
 */
export function documentLanguageForCountry(country: string): Language {
  if (country === 'SE') return 'sv-SE';
  if (country === 'FI') return 'fi-FI';
  return 'en-US';
}

/**
 * The language of a recipient's invoice documents: its chosen `documentLanguage`, else its
 * country's (`documentLanguageForCountry`). Labels, numbers, amounts and dates follow it.
 */
export function documentLanguageOf(recipient: {
  country: string;
  documentLanguage?: Language | null;
}): Language {
  return recipient.documentLanguage ?? documentLanguageForCountry(recipient.country);
}

/** An optional text: empty passes; otherwise at most `max` code points (spec §5). */
export function optionalText(max: number, options: { multiline?: boolean } = {}) {
  return (options.multiline ? multilineText : plainText)()
    .trim()
    .refine((v) => isWithinMaxLength(v, max), 'validation.max_length')
    .default('');
}

/**
 * A Swedish organisation number, personnummer or samordningsnummer, or a Finnish Y-tunnus, each with
 * its check digit (packages/domain party-number). Empty passes: a private person may be invoiced
 * without one.
 */
export function isValidPartyNumber(value: string): boolean {
  if (!isPresent(value)) return true;
  return isPartyNumber(value);
}

/** VAT number: two letters and 2-13 characters, e.g. SE556036079301 or FI07375462. Empty passes. */
export function isVatNumberFormat(value: string): boolean {
  if (!isPresent(value)) return true;
  return /^[A-Z]{2}[0-9A-Z]{2,13}$/.test(value.replace(/\s/g, '').toUpperCase());
}

/**
 * `POST/PUT limited/recipients`: the recipient rules of spec §5. The party number is checked with its
 * check digit and stored in one form (`556036-0793`, not `5560360793`); the phone number is read in the
 * recipient's country and stored in E.164 (`08-123 456 78` → `+46812345678`). The server adds that an
 * issuer's recipients have different party numbers (`recipient.org_number_taken`).
 */
export const recipientBodySchema = z
  .object({
    name: requiredText(RECIPIENT_LIMITS.name),
    address: optionalText(RECIPIENT_LIMITS.address),
    address2: optionalText(RECIPIENT_LIMITS.address2),
    zipcode: requiredText(RECIPIENT_LIMITS.zipcode),
    city: requiredText(RECIPIENT_LIMITS.city),
    country: z.enum(RECIPIENT_COUNTRIES, 'validation.invalid').default('SE'),
    email: requiredEmail(RECIPIENT_LIMITS.email),
    phone: optionalText(RECIPIENT_LIMITS.phone),
    organizationNumber: optionalText(RECIPIENT_LIMITS.organizationNumber)
      .refine(isValidPartyNumber, 'validation.organization_number')
      .transform(normalizePartyNumber),
    vat: optionalText(RECIPIENT_LIMITS.vat).refine(isVatNumberFormat, 'validation.vat_number'),
    /**
     * The language of the recipient's documents. Optional: a new recipient without one gets its
     * country's (`documentLanguageForCountry`); a change without one keeps the stored language.
     */
    documentLanguage: z.enum(LANGUAGES, 'validation.invalid').optional(),
  })
  .refine((body) => isValidPhoneNumber(body.phone, body.country), {
    path: ['phone'],
    message: RECIPIENT_ISSUES.phoneInvalid,
    // Shown with the other fields' issues, unless the phone or the country has one of its own.
    when: (payload) => canCheck(payload, ['phone', 'country']),
  })
  .transform((body) => ({ ...body, phone: toE164PhoneNumber(body.phone, body.country) ?? body.phone }));
export type RecipientBody = z.input<typeof recipientBodySchema>;
export type ParsedRecipientBody = z.output<typeof recipientBodySchema>;

export const recipientSchema = z.object({
  recipientID: z.string(),
  name: z.string(),
  address: z.string(),
  address2: z.string(),
  zipcode: z.string(),
  city: z.string(),
  country: z.string(),
  email: z.string(),
  phone: z.string(),
  organizationNumber: z.string(),
  vat: z.string(),
  /** The language of the recipient's invoice documents (issue #11). */
  documentLanguage: z.enum(LANGUAGES),
  updated: z.string(),
});
export type Recipient = z.infer<typeof recipientSchema>;

export const RECIPIENT_SORT_FIELDS = ['name', 'city', 'organizationNumber', 'updated'] as const;
export const listRecipientsQuerySchema = listQuerySchema(RECIPIENT_SORT_FIELDS);
export type ListRecipientsQuery = z.output<typeof listRecipientsQuerySchema>;
export const listRecipientsResponseSchema = pageSchema(recipientSchema);

/** A company found by name or organisation number in the company register (recipient form help). */
export const companySchema = z.object({
  organizationNumber: z.string(),
  name: z.string(),
  address: z.string(),
  zipcode: z.string(),
  city: z.string(),
  country: z.string(),
  vat: z.string(),
});
export type Company = z.infer<typeof companySchema>;

/** At least 2 characters; a search matching more than the limit answers `company.too_many_results`. */
export const searchCompaniesQuerySchema = z.object({
  query: plainText().trim().min(2, 'validation.min_length').max(100),
});
export const COMPANY_SEARCH_LIMIT = 20;
export const searchCompaniesResponseSchema = z.object({ items: z.array(companySchema) });
