import { isValidIsoDate } from './calendar-date';
import { assertMinorUnits, multiplyDivide } from './money';
import { isSwedishOrganisationNumber } from './organisation-number';
import { isValidPersonalNumber, parsePersonalNumber } from './personal-number';

/**
 * Swedish ROT and RUT tax reductions on an invoice ("fakturamodellen"): the seller takes a share of
 * the labour cost including VAT off the amount the private buyer pays and claims it from Skatteverket.
 * Facts from shared/domain/vat-rot-rut.md §3. Amounts are öre (SEK minor units); ROT/RUT exists only
 * for invoices in SEK.
 */

/** The two household-work reductions (the third, green technology, was not researched). */
export const TAX_REDUCTION_TYPES = ['rot', 'rut'] as const;
/** `rot`: repair, conversion, extension. `rut`: cleaning, maintenance, gardening, moving, IT help, … */
export type TaxReductionType = (typeof TAX_REDUCTION_TYPES)[number];

/** One dated percentage; `to` is inclusive and null while the rate is open-ended. */
export interface TaxReductionRatePeriod {
  type: TaxReductionType;
  from: string;
  to: string | null;
  /** Share of the labour cost incl. VAT, in basis points (3000 = 30 %). */
  rateBasisPoints: number;
}

/**
 * Dated ROT and RUT percentages (vat-rot-rut.md §3.1). ROT is 30 %, raised to 50 % for payments made
 * 12 May-31 December 2025 (Prop. 2024/25:156) and back to 30 % from 1 January 2026; RUT is 50 %
 * throughout. The table starts in 2024, the earliest year the notes cover.
 */
export const TAX_REDUCTION_RATES: readonly TaxReductionRatePeriod[] = [
  { type: 'rot', from: '2024-01-01', to: '2025-05-11', rateBasisPoints: 3000 },
  { type: 'rot', from: '2025-05-12', to: '2025-12-31', rateBasisPoints: 5000 },
  { type: 'rot', from: '2026-01-01', to: null, rateBasisPoints: 3000 },
  { type: 'rut', from: '2024-01-01', to: null, rateBasisPoints: 5000 },
];

/**
 * Most ROT and RUT reduction one buyer can get per calendar year, together: 75 000 SEK in öre
 * (vat-rot-rut.md §3.2, Skatteverket as reported in Sept 2025; Prop. 2023/24:86). Applies from 2025;
 * the second half of 2024 had separate caps, which this module does not model.
 */
export const ROT_RUT_YEARLY_CAP_MINOR = 7_500_000;
/** Of the combined cap, at most 50 000 SEK (öre here) may be ROT (same source). */
export const ROT_YEARLY_CAP_MINOR = 5_000_000;

/**
 * The percentage (basis points) for a reduction paid on `paymentDate` (`YYYY-MM-DD`): the buyer's
 * payment date decides, not the invoice or work date (vat-rot-rut.md §3.1). Null for a date before
 * 2024 or an invalid date.
 */
export function taxReductionRateBasisPoints(type: TaxReductionType, paymentDate: string): number | null {
  if (!isValidIsoDate(paymentDate)) return null;
  const period = TAX_REDUCTION_RATES.find(
    (p) => p.type === type && p.from <= paymentDate && (p.to === null || paymentDate <= p.to),
  );
  return period === undefined ? null : period.rateBasisPoints;
}

/**
 * What one buyer can still get this year, in öre, after the ROT and RUT reductions already used:
 * RUT is limited by the combined cap, ROT by the combined cap and the ROT cap. Never negative. Throws
 * on a negative or non-integer amount used.
 */
export function remainingYearlyCapMinor(
  type: TaxReductionType,
  usedRotMinor: number,
  usedRutMinor: number,
): number {
  for (const [name, value] of [
    ['usedRotMinor', usedRotMinor],
    ['usedRutMinor', usedRutMinor],
  ] as const) {
    assertMinorUnits(value, name);
    if (value < 0) throw new RangeError(`${name} must not be negative`);
  }
  const combined = ROT_RUT_YEARLY_CAP_MINOR - usedRotMinor - usedRutMinor;
  const left = type === 'rot' ? Math.min(combined, ROT_YEARLY_CAP_MINOR - usedRotMinor) : combined;
  return Math.max(0, left);
}

/** Input of `computeTaxReduction`; amounts in öre. */
export interface TaxReductionInput {
  type: TaxReductionType;
  /** The buyer's (expected) payment date, `YYYY-MM-DD`; for a new invoice, its due date. */
  paymentDate: string;
  /** Labour rows' net plus their VAT, in öre. */
  labourGrossMinor: number;
  /**
   * Reduction the buyer(s) can still get this year, in öre. Defaults to one buyer's full cap for the
   * type (ROT 50 000 SEK, RUT 75 000 SEK). With two owners, pass the sum of their remaining caps.
   */
  availableCapMinor?: number;
}

/** The reduction on one invoice, amounts in öre. */
export interface TaxReduction {
  type: TaxReductionType;
  rateBasisPoints: number;
  /** Percentage × labour incl. VAT, rounded half away from zero to the öre, before the cap. */
  uncappedMinor: number;
  /** The reduction taken off the invoice: the uncapped amount limited by the available cap. */
  deductionMinor: number;
  isCapped: boolean;
}

