import type { Currency } from './money';

/**
 * The typed form of a BGMAX file (Bankgirot "Bankgiro Inbetalningar"), shared by the reader and the
 * writer, plus the error the reader throws and the Latin-1 byte conversion both use. Field positions
 * and code lists: shared/domain/bgmax.md §3 and §4.
 *
 * Conventions of every type below:
 * - Amounts are unsigned integer öre (or euro cents in an `EUR` section) as a safe-integer `number`,
 *   exactly as the file writes them; the record type says whether they add or subtract (TK21, TK23).
 *   The file allows 18 digits (up to 10^18 − 1), more than `Number.MAX_SAFE_INTEGER` (2^53 − 1 ≈
 *   9.0 × 10^15 öre, 90 000 billion SEK). The portal keeps money as safe-integer `number`s everywhere,
 *   so the reader refuses an amount beyond that range (`bgmax.amount_out_of_range`) rather than hand out
 *   a second money type; sums are formed with `bigint`, so adding 100 000 large amounts is still exact.
 * - Numbers that are right-justified and zero-filled in the file (bankgiro, plusgiro, bank account)
 *   are kept as their digits without the leading zeros ("0009912346" → "9912346"); an all-zero field
 *   is `null`. The writer zero-fills them again.
 * - Free text (names, addresses, information texts) keeps leading blanks but loses trailing ones, which
 *   the fixed-width layout cannot tell apart from padding. References lose blanks on both sides.
 * - Dates are `YYYY-MM-DD` (the portal's date format), the file timestamp is
 *   `YYYY-MM-DDTHH:MM:SS.ffffff` (Bankgirot's local time, no zone).
 */

/** `T` marks a test file, `P` a production delivery (TK01 position 45). */
export type BgmaxTestMark = 'T' | 'P';

/**
 * Reference code (TK20–23 position 56): 0 blank (or references delivered as TK22/TK23), 1 blank
 * because the payee has no form-registration agreement, 2 correct OCR reference, 3 references as the
 * payer wrote them, 4 correct reference under extended form registration, 5 incorrect reference under
 * extended form registration.
 */
export type BgmaxReferenceCode = 0 | 1 | 2 | 3 | 4 | 5;

/**
 * Payment channel (TK20–23 position 57): 1 electronic payment from a bank, 2 Bankgirot's
 * Leverantörsbetalningar (a company's supplier-payment file), 3 paper form, 4 Autogiro.
 */
export type BgmaxPaymentChannel = 1 | 2 | 3 | 4;

/**
 * Deduction code (TK21 position 71): 0 whole deduction, nothing left over; 1 partial deduction, a
 * remainder exists; 2 final deduction after earlier partial ones.
 */
export type BgmaxDeductionCode = 0 | 1 | 2;

/** TK01, the start record. */
export interface BgmaxHeader {
  /** Always `BGMAX`; a file with another layout name is refused. */
  layoutName: 'BGMAX';
  /** Layout version, two digits (`01` in every known file). */
  version: string;
  /** When Bankgirot wrote the file: `YYYY-MM-DDTHH:MM:SS.ffffff` (microseconds), local time. */
  writtenAt: string;
  testMark: BgmaxTestMark;
}

/**
 * A TK22 (positive) or TK23 (negative) extra reference of a payment. The sender bankgiro, channel,
 * BGC serial number and image marker of these records repeat the parent's and are not kept here (the
 * reader checks they match; the writer copies them). Their amounts never count in the deposit total.
 */
export interface BgmaxExtraReference {
  /** `positive` for TK22, `negative` for TK23 (the amount field itself is unsigned). */
  sign: 'positive' | 'negative';
  /** The reference without surrounding blanks; `''` when blank. */
  reference: string;
  /** Unsigned öre; zero when the payer did not split the payment over the references. */
  amountMinor: number;
  referenceCode: BgmaxReferenceCode;
}

/** TK26, the payer's name record. */
export interface BgmaxName {
  /** Positions 3–37, at most 35 characters. */
  name: string;
  /** Positions 38–72 (second name line, c/o), at most 35 characters; `''` when blank. */
  extraName: string;
}

