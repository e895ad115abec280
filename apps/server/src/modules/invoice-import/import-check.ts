import {
  IMPORT_COLUMNS,
  IMPORT_INVOICE_COLUMNS,
  IMPORT_MAX_LINES,
  IMPORT_REQUIRED_COLUMNS,
  type ImportColumn,
  type ImportPreview,
  invoiceBodySchema,
  LANGUAGES,
  type Language,
  SERVICE_TYPES,
  type ServiceType,
  UNITS,
} from '@portal/contracts';
import { isValidIsoDate } from '@portal/domain/calendar-date';
import { isDueBeforeInvoiceDate } from '@portal/domain/due-date';
import { type Currency, parseMoney, toCurrency } from '@portal/domain/money';
import { parseQuantity } from '@portal/domain/quantity';
import { translate } from '@portal/i18n';
import ExcelJS from 'exceljs';
import type { z } from 'zod';
import {
  CSV_DIALECTS,
  type CsvCell,
  csvAmount,
  csvDecimal,
  csvWriter,
  formatCsvDecimal,
} from '../../lib/csv';
import { safeCell } from '../../lib/spreadsheet-cells';
import { computeInvoice } from '../invoices/invoices.service';

export { decodeCsv, parseCsv } from './import-table';

type Issue = { line: number; column: string; code: string };
type InvoiceInput = z.output<typeof invoiceBodySchema>;

export interface ParsedImport {
  preview: ImportPreview;
  /** The invoices without issues, ready to register. */
  valid: InvoiceInput[];
}

function isBlank(row: readonly string[]): boolean {
  return row.every((v) => v.trim() === '');
}

/** The file's column of a field of `invoiceBodySchema`, to mark a rule's issue where the customer typed. */
const FIELD_COLUMNS: Record<string, ImportColumn> = {
  recipientID: 'recipientOrganizationNumber',
  invoiceNumber: 'invoiceNumber',
  service: 'service',
  currency: 'currency',
  invoiceDate: 'invoiceDate',
  dueDate: 'dueDate',
  orderReference: 'orderReference',
};
const ROW_FIELD_COLUMNS: Record<string, ImportColumn> = {
  articleNumber: 'articleNumber',
  name: 'description',
  quantityMilli: 'quantity',
  unit: 'unit',
  unitPriceMinor: 'unitPrice',
  vatBasisPoints: 'vatPercent',
};

