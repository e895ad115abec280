// Over 500 lines on purpose: one reader of one file format, every record type (TK01-TK70) with its checks
// and line-numbered errors in one place, so a rule of Bankgirot's manual is found where the record is read.
import {
  BgmaxError,
  type BgmaxExtraReference,
  type BgmaxFile,
  type BgmaxHeader,
  type BgmaxPayment,
  type BgmaxRule,
  type BgmaxSection,
  bgmaxPaymentRecord,
  decodeLatin1,
} from './bgmax-model';
import { isRealDate } from './calendar-date';
import type { Currency } from './money';

/**
 * Reads a BGMAX file (shared/domain/bgmax.md) into a `BgmaxFile`, or refuses it whole with a
 * `BgmaxError` naming the line and the rule.
 */

/** Every record is 80 characters; shorter ones are padded with blanks. */
export const BGMAX_RECORD_LENGTH = 80;

/**
 * Width a TAB stands for. Bankgirot's own example file has a TK22 with two TABs where blanks belong;
 * expanding each to 6 blanks puts its fields back in their columns (what the Haskell `bgmax` package
 * does, shared/domain/bgmax.md §1).
 */
export const BGMAX_TAB_WIDTH = 6;

/** A record the reader skipped because its record type is not one of BGMAX's. */
export interface BgmaxSkippedRecord {
  /** 1-based physical line. */
  line: number;
  /** Positions 1–2 of the record as found. */
  recordType: string;
}

/** What `readBgmax` returns: the file and what it passed over without refusing. */
export interface BgmaxReadResult {
  file: BgmaxFile;
  /** Records of unknown types, in file order (Bankgirot's manual says to skip them). */
  skippedRecords: BgmaxSkippedRecord[];
  /** Lines whose TABs were expanded to `BGMAX_TAB_WIDTH` blanks. */
  tabExpandedLines: number[];
}

const DIGITS = /^[0-9]+$/;
const BLANK = /^ *$/;

interface OpenSection {
  section: Omit<BgmaxSection, 'deposit' | 'payments'>;
  current: BgmaxPayment | null;
  openedAt: number;
  // Which of TK26–29 the current payment already has.
  seen: Set<string>;
  /** Σ TK20 − Σ TK21 and the number of both so far (the TK15 check), kept as the records are read. */
  amountMinor: bigint;
  paymentCount: number;
}

/** A section of a file read by `scanBgmax`: everything but its payments, which were handed over one by one. */
export type BgmaxSectionFacts = Omit<BgmaxSection, 'payments'>;

/** What `scanBgmax` returns: the file without its payments. */
export interface BgmaxScanResult {
  header: BgmaxHeader;
  sections: BgmaxSectionFacts[];
  end: BgmaxFile['end'];
  skippedRecords: BgmaxSkippedRecord[];
  tabExpandedLines: number[];
}

/**
 * Reads BGMAX bytes into a typed file.
 *
 * Physical rules: the bytes are ISO-8859-1 (never UTF-8); lines end in CRLF or LF; empty (or
 * all-blank) lines are ignored but still counted for line numbers; each TAB is expanded to
 * `BGMAX_TAB_WIDTH` blanks (reported in `tabExpandedLines`); a record shorter than 80 characters is
 * padded with blanks; one longer than 80 is refused. Records of unknown type are skipped and reported
 * in `skippedRecords`, wherever they are.
 *
 * The file is refused (a `BgmaxError` with `line` and `rule`, see `BGMAX_RULES`) when:
 * - the structure is off: TK01 not first or repeated, TK70 missing or not last, TK20/TK21/TK15 outside
 *   a TK05 … TK15 section, TK05/TK70 while a section is open, TK22–TK29 not after a TK20/TK21 of the
 *   same section, a second TK26/27/28/29 for one payment;
 * - a field is malformed: non-digits in a numeric field, an impossible date or timestamp, a code off
 *   its list (shared/domain/bgmax.md §4), a currency other than SEK/EUR, a layout name other than BGMAX,
 *   an amount above `Number.MAX_SAFE_INTEGER`, a TK22/TK23 not repeating its parent's sender, channel,
 *   serial number and image marker;
 * - the totals disagree: per section TK15 amount ≠ Σ TK20 − Σ TK21 (deductions subtract; extra
 *   references never count), TK15 count ≠ #TK20 + #TK21, TK15 currency ≠ TK05 currency; for the file
 *   any TK70 count ≠ the records read. Sums use `bigint`, so they are exact at any size.
 *
 * Linear in the file size.
 */