/** TK27, the payer's first address record. */
export interface BgmaxAddress1 {
  /** Street address, at most 35 characters. */
  street: string;
  /** Postcode as delivered (`12345`, also `135 68`), at most 9 characters. */
  postcode: string;
}

/** TK28, the payer's second address record. */
export interface BgmaxAddress2 {
  /** Town, at most 35 characters. */
  town: string;
  /** Country name, at most 35 characters; `''` for Sweden in every known file. */
  country: string;
  /** ISO 3166 alpha-2 country code, `''` when blank. */
  countryCode: string;
}

/**
 * A TK20 payment or a TK21 deduction with the records that follow it (TK22–TK29). A deduction (e.g.
 * a credit invoice the payer subtracted) is written with a positive amount and subtracts from the
 * deposit: `bgmaxSignedAmount` gives the signed value.
 */
export interface BgmaxPayment {
  kind: 'payment' | 'deduction';
  /** The payer's bankgiro without leading zeros, `null` when the field is all zeros (paper slips).
   * Not Luhn-checked: Bankgirot's own examples use numbers that fail it. */
  senderBankgiro: string | null;
  /** Up to 25 characters without surrounding blanks; `''` when blank. Layout depends on the code. */
  reference: string;
  /** Unsigned öre. */
  amountMinor: number;
  referenceCode: BgmaxReferenceCode;
  channel: BgmaxPaymentChannel;
  /** Bankgirot's own id of the payment (BGC-löpnummer), 12 digits, kept as a string. */
  bgcSerialNumber: string;
  /** True when an image of the paper slip exists (image marker 1). */
  hasImage: boolean;
  /** TK21 only; `null` for a payment. */
  deductionCode: BgmaxDeductionCode | null;
  /** TK22/TK23 records in file order. */
  extraReferences: BgmaxExtraReference[];
  /** TK25 texts in file order (each at most 50 characters); join with a newline to show them. */
  informationTexts: string[];
  name: BgmaxName | null;
  address1: BgmaxAddress1 | null;
  address2: BgmaxAddress2 | null;
  /**
   * TK29 positions 3–14 as delivered without trailing blanks, normally 12 digits zero-filled
   * (`005562736032` → 556273-6032). Not validated: Bankgirot's own example has a defective
   * `00550000432`. `null` when the payment has no TK29.
   */
  organisationNumber: string | null;
}

/** The parts of a payment that the records after its TK20/TK21 (TK22 to TK29) fill in. */
export type BgmaxPaymentDetails = Pick<
  BgmaxPayment,
  'extraReferences' | 'informationTexts' | 'name' | 'address1' | 'address2' | 'organisationNumber'
>;

/** A TK20/TK21 payment as it stands before the records after it: with none of their details. */
export function bgmaxPaymentRecord(record: Omit<BgmaxPayment, keyof BgmaxPaymentDetails>): BgmaxPayment {
  // Every property written out, not `...record`: the spread and the six properties added after it
  // allocated ~3.4 kB per payment read (issue #15: 336 MB for a file of 100,000), this ~0.2 kB.
  return {
    kind: record.kind,
    senderBankgiro: record.senderBankgiro,
    reference: record.reference,
    amountMinor: record.amountMinor,
    referenceCode: record.referenceCode,
    channel: record.channel,
    bgcSerialNumber: record.bgcSerialNumber,
    hasImage: record.hasImage,
    deductionCode: record.deductionCode,
    extraReferences: [],
    informationTexts: [],
    name: null,
    address1: null,
    address2: null,
    organisationNumber: null,
  };
}

/** TK15, the deposit record that closes a section. */
export interface BgmaxDeposit {
  /** The payee's bank account (clearing + account) without leading zeros; `null` when all zeros. */
  bankAccount: string | null;
  /** Payment (deposit) date, `YYYY-MM-DD`. */
  paymentDate: string;
  /** Deposit serial number, 0–99 999 (a running number). */
  serialNumber: number;
  /** Unsigned öre: Σ TK20 amounts − Σ TK21 amounts of the section (checked by the reader). */
  amountMinor: number;
  /** Equals the section's TK05 currency (checked). */
  currency: Currency;
  /** Number of TK20 **and** TK21 records in the section (checked). */
  paymentCount: number;
  /** Position 80 (`K`, `D`, `S`), opaque: its meaning depends on the payee's bank agreement. `null` when blank. */
  depositType: string | null;
}