/**
 * The reduction on an invoice: `rateBasisPoints` × labour incl. VAT / 10 000, rounded once, half away
 * from zero, to the öre (vat-rot-rut.md: "round each deduction once"), then limited to the available
 * cap. Labour of zero or less gives no reduction. Example (§3.5): labour 50 000 SEK incl. VAT at 30 %
 * → 15 000 SEK. Throws a RangeError when no percentage is known for `paymentDate` or an amount is not
 * a safe integer (the cap also must not be negative).
 */
export function computeTaxReduction(input: TaxReductionInput): TaxReduction {
  assertMinorUnits(input.labourGrossMinor, 'labourGrossMinor');
  const rateBasisPoints = taxReductionRateBasisPoints(input.type, input.paymentDate);
  if (rateBasisPoints === null) {
    throw new RangeError(`no ${input.type.toUpperCase()} percentage for payment date ${input.paymentDate}`);
  }
  const cap =
    input.availableCapMinor ?? (input.type === 'rot' ? ROT_YEARLY_CAP_MINOR : ROT_RUT_YEARLY_CAP_MINOR);
  assertMinorUnits(cap, 'availableCapMinor');
  if (cap < 0) throw new RangeError('availableCapMinor must not be negative');
  const uncappedMinor =
    input.labourGrossMinor > 0 ? multiplyDivide(input.labourGrossMinor, rateBasisPoints, 10_000) : 0;
  const deductionMinor = Math.min(uncappedMinor, cap);
  return {
    type: input.type,
    rateBasisPoints,
    uncappedMinor,
    deductionMinor,
    isCapped: deductionMinor < uncappedMinor,
  };
}

/**
 * Longest property designation (fastighetsbeteckning, e.g. "NORRA VISLINGE 11:11") accepted, in
 * characters; one invoicing system documents the field as free text of at most 40 (vat-rot-rut.md
 * §3.4).
 */
export const PROPERTY_DESIGNATION_MAX_LENGTH = 40;
/** Longest apartment number (lägenhetsnummer, normally 4 digits) accepted; our own limit. */
export const APARTMENT_NUMBER_MAX_LENGTH = 10;

function codePointLength(value: string): number {
  return [...value].length;
}

/** True for a non-blank property designation of at most 40 characters (code points) after trimming. */
export function isValidPropertyDesignation(value: string): boolean {
  const trimmed = value.trim();
  return trimmed !== '' && codePointLength(trimmed) <= PROPERTY_DESIGNATION_MAX_LENGTH;
}

/**
 * True for a housing co-op's (bostadsrättsförening) organisation number: a valid Swedish organisation
 * number in group 7, economic associations, the legal form of every housing co-op (references-and-ids.md
 * §3.1, e.g. 717600-4583).
 */
export function isValidHousingCooperativeNumber(value: string): boolean {
  return isSwedishOrganisationNumber(value) && value.replace(/[\s-]/g, '').slice(-10).startsWith('7');
}

/** True for a non-blank apartment number of at most 10 letters, digits, spaces or hyphens. */
export function isValidApartmentNumber(value: string): boolean {
  const trimmed = value.trim();
  return (
    /^[\p{L}\p{N}][\p{L}\p{N} -]*$/u.test(trimmed) && codePointLength(trimmed) <= APARTMENT_NUMBER_MAX_LENGTH
  );
}

/** Where ROT work was done: a house by its property designation, or a co-op flat. */
export type RotProperty =
  | { kind: 'property'; designation: string }
  | { kind: 'housing-cooperative'; organisationNumber: string; apartmentNumber: string };

/** The buyer and property data a ROT/RUT invoice must carry (vat-rot-rut.md §3.4). */
export interface TaxReductionDetails {
  type: TaxReductionType;
  /** Every buyer who gets a share of the reduction, by personnummer or samordningsnummer. */
  buyers: readonly { personalNumber: string }[];
  /** Required for ROT, ignored for RUT. */
  property?: RotProperty | null;
}

/** One problem with the ROT/RUT details; `path` points at the field as in a zod issue. */
export interface TaxReductionIssue {
  path: (string | number)[];
  code:
    | 'rot_rut.buyer_required'
    | 'rot_rut.invalid_personal_number'
    | 'rot_rut.duplicate_buyer'
    | 'rot_rut.property_required'
    | 'rot_rut.invalid_property_designation'
    | 'rot_rut.invalid_housing_cooperative'
    | 'rot_rut.invalid_apartment_number';
}

/**
 * Checks what the invoice must show for ROT/RUT (vat-rot-rut.md §3.4): at least one buyer, each a
 * valid personnummer or samordningsnummer on `today` (a private person: an organisation number fails
 * because its month digits are 20 or more) and none twice; for ROT also the property designation, or
 * for a co-op flat the co-op's organisation number and the apartment number. Returns every issue
 * found; an empty list means the details are complete.
 */