/** A header as it is compared: NFC, lower case, one kind of apostrophe, spaces collapsed, trimmed. */
function headerKey(name: string): string {
  return name
    .normalize('NFC')
    .toLowerCase()
    .replace(/[’‘`´]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

/** The name of a column in the template of `language` (the same words the preview's issues use). */
export function importColumnName(column: ImportColumn, language: Language): string {
  return translate(language, 'invoices', `import.columns.${column}`);
}

/**
 * Every header a file may give a column: its code (`invoiceNumber`, as the first templates wrote it)
 * and its name in each of the portal's languages, so that a template in any language comes back in,
 * whatever the language of the user who uploads it.
 */
const COLUMN_BY_HEADER: ReadonlyMap<string, ImportColumn> = new Map(
  IMPORT_COLUMNS.flatMap((column) =>
    [column, ...LANGUAGES.map((language) => importColumnName(column, language))].map(
      (name) => [headerKey(name), column] as const,
    ),
  ),
);

export interface ImportContext {
  country: 'SE' | 'FI';
  currencies: string[];
  vatRates: number[];
  /** The issuer's recipients by normalised organisation number and by lower-case name. */
  recipientByNumber: Map<string, { id: string; name: string }>;
  recipientByName: Map<string, { id: string; name: string }>;
  existingNumbers: Set<string>;
}

/**
 * Checks every line of an import file and groups the lines into invoices. Nothing is saved here: the
 * preview shows each bad line with its reason, and only invoices without any issue are returned as valid.
 */
export function checkImport(table: string[][], ctx: ImportContext): ParsedImport {
  const fileIssues: Issue[] = [];
  const [header = [], ...records] = table;
  // Line numbers as a spreadsheet shows them: the header is line 1; blank lines count but are skipped.
  const lines = records.flatMap((cells, i) => (isBlank(cells) ? [] : [{ cells, line: i + 2 }]));
  const index = new Map<ImportColumn, number>();
  header.forEach((name, i) => {
    const key = COLUMN_BY_HEADER.get(headerKey(name));
    if (key && !index.has(key)) index.set(key, i);
  });
  for (const col of IMPORT_REQUIRED_COLUMNS)
    if (!index.has(col)) fileIssues.push({ line: 1, column: col, code: 'import.missing_column' });
  if (!index.has('recipientOrganizationNumber') && !index.has('recipientName'))
    fileIssues.push({ line: 1, column: 'recipientOrganizationNumber', code: 'import.missing_column' });
  if (lines.length > IMPORT_MAX_LINES)
    fileIssues.push({
      line: lines[IMPORT_MAX_LINES]?.line ?? IMPORT_MAX_LINES + 2,
      column: '',
      code: 'import.too_many_lines',
    });
  if (fileIssues.length === 0 && lines.length === 0)
    fileIssues.push({ line: 2, column: '', code: 'import.no_invoices' });
  if (fileIssues.length > 0)
    return { preview: { invoices: [], fileIssues, valid: 0, invalid: 0 }, valid: [] };

  const groups = new Map<string, { lines: number[]; cells: Record<ImportColumn, string>[] }>();
  for (const { cells, line } of lines) {
    const get = (c: ImportColumn) => {
      const at = index.get(c);
      return at === undefined ? '' : (cells[at] ?? '').trim();
    };
    const record = Object.fromEntries(IMPORT_COLUMNS.map((c) => [c, get(c)])) as Record<ImportColumn, string>;
    const key = record.invoiceNumber || `(line ${line})`;
    const g = groups.get(key) ?? { lines: [], cells: [] };
    g.lines.push(line);
    g.cells.push(record);
    groups.set(key, g);
  }

  const invoices: ImportPreview['invoices'] = [];
  const valid: InvoiceInput[] = [];
  for (const g of groups.values()) {
    const issues: Issue[] = [];
    const first = g.cells[0] as Record<ImportColumn, string>;
    const line0 = g.lines[0] as number;
    const need = (c: ImportColumn, line: number, v: string) => {
      if (v === '') issues.push({ line, column: c, code: 'validation.required' });
      return v !== '';
    };
    need('invoiceNumber', line0, first.invoiceNumber);
    if (first.invoiceNumber && ctx.existingNumbers.has(first.invoiceNumber))
      issues.push({ line: line0, column: 'invoiceNumber', code: 'import.number_exists' });
    const recipient = first.recipientOrganizationNumber
      ? ctx.recipientByNumber.get(first.recipientOrganizationNumber.replace(/[\s-]/g, ''))
      : ctx.recipientByName.get(first.recipientName.toLowerCase());
    if (!recipient)
      issues.push({
        line: line0,
        column: first.recipientOrganizationNumber ? 'recipientOrganizationNumber' : 'recipientName',
        code: 'import.unknown_recipient',
      });
    for (const c of ['invoiceDate', 'dueDate'] as const)
      if (need(c, line0, first[c]) && !isValidIsoDate(first[c]))
        issues.push({ line: line0, column: c, code: 'import.invalid_date' });
    if (isDueBeforeInvoiceDate(first.invoiceDate, first.dueDate))
      issues.push({ line: line0, column: 'dueDate', code: 'validation.due_before_invoice_date' });
    const service = (first.service || 'factoring') as ServiceType;
    if (!SERVICE_TYPES.includes(service))
      issues.push({ line: line0, column: 'service', code: 'import.invalid_service' });
    const currency = (first.currency || ctx.currencies[0] || 'SEK').toUpperCase();
    if (!ctx.currencies.includes(currency))
      issues.push({ line: line0, column: 'currency', code: 'import.invalid_currency' });
    for (const [k, cells] of g.cells.entries()) {
      for (const c of IMPORT_INVOICE_COLUMNS)
        if (cells[c] !== first[c])
          issues.push({ line: g.lines[k] as number, column: c, code: 'import.inconsistent_invoice' });
    }
    const rows = g.cells.map((cells, k) => {
      const line = g.lines[k] as number;
      need('description', line, cells.description);
      // In a file a lone comma is a decimal mark, as for the unit price: sv-SE reads "1,5" and "1.5".
      const quantity = parseQuantity(cells.quantity, 'sv-SE');
      const quantityMilli = quantity.ok ? quantity.milli : null;
      if (!quantity.ok && quantity.error === 'out_of_range')
        issues.push({ line, column: 'quantity', code: 'validation.amount_range' });
      else if (quantityMilli === null || quantityMilli <= 0)
        issues.push({ line, column: 'quantity', code: 'import.invalid_quantity' });
      const price = parseMoney(cells.unitPrice, {
        locale: cells.unitPrice.includes(',') ? 'sv-SE' : 'en-US',
        currency: toCurrency(currency),
      });
      if (!price.ok) issues.push({ line, column: 'unitPrice', code: 'import.invalid_amount' });
      const vatPercent = parseQuantity(cells.vatPercent.replace('%', ''), 'sv-SE');
      const vatBasisPoints = vatPercent.ok ? vatPercent.milli / 10 : null;
      if (
        vatBasisPoints === null ||
        !Number.isInteger(vatBasisPoints) ||
        !ctx.vatRates.includes(vatBasisPoints)
      )
        issues.push({ line, column: 'vatPercent', code: 'import.invalid_vat' });
      const unit = (cells.unit || 'st') as (typeof UNITS)[number];
      if (!UNITS.includes(unit)) issues.push({ line, column: 'unit', code: 'import.invalid_unit' });
      return {
        articleNumber: cells.articleNumber,
        name: cells.description,
        description: '',
        quantityMilli: quantityMilli ?? 0,
        unit,
        unitPriceMinor: price.ok ? price.minor : 0,
        vatBasisPoints: vatBasisPoints ?? 0,
        rotRut: false,
      };
    });
    let grossMinor = 0;
    if (issues.length === 0 && recipient) {
      const parsed = invoiceBodySchema.safeParse({
        recipientID: recipient.id,
        invoiceNumber: first.invoiceNumber,
        service,
        currency,
        invoiceDate: first.invoiceDate,
        dueDate: first.dueDate,
        orderReference: first.orderReference,
        rows,
      });
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const [field, rowIndex, rowField] = issue.path;
          const onRow = field === 'rows' && typeof rowIndex === 'number';
          issues.push({
            line: onRow ? (g.lines[rowIndex] ?? line0) : line0,
            column: onRow
              ? (ROW_FIELD_COLUMNS[String(rowField)] ?? '')
              : (FIELD_COLUMNS[String(field)] ?? ''),
            code: issue.message.startsWith('validation.') ? issue.message : 'validation.invalid',
          });
        }
      } else {
        grossMinor = computeInvoice(parsed.data, ctx.country).grossMinor;
        valid.push(parsed.data);
      }
    }
    invoices.push({
      invoiceNumber: first.invoiceNumber,
      recipientName: recipient?.name ?? (first.recipientName || first.recipientOrganizationNumber),
      invoiceDate: first.invoiceDate,
      currency,
      lines: g.lines,
      rows: rows.length,
      grossMinor,
      issues,
    });
  }
  return {
    preview: { invoices, fileIssues, valid: valid.length, invalid: invoices.length - valid.length },
    valid,
  };
}

/** What the template's example invoice is made of (invoice-import.service.ts picks it for the issuer). */
export interface TemplateExample {
  /** A number the issuer has not used: the example imports as it is and never hits `number_exists`. */
  invoiceNumber: string;
  recipientOrganizationNumber: string;
  recipientName: string;
  invoiceDate: string;
  dueDate: string;
  currency: Currency;
  vatBasisPoints: number;
}

/**
 * The template: the header in `language` and two example lines of one invoice, as CSV (lib/csv.ts:
 * the separator and decimal mark of `language`, UTF-8 with BOM, CRLF) or as Excel. Amounts and the VAT
 * rate are written from integers in the language's decimal form, which checkImport reads back.
 */
export async function importTemplate(
  format: 'csv' | 'xlsx',
  language: Language,
  example: TemplateExample,
): Promise<Buffer> {
  const doc = (key: string) => translate(language, 'documents', `invoiceImport.${key}`);
  const invoice = [
    example.invoiceNumber,
    example.recipientOrganizationNumber,
    example.recipientName,
    example.invoiceDate,
    example.dueDate,
    'factoring',
    example.currency,
    'PO-1',
  ];
  const vat = csvDecimal(example.vatBasisPoints, 2, true);
  const lines: CsvCell[][] = [
    [...invoice, 'ARB-01', doc('example.labour'), 8, 'h', csvAmount(65_000, example.currency), vat],
    [...invoice, 'MAT-01', doc('example.material'), 1, 'st', csvAmount(123_450, example.currency), vat],
  ];
  const header = IMPORT_COLUMNS.map((column) => importColumnName(column, language));
  if (format === 'csv') return Buffer.from(csvWriter(language).document(header, lines), 'utf8');
  // Excel keeps every example value as text written as in the CSV, so the two files read back alike.
  const dialect = CSV_DIALECTS[language];
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet(doc('sheet'));
  sheet.addRow(header);
  for (const l of lines)
    sheet.addRow(
      l.map((c) =>
        typeof c === 'object' && c !== null
          ? formatCsvDecimal(c, dialect)
          : typeof c === 'number'
            ? String(c)
            : safeCell(c ?? ''),
      ),
    );
  sheet.getRow(1).font = { bold: true };
  sheet.columns.forEach((c) => {
    c.width = 18;
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}