/** One deposit: a TK05 opening record, its payments and deductions, and the TK15 that closes it. */
export interface BgmaxSection {
  /** The payee's bankgiro without leading zeros (`0009912346` → `9912346`); `''` if all zeros. */
  payeeBankgiro: string;
  /** The payee's plusgiro without leading zeros; `null` when blank or all zeros. */
  payeePlusgiro: string | null;
  /** `SEK`, or `EUR` in files from before 31 Oct 2016. */
  currency: Currency;
  /** TK20 and TK21 records in file order. */
  payments: BgmaxPayment[];
  deposit: BgmaxDeposit;
}

/** TK70, the end record: counts over the whole file (checked by the reader). */
export interface BgmaxEnd {
  /** Number of TK20 records. */
  paymentCount: number;
  /** Number of TK21 records. */
  deductionCount: number;
  /** Number of TK22 and TK23 records. */
  extraReferenceCount: number;
  /** Number of TK15 records (= sections). */
  depositCount: number;
}

/** A whole BGMAX file: start record, sections in file order, end record. */
export interface BgmaxFile {
  header: BgmaxHeader;
  sections: BgmaxSection[];
  end: BgmaxEnd;
}

/**
 * The rules a BGMAX file is refused by; each `BgmaxError` carries one. Named `feature.reason` like the
 * portal's other error codes, so a UI can translate them.
 */
export const BGMAX_RULES = [
  /** No record at all (only empty lines). */
  'bgmax.empty_file',
  /** A record is longer than 80 characters (after expanding TABs). */
  'bgmax.record_too_long',
  /** The first record is not a TK01 start record, or a second TK01 appears. */
  'bgmax.start_not_first',
  /** The TK01 layout name is not `BGMAX`. */
  'bgmax.not_bgmax',
  /** A record follows the TK70 end record. */
  'bgmax.record_after_end',
  /** The file ends without a TK70 end record. */
  'bgmax.end_missing',
  /** A TK05 or TK70 appears while a section is still open (its TK15 is missing). */
  'bgmax.section_not_closed',
  /** A TK20, TK21 or TK15 appears outside a section (before any TK05 or after its TK15). */
  'bgmax.outside_section',
  /** A TK22–TK29 does not follow a TK20/TK21 of the current section. */
  'bgmax.detail_without_payment',
  /** A second TK26, TK27, TK28 or TK29 for the same payment. */
  'bgmax.detail_repeated',
  /** A TK22/TK23 whose sender bankgiro, channel, BGC serial number or image marker differs from its parent's. */
  'bgmax.extra_reference_mismatch',
  /** A numeric field holds something other than digits. */
  'bgmax.not_digits',
  /** A date or the file timestamp is not a real date and time. */
  'bgmax.invalid_date',
  /** A code outside its list: test marker, reference code, channel, image marker, deduction code. */
  'bgmax.invalid_code',
  /** A currency other than `SEK` or `EUR`. */
  'bgmax.invalid_currency',
  /** An amount above `Number.MAX_SAFE_INTEGER` öre. */
  'bgmax.amount_out_of_range',
  /** A TK15 amount differs from Σ TK20 − Σ TK21 of its section. */
  'bgmax.deposit_amount_mismatch',
  /** A TK15 payment count differs from the number of TK20 + TK21 of its section. */
  'bgmax.deposit_count_mismatch',
  /** A TK15 currency differs from its TK05 currency. */
  'bgmax.currency_mismatch',
  /** A TK70 count differs from the records in the file. */
  'bgmax.end_count_mismatch',
] as const;

/** One of `BGMAX_RULES`. */
export type BgmaxRule = (typeof BGMAX_RULES)[number];

/**
 * Why the reader refused a BGMAX file. `line` is the 1-based physical line of the file (empty lines
 * count); for a missing end record it is the line of the last record. `rule` is one of `BGMAX_RULES`;
 * the message says the same for people and logs.
 */
export class BgmaxError extends Error {
  readonly line: number;
  readonly rule: BgmaxRule;

  constructor(line: number, rule: BgmaxRule, detail: string) {
    super(`BGMAX line ${line}: ${detail} (${rule})`);
    this.name = 'BgmaxError';
    this.line = line;
    this.rule = rule;
  }
}

