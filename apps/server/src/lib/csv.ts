import type { Language } from '@portal/contracts';
import { CURRENCY_MINOR_DIGITS, type Currency } from '@portal/domain/money';
import { neutraliseText } from './spreadsheet-cells';

/**
 * The one writer of every CSV file the server hands out (the payments report, the invoice import
 * template). A CSV is written for Excel in the user's language, because Excel reads a CSV with the
 * list separator and decimal mark of the computer's regional settings:
 *
 * - sv-SE and fi-FI: `;` between fields and a decimal comma (`1234,50`);
 * - en-US: `,` between fields and a decimal point (`1234.50`).
 *
 * Every file starts with a UTF-8 byte order mark (without it Excel reads å, ä and ö as Windows-1252),
 * every line ends in CRLF, and a field is quoted as RFC 4180 says: when it holds the separator, a
 * double quote, a CR or an LF, with each quote doubled. Text is neutralised against formula injection
 * first (lib/spreadsheet-cells.ts). Amounts are written from integer minor units with integer
 * arithmetic only, without thousands separators (which Excel could read as a field separator or as a
 * decimal mark in the other dialect).
 */
export interface CsvDialect {
  separator: ';' | ',';
  decimalMark: ',' | '.';
}

export const CSV_DIALECTS: Readonly<Record<Language, CsvDialect>> = {
  'sv-SE': { separator: ';', decimalMark: ',' },
  'fi-FI': { separator: ';', decimalMark: ',' },
  'en-US': { separator: ',', decimalMark: '.' },
};

/** CSV files start with a UTF-8 byte order mark so that Excel reads å, ä and ö right. */
export const CSV_BOM = '\uFEFF';
export const CSV_LINE_END = '\r\n';
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/**
 * A decimal number kept exact as an integer and its number of decimals: 123450 with 2 decimals is
 * 1234.50. Written with the dialect's decimal mark and never neutralised (a minus sign starts a
 * number here, not a formula). `trimZeros` drops trailing zero decimals (25.50 → 25.5, 25.00 → 25).
 */
export interface CsvDecimal {
  readonly kind: 'decimal';
  readonly scaled: number;
  readonly decimals: number;
  readonly trimZeros: boolean;
}

export type CsvCell = string | number | CsvDecimal | null | undefined;

export function csvDecimal(scaled: number, decimals: number, trimZeros = false): CsvDecimal {
  if (!Number.isSafeInteger(scaled)) throw new RangeError(`not an exact integer: ${scaled}`);
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 6) throw new RangeError('decimals 0–6');
  return { kind: 'decimal', scaled, decimals, trimZeros };
}

/** An amount of `currency` in minor units, with all its minor digits (12345 SEK → 123,45 / 123.45). */
export function csvAmount(minor: number, currency: Currency): CsvDecimal {
  return csvDecimal(minor, CURRENCY_MINOR_DIGITS[currency]);
}

/** The text of a decimal in a dialect, from its integer with `%` and `/` on integers only. */
export function formatCsvDecimal(value: CsvDecimal, dialect: CsvDialect): string {
  const scale = 10 ** value.decimals;
  const abs = Math.abs(value.scaled);
  const rest = abs % scale;
  const whole = (abs - rest) / scale;
  let fraction = value.decimals === 0 ? '' : String(rest).padStart(value.decimals, '0');
  if (value.trimZeros) fraction = fraction.replace(/0+$/, '');
  const sign = value.scaled < 0 ? '-' : '';
  return `${sign}${whole}${fraction === '' ? '' : `${dialect.decimalMark}${fraction}`}`;
}

/** One field: text neutralised and quoted when RFC 4180 needs it; integers and decimals as numbers. */
export function csvField(cell: CsvCell, dialect: CsvDialect): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number') {
    // Only integers go in as plain numbers: a float would be written as JavaScript prints it.
    if (!Number.isSafeInteger(cell)) throw new RangeError(`a CSV number is an integer: ${cell}`);
    return String(cell);
  }
  if (typeof cell === 'object') return formatCsvDecimal(cell, dialect);
  const text = neutraliseText(cell);
  return text.includes(dialect.separator) || /["\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record with its CRLF. */
export function csvRecord(cells: readonly CsvCell[], dialect: CsvDialect): string {
  return `${cells.map((c) => csvField(c, dialect)).join(dialect.separator)}${CSV_LINE_END}`;
}

/**
 * A CSV writer for one language: `start(header)` is the BOM and the header record, `record(cells)`
 * each further record; `document(header, records)` the whole file at once.
 */
export interface CsvWriter {
  readonly dialect: CsvDialect;
  start(header: readonly CsvCell[]): string;
  record(cells: readonly CsvCell[]): string;
  document(header: readonly CsvCell[], records: readonly (readonly CsvCell[])[]): string;
}

export function csvWriter(language: Language): CsvWriter {
  const dialect = CSV_DIALECTS[language];
  const record = (cells: readonly CsvCell[]) => csvRecord(cells, dialect);
  const start = (header: readonly CsvCell[]) => `${CSV_BOM}${record(header)}`;
  return {
    dialect,
    start,
    record,
    document: (header, records) => start(header) + records.map(record).join(''),
  };
}
