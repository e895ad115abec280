import {
  type BgmaxDeductionCode,
  type BgmaxFile,
  type BgmaxPayment,
  type BgmaxPaymentChannel,
  type BgmaxReferenceCode,
  type BgmaxSection,
  type BgmaxTestMark,
  bgmaxEndCounts,
  bgmaxPaymentRecord,
  bgmaxSectionTotals,
  encodeLatin1,
} from './bgmax-model';
import { isRealDate, isValidIsoDate } from './calendar-date';
import type { Currency } from './money';
import { isValidOcrReference } from './ocr-reference';

/**
 * Writes BGMAX files (shared/domain/bgmax.md §7): from a whole `BgmaxFile`, or from the payments of
 * one settlement.
 */

/** Line ending the writer puts after every record, the last one included. */
export const BGMAX_LINE_ENDING = '\r\n';

const TIMESTAMP = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})\.([0-9]{6})$/;

function invalid(detail: string): never {
  throw new RangeError(`BGMAX: ${detail}`);
}

// Right-justified zero-filled digits; null or '' writes zeros.
function zeroFilled(value: string | null, width: number, name: string): string {
  const digits = value ?? '';
  if (!/^[0-9]*$/.test(digits) || digits.length > width)
    invalid(`${name} must be at most ${width} digits: "${digits}"`);
  return digits.padStart(width, '0');
}

function count(value: number, width: number, name: string): string {
  if (!Number.isSafeInteger(value) || value < 0 || value >= 10 ** width) {
    invalid(`${name} must be an integer 0-${10 ** width - 1}: ${String(value)}`);
  }
  return String(value).padStart(width, '0');
}

function amount(value: number, name: string): string {
  if (!Number.isSafeInteger(value) || value < 0)
    invalid(`${name} must be a non-negative safe integer of öre: ${String(value)}`);
  return String(value).padStart(18, '0');
}

// C0 control characters (TAB, CR and LF among them) would break the fixed columns or the lines; other
// Latin-1 characters, C1 codes included, pass through unchanged so that anything read can be written.
function isControl(unit: number): boolean {
  return unit < 0x20;
}

// Latin-1 text of at most `width` characters, padded with blanks; other characters become `?`.
function text(value: string, width: number, name: string): string {
  let outsideLatin1 = false;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (isControl(unit)) invalid(`${name} contains a control character`);
    if (unit > 0xff) outsideLatin1 = true;
  }
  // Replace per code point so that a character outside the BMP becomes one `?`, not two.
  const latin1 = outsideLatin1
    ? Array.from(value, (char) => ((char.codePointAt(0) ?? 0) <= 0xff ? char : '?')).join('')
    : value;
  if (latin1.length > width) invalid(`${name} is longer than ${width} characters: "${value}"`);
  return latin1.padEnd(width, ' ');
}

function code(value: number, allowed: readonly number[], name: string): string {
  if (!allowed.includes(value)) invalid(`${name} must be one of ${allowed.join(', ')}: ${String(value)}`);
  return String(value);
}

function date(value: string, name: string): string {
  if (!isValidIsoDate(value)) invalid(`${name} must be a real YYYY-MM-DD date: "${value}"`);
  return value.replaceAll('-', '');
}

function timestamp(value: string): string {
  const match = TIMESTAMP.exec(value);
  const [, y, mo, d, h, mi, s, micro] = match ?? [];
  if (
    !match ||
    !isRealDate(Number(y), Number(mo), Number(d)) ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(s) > 59
  ) {
    invalid(`writtenAt must be YYYY-MM-DDTHH:MM:SS.ffffff: "${value}"`);
  }
  return `${y}${mo}${d}${h}${mi}${s}${micro}`;
}

const REFERENCE_CODES = [0, 1, 2, 3, 4, 5];
const CHANNELS = [1, 2, 3, 4];
const DEDUCTION_CODES = [0, 1, 2];

// Code 2 (OCR) is right-justified, everything else left-justified (shared/domain/bgmax.md §4, §7).
function reference(value: string, referenceCode: number): string {
  const trimmed = value.trim();
  if (referenceCode !== 2) return text(trimmed, 25, 'reference');
  if (trimmed.length > 25) invalid(`reference is longer than 25 characters: "${value}"`);
  return text(trimmed.padStart(25, ' '), 25, 'reference');
}