/** The signed öre of a payment: positive for TK20, negative for a TK21 deduction. */
export function bgmaxSignedAmount(payment: Pick<BgmaxPayment, 'kind' | 'amountMinor'>): number {
  return payment.kind === 'deduction' && payment.amountMinor !== 0
    ? -payment.amountMinor
    : payment.amountMinor;
}

/** The signed öre of an extra reference: positive for TK22, negative for TK23. */
export function bgmaxExtraReferenceSignedAmount(
  extra: Pick<BgmaxExtraReference, 'sign' | 'amountMinor'>,
): number {
  return extra.sign === 'negative' && extra.amountMinor !== 0 ? -extra.amountMinor : extra.amountMinor;
}

/**
 * Σ TK20 − Σ TK21 of a section's payments as an exact `bigint` (never rounded, whatever the count),
 * and the number of TK20 + TK21: the two values its TK15 must carry.
 */
export function bgmaxSectionTotals(payments: readonly Pick<BgmaxPayment, 'kind' | 'amountMinor'>[]): {
  amountMinor: bigint;
  paymentCount: number;
} {
  let sum = 0n;
  for (const payment of payments) {
    sum += payment.kind === 'deduction' ? -BigInt(payment.amountMinor) : BigInt(payment.amountMinor);
  }
  return { amountMinor: sum, paymentCount: payments.length };
}

/** The TK70 counts of a list of sections: TK20, TK21, TK22 + TK23 and TK15 records. */
export function bgmaxEndCounts(sections: readonly BgmaxSection[]): BgmaxEnd {
  let paymentCount = 0;
  let deductionCount = 0;
  let extraReferenceCount = 0;
  for (const section of sections) {
    for (const payment of section.payments) {
      if (payment.kind === 'deduction') deductionCount++;
      else paymentCount++;
      extraReferenceCount += payment.extraReferences.length;
    }
  }
  return { paymentCount, deductionCount, extraReferenceCount, depositCount: sections.length };
}

// Small enough for `apply` to pass as arguments, large enough to keep the number of pieces low.
const CHUNK = 0x2000;

/**
 * The WHATWG decoder labelled `latin1`, which is windows-1252: the same as ISO-8859-1 for every byte
 * but 0x80–0x9F (€, ‚, … instead of the C1 codes; browsers do so, Node 20 decodes those as ISO-8859-1
 * too). Null where the platform has none.
 */
const WINDOWS_1252 = ((): { decode(bytes: Uint8Array): string } | null => {
  try {
    return new TextDecoder('latin1');
  } catch {
    return null;
  }
})();

/** Whether any byte is a C1 code (0x80–0x9F), where windows-1252 and ISO-8859-1 differ. */
function hasC1(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b >= 0x80 && b <= 0x9f) return true;
  }
  return false;
}

/**
 * Decodes ISO-8859-1 bytes: each byte is the code point of the same number (0xE5 → å). Bytes without a
 * C1 code go through `TextDecoder('latin1')` (windows-1252, the same for them), which builds the
 * string alone; others by `String.fromCharCode` in 8 KiB chunks joined once, whose `apply` first
 * copies every byte into an argument list of 8 bytes per byte (the reader decodes a file line by line:
 * that was ~700 bytes of garbage per line, issue #15). Linear either way.
 */
export function decodeLatin1(bytes: Uint8Array): string {
  if (WINDOWS_1252 && !hasC1(bytes)) return WINDOWS_1252.decode(bytes);
  const chunks: string[] = [];
  for (let start = 0; start < bytes.length; start += CHUNK) {
    // `apply` takes the typed array as it is; a spread would first build an array of numbers.
    chunks.push(String.fromCharCode.apply(null, bytes.subarray(start, start + CHUNK) as unknown as number[]));
  }
  return chunks.join('');
}

/**
 * Encodes text as ISO-8859-1 bytes, one byte per UTF-16 unit; a unit above U+00FF becomes `?`.
 * Callers that care about column widths replace non-Latin-1 characters per code point first (the
 * writer does), since a character outside the BMP is two units.
 */
export function encodeLatin1(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    bytes[i] = code <= 0xff ? code : 0x3f;
  }
  return bytes;
}