export function readBgmax(bytes: Uint8Array): BgmaxReadResult {
  const byIndex: BgmaxPayment[][] = [];
  const payments = bgmaxPayments(bytes);
  for (;;) {
    const next = payments.next();
    if (next.done) {
      const { header, sections, end, skippedRecords, tabExpandedLines } = next.value;
      const file = { header, sections: sections.map((s, i) => ({ ...s, payments: byIndex[i] ?? [] })), end };
      return { file, skippedRecords, tabExpandedLines };
    }
    const { payment, sectionIndex } = next.value;
    const list = byIndex[sectionIndex];
    if (list) list.push(payment);
    else byIndex[sectionIndex] = [payment];
  }
}

/** The opening facts of the section a payment is in (its TK05). */
export type BgmaxSectionHead = Omit<BgmaxSection, 'payments' | 'deposit'>;

/** A payment as `bgmaxPayments` hands it over, complete, with its section (whose TK15 comes later). */
export interface BgmaxScannedPayment {
  payment: BgmaxPayment;
  /** 0-based index of its section in `BgmaxScanResult.sections`. */
  sectionIndex: number;
  section: BgmaxSectionHead;
}

/**
 * Reads BGMAX bytes as `readBgmax` does, by the same rules, without keeping the payments: yields each
 * once it is complete (its TK22–TK29 read), in file order, and returns the file without them. A
 * section's deposit (TK15) comes after its payments, so a caller that needs it with each payment
 * reads the file twice: `scanBgmax` first for the sections, then this for the payments. Memory: one
 * payment and the sections' facts; the lines are decoded one at a time from the bytes. The file may
 * still be refused (a `BgmaxError` thrown from `next()`) after payments were yielded: a TK15 or TK70
 * that does not add up comes after them.
 */
export function* bgmaxPayments(bytes: Uint8Array): Generator<BgmaxScannedPayment, BgmaxScanResult, void> {
  const sections: BgmaxSectionFacts[] = [];
  const lines = walk(bytes, sections);
  for (;;) {
    const next = lines.next();
    if (next.done) return { ...next.value, sections };
    yield next.value;
  }
}

/** The file as `readBgmax` reads it, without its payments (every rule checked). */
export function scanBgmax(bytes: Uint8Array): BgmaxScanResult {
  const payments = bgmaxPayments(bytes);
  for (;;) {
    const next = payments.next();
    if (next.done) return next.value;
  }
}

/** The lines of ISO-8859-1 bytes as `decodeLatin1(bytes).split('\n')` gives them, one at a time. */
function* latin1Lines(bytes: Uint8Array): Generator<string> {
  let start = 0;
  for (;;) {
    const newline = bytes.indexOf(10, start);
    const end = newline < 0 ? bytes.length : newline;
    yield decodeLatin1(bytes.subarray(start, end));
    if (newline < 0) return;
    start = newline + 1;
  }
}