// Columns 3-70 of TK20-23.
function transactionColumns(
  payment: BgmaxPayment,
  ref: string,
  amountMinor: number,
  referenceCode: BgmaxReferenceCode,
): string {
  return (
    zeroFilled(payment.senderBankgiro, 10, 'sender bankgiro') +
    reference(ref, referenceCode) +
    amount(amountMinor, 'amount') +
    code(referenceCode, REFERENCE_CODES, 'reference code') +
    code(payment.channel, CHANNELS, 'payment channel code') +
    (/^[0-9]{12}$/.test(payment.bgcSerialNumber)
      ? payment.bgcSerialNumber
      : invalid(`BGC serial number must be 12 digits: "${payment.bgcSerialNumber}"`)) +
    (payment.hasImage ? '1' : '0')
  );
}

function record(type: string, body: string): string {
  return (type + body).padEnd(80, ' ');
}

function paymentRecords(payment: BgmaxPayment, out: string[]): void {
  const isDeduction = payment.kind === 'deduction';
  if (isDeduction !== (payment.deductionCode !== null)) {
    invalid('a deduction needs a deduction code and a payment must not have one');
  }
  const deductionCode = isDeduction
    ? code(payment.deductionCode as BgmaxDeductionCode, DEDUCTION_CODES, 'deduction code')
    : ' ';
  out.push(
    record(
      isDeduction ? '21' : '20',
      transactionColumns(payment, payment.reference, payment.amountMinor, payment.referenceCode) +
        deductionCode,
    ),
  );
  for (const extra of payment.extraReferences) {
    out.push(
      record(
        extra.sign === 'negative' ? '23' : '22',
        transactionColumns(payment, extra.reference, extra.amountMinor, extra.referenceCode),
      ),
    );
  }
  for (const info of payment.informationTexts) out.push(record('25', text(info, 50, 'information text')));
  if (payment.name) {
    out.push(
      record('26', text(payment.name.name, 35, 'name') + text(payment.name.extraName, 35, 'extra name')),
    );
  }
  if (payment.address1) {
    out.push(
      record(
        '27',
        text(payment.address1.street, 35, 'street') + text(payment.address1.postcode, 9, 'postcode'),
      ),
    );
  }
  if (payment.address2) {
    const { town, country, countryCode } = payment.address2;
    out.push(
      record(
        '28',
        text(town, 35, 'town') + text(country, 35, 'country') + text(countryCode, 2, 'country code'),
      ),
    );
  }
  if (payment.organisationNumber !== null) {
    out.push(record('29', text(payment.organisationNumber, 12, 'organisation number')));
  }
}

function sectionRecords(section: BgmaxSection, index: number, out: string[]): void {
  const { deposit } = section;
  const totals = bgmaxSectionTotals(section.payments);
  if (BigInt(deposit.amountMinor) !== totals.amountMinor) {
    invalid(
      `section ${index + 1}: deposit amount ${deposit.amountMinor} differs from Σ payments − Σ deductions = ${totals.amountMinor.toString()}`,
    );
  }
  if (deposit.paymentCount !== totals.paymentCount) {
    invalid(
      `section ${index + 1}: deposit count ${deposit.paymentCount} differs from ${totals.paymentCount} payments`,
    );
  }
  if (deposit.currency !== section.currency || !['SEK', 'EUR'].includes(section.currency)) {
    invalid(
      `section ${index + 1}: currencies ${section.currency}/${deposit.currency} must be equal, SEK or EUR`,
    );
  }
  if (deposit.depositType !== null && !/^[^ ]$/.test(text(deposit.depositType, 1, 'deposit type'))) {
    invalid(`section ${index + 1}: deposit type must be one non-blank character or null`);
  }
  out.push(
    record(
      '05',
      zeroFilled(section.payeeBankgiro, 10, 'payee bankgiro') +
        (section.payeePlusgiro === null
          ? ' '.repeat(10)
          : zeroFilled(section.payeePlusgiro, 10, 'payee plusgiro')) +
        section.currency,
    ),
  );
  for (const payment of section.payments) paymentRecords(payment, out);
  out.push(
    record(
      '15',
      zeroFilled(deposit.bankAccount, 35, 'bank account') +
        date(deposit.paymentDate, 'payment date') +
        count(deposit.serialNumber, 5, 'deposit serial number') +
        amount(deposit.amountMinor, 'deposit amount') +
        deposit.currency +
        count(deposit.paymentCount, 8, 'number of payments') +
        (deposit.depositType ?? ' '),
    ),
  );
}

