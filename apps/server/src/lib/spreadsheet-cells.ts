/**
 * Cells of the Excel and CSV files the portal writes. A text a customer's recipient chose (a name, a
 * reference) must never run as a formula when the customer opens the file: a text that starts with
 * `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading apostrophe (OWASP "CSV injection").
 * Numbers and dates stay numbers and dates; only text is touched.
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

/**
 * One CSV line (RFC 4180, `;` by default as Swedish and Finnish Excel expect): text neutralised, then
 * quoted when it holds the separator, a quote or a line break. Numbers are written as given; callers
 * pass amounts already formatted as decimal strings when the file is for people.
 */
export function csvLine(values: readonly CellValue[], separator = ';'): string {
  return values
    .map((value) => {
      if (value === null || value === undefined) return '';
      if (value instanceof Date) return value.toISOString();
      if (typeof value === 'number') return String(value);
      const text = neutraliseText(value);
      return /[";\r\n,]/.test(text) || text.includes(separator) ? `"${text.replaceAll('"', '""')}"` : text;
    })
    .join(separator);
}

/** CSV files start with a UTF-8 byte order mark so that Excel reads å, ä and ö right. */
export const CSV_BOM = '\uFEFF';
