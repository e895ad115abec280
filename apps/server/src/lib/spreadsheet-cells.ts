/**
 * Cells of the Excel and CSV files the portal writes. A text a customer's recipient chose (a name, a
 * reference) must never run as a formula when the customer opens the file: a text that starts with
 * `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading apostrophe (OWASP "CSV injection").
 * Numbers and dates stay numbers and dates; only text is touched. CSV files are written by lib/csv.ts.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseText(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

export type CellValue = string | number | Date | null | undefined;

/** The value for an Excel cell: text neutralised, everything else as it is. */
export function safeCell(value: CellValue): CellValue {
  return typeof value === 'string' ? neutraliseText(value) : value;
}