/**
 * Writes a `BgmaxFile` as BGMAX bytes: ISO-8859-1, one 80-character record per line, CRLF after every
 * record. Characters outside Latin-1 become `?`; references are trimmed and right-justified for
 * reference code 2 (OCR), left-justified otherwise; free text loses trailing blanks (the reader cannot
 * tell them from padding). For any file the reader returns (or one built like it), `readBgmax` of the
 * result equals the input field by field.
 *
 * The writer never emits a file the reader would refuse: it throws a RangeError when a value does not
 * fit its field (too long, non-digits in a number, a code off its list, an impossible date), when a
 * TK15 amount is not Σ TK20 − Σ TK21 of its section (exact, `bigint`) or its count not #TK20 + #TK21,
 * when TK05 and TK15 currencies differ, or when a TK70 count differs from the records written. To get
 * the totals computed instead, build the file with `createBgmaxSettlementFile` or
 * `bgmaxSectionTotals`/`bgmaxEndCounts`. Linear in the number of records.
 */
export function writeBgmax(file: BgmaxFile): Uint8Array {
  const { header } = file;
  if (header.layoutName !== 'BGMAX') invalid('layout name must be BGMAX');
  if (!/^[0-9]{2}$/.test(header.version)) invalid(`version must be two digits: "${header.version}"`);
  if (header.testMark !== 'T' && header.testMark !== 'P') invalid('test mark must be T or P');
  const counted = bgmaxEndCounts(file.sections);
  for (const key of Object.keys(counted) as (keyof typeof counted)[]) {
    if (file.end[key] !== counted[key])
      invalid(`end record ${key} is ${file.end[key]}, the file has ${counted[key]}`);
  }

  const out: string[] = [
    record(
      '01',
      `${'BGMAX'.padEnd(20, ' ')}${header.version}${timestamp(header.writtenAt)}${header.testMark}`,
    ),
  ];
  file.sections.forEach((section, index) => {
    sectionRecords(section, index, out);
  });
  out.push(
    record(
      '70',
      count(file.end.paymentCount, 8, 'number of payments') +
        count(file.end.deductionCount, 8, 'number of deductions') +
        count(file.end.extraReferenceCount, 8, 'number of extra references') +
        count(file.end.depositCount, 8, 'number of deposits'),
    ),
  );
  out.push('');
  return encodeLatin1(out.join(BGMAX_LINE_ENDING));
}

/** One incoming payment of a settlement, as the portal knows it. */
export interface BgmaxSettlementPayment {
  /** OCR reference or free text, at most 25 characters; `''` for none. */
  reference: string;
  /** Öre, a safe integer of at least 1. */
  amountMinor: number;
  /** The payer's bankgiro (digits); `null` or omitted when unknown. */
  senderBankgiro?: string | null;
  /** The payer's name (at most 35 characters), written as a TK26; omitted when null or absent. */
  name?: string | null;
  /**
   * Defaults to 2 when `reference` is a valid OCR reference (check digit), 3 for other text, 0 when
   * blank.
   */
  referenceCode?: BgmaxReferenceCode;
  /** Defaults to 1 (electronic payment from a bank). */
  channel?: BgmaxPaymentChannel;
  /** A TK21 deduction (deduction code 0): money taken off the deposit, not paid into it. */
  deduction?: boolean;
}

/** The payments of one settlement, written as a BGMAX file with one section. */
export interface BgmaxSettlementInput {
  /** The payee's bankgiro, digits only (e.g. `9912346`); required. */
  payeeBankgiro: string;
  /** The deposit's payment date, `YYYY-MM-DD`. */
  paymentDate: string;
  /** The payee's bank account (clearing + account, digits); `null` or omitted for none. */
  bankAccount?: string | null;
  /** Defaults to `SEK`. */
  currency?: Currency;
  /** Defaults to 1. */
  depositSerialNumber?: number;
  /**
   * The TK01 timestamp, `YYYY-MM-DDTHH:MM:SS.ffffff`. Defaults to midnight of `paymentDate`: this code
   * reads no clock, so pass the real time when it matters.
   */
  writtenAt?: string;
  /** Defaults to `T` (test file): the portal's export is never a delivery from Bankgirot. */
  testMark?: BgmaxTestMark;
  payments: readonly BgmaxSettlementPayment[];
}