/** The rules of the reader over the bytes: yields each complete payment, adds each checked section to `sections`. */
function* walk(
  bytes: Uint8Array,
  sections: BgmaxSectionFacts[],
): Generator<BgmaxScannedPayment, Omit<BgmaxScanResult, 'sections'>, void> {
  const skippedRecords: BgmaxSkippedRecord[] = [];
  const tabExpandedLines: number[] = [];
  let header: BgmaxHeader | null = null;
  let endCounts: { line: number; counts: BgmaxFile['end'] } | null = null;
  const counted: BgmaxFile['end'] = {
    paymentCount: 0,
    deductionCount: 0,
    extraReferenceCount: 0,
    depositCount: 0,
  };
  let open: OpenSection | null = null;
  let lastRecordLine = 0;

  let lineNo = 0;
  for (let raw of latin1Lines(bytes)) {
    lineNo++;
    if (raw.endsWith('\r')) raw = raw.slice(0, -1);
    if (raw.includes('\t')) {
      raw = raw.replaceAll('\t', ' '.repeat(BGMAX_TAB_WIDTH));
      tabExpandedLines.push(lineNo);
    }
    if (BLANK.test(raw)) continue;
    if (raw.length > BGMAX_RECORD_LENGTH) {
      fail(lineNo, 'bgmax.record_too_long', `record is ${raw.length} characters, at most 80 allowed`);
    }
    const record = new RecordReader(raw.padEnd(BGMAX_RECORD_LENGTH, ' '), lineNo);
    const type = raw.slice(0, 2);
    if (!KNOWN_TYPES.has(type)) {
      skippedRecords.push({ line: lineNo, recordType: type });
      continue;
    }
    lastRecordLine = lineNo;
    if (endCounts !== null) fail(lineNo, 'bgmax.record_after_end', `TK${type} after the TK70 end record`);
    if (header === null && type !== '01') {
      fail(lineNo, 'bgmax.start_not_first', `the first record is TK${type}, not a TK01 start record`);
    }

    switch (type) {
      case '01':
        if (header !== null) fail(lineNo, 'bgmax.start_not_first', 'a second TK01 start record');
        header = readHeader(record);
        break;
      case '05':
        requireClosed(open, lineNo, type);
        open = {
          section: {
            payeeBankgiro: record.number(2, 12, 'payee bankgiro') ?? '',
            payeePlusgiro: record.optionalNumber(12, 22, 'payee plusgiro'),
            currency: record.currency(22, 25),
          },
          current: null,
          openedAt: lineNo,
          seen: new Set(),
          amountMinor: 0n,
          paymentCount: 0,
        };
        break;
      case '20':
      case '21': {
        requireOpen(open, lineNo, type);
        if (open.current)
          yield { payment: open.current, sectionIndex: sections.length, section: open.section };
        const payment = readPayment(record, type === '21' ? 'deduction' : 'payment');
        open.current = payment;
        open.seen.clear();
        open.paymentCount++;
        if (payment.kind === 'deduction') {
          open.amountMinor -= BigInt(payment.amountMinor);
          counted.deductionCount++;
        } else {
          open.amountMinor += BigInt(payment.amountMinor);
          counted.paymentCount++;
        }
        break;
      }
      case '22':
      case '23': {
        const parent = requireParent(open, record, type);
        const extra = readExtraReference(record, type === '23' ? 'negative' : 'positive', parent);
        parent.extraReferences.push(extra);
        counted.extraReferenceCount++;
        break;
      }
      case '25':
        requireParent(open, record, type).informationTexts.push(record.text(2, 52));
        break;
      case '26':
        requireOnce(open, record, type).name = { name: record.text(2, 37), extraName: record.text(37, 72) };
        break;
      case '27':
        requireOnce(open, record, type).address1 = {
          street: record.text(2, 37),
          postcode: record.text(37, 46),
        };
        break;
      case '28':
        requireOnce(open, record, type).address2 = {
          town: record.text(2, 37),
          country: record.text(37, 72),
          countryCode: record.text(72, 74),
        };
        break;
      case '29':
        requireOnce(open, record, type).organisationNumber = record.text(2, 14);
        break;
      case '15': {
        requireOpen(open, lineNo, type);
        const facts = closeSection(open, record);
        if (open.current)
          yield { payment: open.current, sectionIndex: sections.length, section: open.section };
        sections.push(facts);
        counted.depositCount++;
        open = null;
        break;
      }
      case '70': {
        requireClosed(open, lineNo, type);
        endCounts = {
          line: lineNo,
          counts: {
            paymentCount: record.integer(2, 10, 'number of payments'),
            deductionCount: record.integer(10, 18, 'number of deductions'),
            extraReferenceCount: record.integer(18, 26, 'number of extra references'),
            depositCount: record.integer(26, 34, 'number of deposits'),
          },
        };
        break;
      }
    }
  }

  if (header === null) fail(Math.max(lastRecordLine, 1), 'bgmax.empty_file', 'the file has no BGMAX record');
  if (endCounts === null)
    fail(lastRecordLine, 'bgmax.end_missing', 'the file ends without a TK70 end record');
  checkEndCounts(endCounts.line, endCounts.counts, counted);
  return { header, end: endCounts.counts, skippedRecords, tabExpandedLines };
}

const KNOWN_TYPES = new Set(['01', '05', '15', '20', '21', '22', '23', '25', '26', '27', '28', '29', '70']);

function fail(line: number, rule: BgmaxRule, detail: string): never {
  throw new BgmaxError(line, rule, detail);
}

// Field access on one padded 80-character record; `start`/`end` are `String.slice` arguments.
class RecordReader {
  constructor(
    readonly text80: string,
    readonly line: number,
  ) {}

  field(start: number, end: number): string {
    return this.text80.slice(start, end);
  }

  digits(start: number, end: number, name: string): string {
    const value = this.field(start, end);
    if (!DIGITS.test(value)) {
      fail(
        this.line,
        'bgmax.not_digits',
        `${name} (positions ${start + 1}-${end}) is not digits: "${value}"`,
      );
    }
    return value;
  }