export function validateTaxReductionDetails(
  details: TaxReductionDetails,
  today: string,
): TaxReductionIssue[] {
  const issues: TaxReductionIssue[] = [];
  if (details.buyers.length === 0) issues.push({ path: ['buyers'], code: 'rot_rut.buyer_required' });
  const seen = new Set<string>();
  details.buyers.forEach((buyer, index) => {
    const parsed = parsePersonalNumber(buyer.personalNumber, today);
    const path = ['buyers', index, 'personalNumber'];
    if (parsed === null) {
      issues.push({ path, code: 'rot_rut.invalid_personal_number' });
    } else if (seen.has(parsed.digits)) {
      issues.push({ path, code: 'rot_rut.duplicate_buyer' });
    } else {
      seen.add(parsed.digits);
    }
  });
  if (details.type !== 'rot') return issues;
  const property = details.property;
  if (property === undefined || property === null) {
    issues.push({ path: ['property'], code: 'rot_rut.property_required' });
  } else if (property.kind === 'property') {
    if (!isValidPropertyDesignation(property.designation)) {
      issues.push({ path: ['property', 'designation'], code: 'rot_rut.invalid_property_designation' });
    }
  } else {
    if (!isValidHousingCooperativeNumber(property.organisationNumber)) {
      issues.push({ path: ['property', 'organisationNumber'], code: 'rot_rut.invalid_housing_cooperative' });
    }
    if (!isValidApartmentNumber(property.apartmentNumber)) {
      issues.push({ path: ['property', 'apartmentNumber'], code: 'rot_rut.invalid_apartment_number' });
    }
  }
  return issues;
}

/**
 * True when an invoice may carry ROT/RUT: a Swedish issuer (`country` "SE") invoicing in SEK. The
 * reduction is Swedish tax law and claimed in kronor, so a Finnish issuer or a EUR invoice never has
 * it; the invoice form hides its ROT/RUT section and the server refuses it.
 */
export function isRotRutAvailable(issuerCountry: string, currency: string): boolean {
  return issuerCountry === 'SE' && currency === 'SEK';
}

/** The ROT/RUT part of an invoice as the invoice form and the API carry it (texts as typed). */
export interface InvoiceRotRut {
  type: TaxReductionType | 'none';
  /** The buyer's personnummer or samordningsnummer. */
  personalNumber: string;
  /** ROT on a house: its property designation (fastighetsbeteckning). */
  propertyDesignation: string;
  /** ROT in a co-op flat: the housing co-op's organisation number. */
  housingCoopNumber: string;
}

/** One broken ROT/RUT rule of an invoice: the field path as the form and the API name it, and its code. */
export interface InvoiceRotRutIssue {
  path: 'rotRut.personalNumber' | 'rotRut.propertyDesignation' | 'rotRut.housingCoopNumber' | 'rows';
  code:
    | 'validation.required'
    | 'validation.personal_number'
    | 'validation.organization_number'
    | 'validation.rot_rut_labour_row';
}

/**
 * The rules of an invoice with ROT or RUT, the same in the invoice form and on the server (the codes
 * are the contract's `validation.*` codes): the buyer's personal number is required (blank after
 * trimming: `validation.required`, spec §5 "Required") and valid on the invoice date
 * (`validation.personal_number`; with an invalid invoice date, valid in either century); for ROT a
 * property designation or a housing co-op is required (`validation.required` at the property
 * designation) and a co-op's number must be a valid Swedish organisation number
 * (`validation.organization_number`); at least one row must be labour (`rows`,
 * `validation.rot_rut_labour_row`). Type `none` has no rules: an empty list. Whether ROT/RUT is
 * allowed at all (`isRotRutAvailable`) and the buyer being a private person are the caller's checks.
 * Issues come in the order of the fields.
 */
export function invoiceRotRutIssues(invoice: {
  invoiceDate: string;
  rotRut: InvoiceRotRut;
  rows: readonly { rotRut: boolean }[];
}): InvoiceRotRutIssue[] {
  const { rotRut } = invoice;
  const issues: InvoiceRotRutIssue[] = [];
  if (rotRut.type === 'none') return issues;
  const personalNumber = rotRut.personalNumber.trim();
  const today = isValidIsoDate(invoice.invoiceDate) ? invoice.invoiceDate : undefined;
  if (personalNumber === '') issues.push({ path: 'rotRut.personalNumber', code: 'validation.required' });
  else if (!isValidPersonalNumber(personalNumber, today))
    issues.push({ path: 'rotRut.personalNumber', code: 'validation.personal_number' });
  if (rotRut.type === 'rot') {
    const coop = rotRut.housingCoopNumber.trim();
    if (rotRut.propertyDesignation.trim() === '' && coop === '')
      issues.push({ path: 'rotRut.propertyDesignation', code: 'validation.required' });
    if (coop !== '' && !isSwedishOrganisationNumber(coop))
      issues.push({ path: 'rotRut.housingCoopNumber', code: 'validation.organization_number' });
  }
  if (!invoice.rows.some((row) => row.rotRut))
    issues.push({ path: 'rows', code: 'validation.rot_rut_labour_row' });
  return issues;
}
