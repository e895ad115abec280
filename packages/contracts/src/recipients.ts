import { isFinnishBusinessId, isSwedishOrganisationNumber } from '@portal/domain/organisation-number';
import { z } from 'zod';
import { RECIPIENT_NAME_MAX } from './constants';
import { listQuerySchema, pageSchema } from './lists';
import { isPresent, isWithinMaxLength, multilineText, plainText, requiredEmail, requiredText } from './rules';

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

export const RECIPIENT_COUNTRIES = ['SE', 'FI', 'NO', 'DK', 'DE', 'GB', 'US'] as const;

/** An optional text: empty passes; otherwise at most `max` code points (spec §5). */
export function optionalText(max: number, options: { multiline?: boolean } = {}) {
  return (options.multiline ? multilineText : plainText)()
    .trim()
    .refine((v) => isWithinMaxLength(v, max), 'validation.max_length')
    .default('');
}

/**
 * A Swedish organisation number or personnummer (10 digits, Luhn), or a Finnish business id.
 * Empty passes: a private person may be invoiced without one.
 */
export function isValidPartyNumber(value: string): boolean {
  if (!isPresent(value)) return true;
  return (
    isSwedishOrganisationNumber(value) || isFinnishBusinessId(value) || isSwedishPersonalNumberLike(value)
  );
}

/** Personnummer YYMMDD-NNNN or YYYYMMDDNNNN with a Luhn check digit on the last ten digits. */
function isSwedishPersonalNumberLike(value: string): boolean {
  const digits = value.replace(/[-+\s]/g, '');
  if (!/^(\d{10}|\d{12})$/.test(digits)) return false;
  const ten = digits.slice(-10);
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    let d = Number(ten[i]) * (i % 2 === 0 ? 2 : 1);
    if (d > 9) d -= 9;
    sum += d;
  }
  return sum % 10 === 0;
}

/** VAT number: two letters and 2-13 characters, e.g. SE556036079301 or FI07375462. Empty passes. */
export function isVatNumberFormat(value: string): boolean {
  if (!isPresent(value)) return true;
  return /^[A-Z]{2}[0-9A-Z]{2,13}$/.test(value.replace(/\s/g, '').toUpperCase());
}

/** `POST/PUT limited/recipients`: the recipient rules of spec §5. */
export const recipientBodySchema = z.object({
  name: requiredText(RECIPIENT_LIMITS.name),
  address: optionalText(RECIPIENT_LIMITS.address),
  address2: optionalText(RECIPIENT_LIMITS.address2),
  zipcode: requiredText(RECIPIENT_LIMITS.zipcode),
  city: requiredText(RECIPIENT_LIMITS.city),
  country: z.enum(RECIPIENT_COUNTRIES, 'validation.invalid').default('SE'),
  email: requiredEmail(RECIPIENT_LIMITS.email),
  phone: optionalText(RECIPIENT_LIMITS.phone),
  organizationNumber: optionalText(RECIPIENT_LIMITS.organizationNumber).refine(
    isValidPartyNumber,
    'validation.organization_number',
  ),
  vat: optionalText(RECIPIENT_LIMITS.vat).refine(isVatNumberFormat, 'validation.vat_number'),
});
export type RecipientBody = z.input<typeof recipientBodySchema>;

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