  integer(start: number, end: number, name: string): number {
    // At most 8 digits for counts and serial numbers, always a safe integer.
    return Number(this.digits(start, end, name));
  }

  amount(start: number, end: number, name: string): number {
    const value = Number(this.digits(start, end, name));
    if (!Number.isSafeInteger(value)) {
      fail(
        this.line,
        'bgmax.amount_out_of_range',
        `${name} ${this.field(start, end)} is above ${Number.MAX_SAFE_INTEGER} öre`,
      );
    }
    return value;
  }

  // Right-justified zero-filled number: digits without leading zeros, null when all zeros.
  number(start: number, end: number, name: string): string | null {
    const value = this.digits(start, end, name).replace(/^0+/, '');
    return value === '' ? null : value;
  }

  optionalNumber(start: number, end: number, name: string): string | null {
    return BLANK.test(this.field(start, end)) ? null : this.number(start, end, name);
  }

  text(start: number, end: number): string {
    return this.field(start, end).trimEnd();
  }

  code<T extends number>(position: number, allowed: readonly T[], name: string): T {
    const char = this.field(position, position + 1);
    const value = Number(char) as T;
    if (!/^[0-9]$/.test(char) || !allowed.includes(value)) {
      fail(
        this.line,
        'bgmax.invalid_code',
        `${name} (position ${position + 1}) is "${char}", expected one of ${allowed.join(', ')}`,
      );
    }
    return value;
  }

  date(start: number, end: number, name: string): string {
    const value = this.digits(start, end, name);
    const iso = `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`;
    if (!isRealDate(Number(value.slice(0, 4)), Number(value.slice(4, 6)), Number(value.slice(6, 8)))) {
      fail(this.line, 'bgmax.invalid_date', `${name} ${value} is not a real date`);
    }
    return iso;
  }

  currency(start: number, end: number): Currency {
    const value = this.field(start, end);
    if (value !== 'SEK' && value !== 'EUR') {
      fail(this.line, 'bgmax.invalid_currency', `currency "${value}" is neither SEK nor EUR`);
    }
    return value;
  }
}

const REFERENCE_CODES = [0, 1, 2, 3, 4, 5] as const;
const CHANNELS = [1, 2, 3, 4] as const;
const IMAGE_MARKERS = [0, 1] as const;
const DEDUCTION_CODES = [0, 1, 2] as const;

function readHeader(record: RecordReader): BgmaxHeader {
  const layoutName = record.field(2, 22).trimEnd();
  if (layoutName !== 'BGMAX')
    fail(record.line, 'bgmax.not_bgmax', `layout name is "${layoutName}", not BGMAX`);
  const version = record.digits(22, 24, 'layout version');
  const date = record.date(24, 32, 'file timestamp');
  const time = record.digits(32, 44, 'file timestamp');
  const hours = Number(time.slice(0, 2));
  const minutes = Number(time.slice(2, 4));
  const seconds = Number(time.slice(4, 6));
  if (hours > 23 || minutes > 59 || seconds > 59) {
    fail(record.line, 'bgmax.invalid_date', `file timestamp time ${time.slice(0, 6)} is not a real time`);
  }
  const writtenAt = `${date}T${time.slice(0, 2)}:${time.slice(2, 4)}:${time.slice(4, 6)}.${time.slice(6)}`;
  const mark = record.field(44, 45);
  if (mark !== 'T' && mark !== 'P')
    fail(record.line, 'bgmax.invalid_code', `test marker is "${mark}", expected T or P`);
  return { layoutName: 'BGMAX', version, writtenAt, testMark: mark };
}

// Columns 3-70, shared by TK20, TK21, TK22 and TK23.
function readTransactionColumns(record: RecordReader) {
  return {
    senderBankgiro: record.number(2, 12, 'sender bankgiro'),
    reference: record.field(12, 37).trim(),
    amountMinor: record.amount(37, 55, 'amount'),
    referenceCode: record.code(55, REFERENCE_CODES, 'reference code'),
    channel: record.code(56, CHANNELS, 'payment channel code'),
    bgcSerialNumber: record.digits(57, 69, 'BGC serial number'),
    hasImage: record.code(69, IMAGE_MARKERS, 'image marker') === 1,
  };
}