function defaultReferenceCode(ref: string): BgmaxReferenceCode {
  const trimmed = ref.trim();
  if (trimmed === '') return 0;
  return isValidOcrReference(trimmed) && /^[0-9]+$/.test(trimmed) ? 2 : 3;
}

/**
 * Builds the `BgmaxFile` of one settlement: one TK05 … TK15 section with a TK20 (a TK21 for a
 * `deduction`, and a TK26 when a name is given) per payment, BGC serial numbers 1, 2, … in input order,
 * and the TK15 amount and count and the TK70 counts computed from the payments. Throws a RangeError
 * when an amount is not a safe integer ≥ 1, when the total leaves the safe range or is negative, or
 * when a value would not fit its field (checked again by `writeBgmax`).
 */
export function createBgmaxSettlementFile(input: BgmaxSettlementInput): BgmaxFile {
  const currency = input.currency ?? 'SEK';
  if (!isValidIsoDate(input.paymentDate))
    invalid(`paymentDate must be a real YYYY-MM-DD date: "${input.paymentDate}"`);
  if (!/^[0-9]{1,10}$/.test(input.payeeBankgiro) || /^0+$/.test(input.payeeBankgiro)) {
    invalid(`payeeBankgiro must be 1-10 digits, not all zeros: "${input.payeeBankgiro}"`);
  }
  const payments: BgmaxPayment[] = input.payments.map((p, index) => {
    if (!Number.isSafeInteger(p.amountMinor) || p.amountMinor < 1) {
      invalid(
        `payment ${index + 1}: amount must be a safe integer of at least 1 öre: ${String(p.amountMinor)}`,
      );
    }
    const reference = p.reference.trim();
    const payment = bgmaxPaymentRecord({
      kind: p.deduction ? 'deduction' : 'payment',
      senderBankgiro: stripZeros(p.senderBankgiro ?? null),
      reference,
      amountMinor: p.amountMinor,
      referenceCode: p.referenceCode ?? defaultReferenceCode(reference),
      channel: p.channel ?? 1,
      bgcSerialNumber: String(index + 1).padStart(12, '0'),
      hasImage: false,
      deductionCode: p.deduction ? 0 : null,
    });
    if (p.name != null) payment.name = { name: p.name.trimEnd(), extraName: '' };
    return payment;
  });
  const totals = bgmaxSectionTotals(payments);
  if (totals.amountMinor > BigInt(Number.MAX_SAFE_INTEGER)) {
    invalid(`the settlement total ${totals.amountMinor.toString()} öre is above the safe integer range`);
  }
  if (totals.amountMinor < 0n) invalid('a deposit cannot be negative: deductions exceed payments');
  const section: BgmaxSection = {
    payeeBankgiro: stripZeros(input.payeeBankgiro) ?? '',
    payeePlusgiro: null,
    currency,
    payments,
    deposit: {
      bankAccount: stripZeros(input.bankAccount ?? null),
      paymentDate: input.paymentDate,
      serialNumber: input.depositSerialNumber ?? 1,
      amountMinor: Number(totals.amountMinor),
      currency,
      paymentCount: totals.paymentCount,
      depositType: null,
    },
  };
  return {
    header: {
      layoutName: 'BGMAX',
      version: '01',
      writtenAt: input.writtenAt ?? `${input.paymentDate}T00:00:00.000000`,
      testMark: input.testMark ?? 'T',
    },
    sections: [section],
    end: bgmaxEndCounts([section]),
  };
}

// The reader's form of a zero-filled number: no leading zeros, null for none. Non-digits are left for
// writeBgmax to refuse.
function stripZeros(value: string | null): string | null {
  if (value === null) return null;
  const stripped = /^[0-9]+$/.test(value) ? value.replace(/^0+/, '') : value;
  return stripped === '' ? null : stripped;
}

/** `writeBgmax(createBgmaxSettlementFile(input))`: the settlement's payments as BGMAX bytes. */
export function writeBgmaxSettlement(input: BgmaxSettlementInput): Uint8Array {
  return writeBgmax(createBgmaxSettlementFile(input));
}