function readPayment(record: RecordReader, kind: BgmaxPayment['kind']): BgmaxPayment {
  return bgmaxPaymentRecord({
    kind,
    ...readTransactionColumns(record),
    deductionCode: kind === 'deduction' ? record.code(70, DEDUCTION_CODES, 'deduction code') : null,
  });
}

function readExtraReference(
  record: RecordReader,
  sign: BgmaxExtraReference['sign'],
  parent: BgmaxPayment,
): BgmaxExtraReference {
  const columns = readTransactionColumns(record);
  const repeated = ['senderBankgiro', 'channel', 'bgcSerialNumber', 'hasImage'] as const;
  for (const key of repeated) {
    if (columns[key] !== parent[key]) {
      fail(
        record.line,
        'bgmax.extra_reference_mismatch',
        `${key} ${String(columns[key])} differs from the payment's ${String(parent[key])}`,
      );
    }
  }
  return {
    sign,
    reference: columns.reference,
    amountMinor: columns.amountMinor,
    referenceCode: columns.referenceCode,
  };
}

/** A TK05 or TK70 comes only between sections: the one still open has no TK15. */
function requireClosed(open: OpenSection | null, line: number, type: string): void {
  if (open !== null) {
    fail(
      line,
      'bgmax.section_not_closed',
      `TK${type} while the section opened on line ${open.openedAt} has no TK15`,
    );
  }
}

/** A TK15, TK20 or TK21 comes only inside a section (after its TK05). */
function requireOpen(open: OpenSection | null, line: number, type: string): asserts open is OpenSection {
  if (open === null)
    fail(line, 'bgmax.outside_section', `TK${type} outside a section: no TK05 opening record is open`);
}

function requireParent(open: OpenSection | null, record: RecordReader, type: string): BgmaxPayment {
  if (open?.current == null) {
    fail(
      record.line,
      'bgmax.detail_without_payment',
      `TK${type} does not follow a TK20/TK21 of this section`,
    );
  }
  return open.current;
}

function requireOnce(open: OpenSection | null, record: RecordReader, type: string): BgmaxPayment {
  const parent = requireParent(open, record, type);
  const seen = (open as OpenSection).seen;
  if (seen.has(type)) fail(record.line, 'bgmax.detail_repeated', `a second TK${type} for the same payment`);
  seen.add(type);
  return parent;
}

function closeSection(open: OpenSection, record: RecordReader): BgmaxSectionFacts {
  const deposit = {
    bankAccount: record.number(2, 37, 'bank account'),
    paymentDate: record.date(37, 45, 'payment date'),
    serialNumber: record.integer(45, 50, 'deposit serial number'),
    amountMinor: record.amount(50, 68, 'deposit amount'),
    currency: record.currency(68, 71),
    paymentCount: record.integer(71, 79, 'number of payments'),
    depositType: BLANK.test(record.field(79, 80)) ? null : record.field(79, 80),
  };
  const { section } = open;
  if (deposit.currency !== section.currency) {
    fail(
      record.line,
      'bgmax.currency_mismatch',
      `TK15 currency ${deposit.currency} differs from TK05 ${section.currency}`,
    );
  }
  const totals = { amountMinor: open.amountMinor, paymentCount: open.paymentCount };
  if (BigInt(deposit.amountMinor) !== totals.amountMinor) {
    fail(
      record.line,
      'bgmax.deposit_amount_mismatch',
      `TK15 amount ${deposit.amountMinor} öre differs from Σ TK20 − Σ TK21 = ${totals.amountMinor.toString()} öre`,
    );
  }
  if (deposit.paymentCount !== totals.paymentCount) {
    fail(
      record.line,
      'bgmax.deposit_count_mismatch',
      `TK15 count ${deposit.paymentCount} differs from ${totals.paymentCount} TK20/TK21 records in the section`,
    );
  }
  return { ...section, deposit };
}

function checkEndCounts(line: number, stated: BgmaxFile['end'], counted: BgmaxFile['end']): void {
  const names: Record<keyof BgmaxFile['end'], string> = {
    paymentCount: 'payments (TK20)',
    deductionCount: 'deductions (TK21)',
    extraReferenceCount: 'extra references (TK22/TK23)',
    depositCount: 'deposits (TK15)',
  };
  for (const key of Object.keys(names) as (keyof BgmaxFile['end'])[]) {
    if (stated[key] !== counted[key]) {
      fail(
        line,
        'bgmax.end_count_mismatch',
        `TK70 states ${stated[key]} ${names[key]}, the file has ${counted[key]}`,
      );
    }
  }
}
