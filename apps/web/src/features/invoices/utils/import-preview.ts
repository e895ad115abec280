import { IMPORT_COLUMNS, type ImportColumn, type ImportPreview, INVOICE_LIMITS } from '@portal/contracts';
import type { TFunction } from 'i18next';
import { translateCode } from '../../../lib/messages';
import { IMPORT_COLUMN_KEYS } from './labels';

export type ImportIssue = ImportPreview['fileIssues'][number];
export type ImportPreviewInvoice = ImportPreview['invoices'][number];

/** The limit of `validation.max_length` on each column that has one (invoiceBodySchema). */
const MAX_LENGTHS: Partial<Record<ImportColumn, number>> = {
  invoiceNumber: INVOICE_LIMITS.invoiceNumber,
  orderReference: INVOICE_LIMITS.orderReference,
  articleNumber: INVOICE_LIMITS.articleNumber,
  description: INVOICE_LIMITS.rowName,
};

function isImportColumn(column: string): column is ImportColumn {
  return (IMPORT_COLUMNS as readonly string[]).includes(column);
}

/**
 * Lines as ranges, in the order of the file: [2, 3, 4, 7] → "2–4, 7". An invoice of 200 rows reads as
 * one range instead of 200 numbers.
 */
export function formatLineRanges(lines: readonly number[]): string {
  const parts: string[] = [];
  let start: number | null = null;
  let end = 0;
  for (const line of lines) {
    if (start !== null && line === end + 1) {
      end = line;
      continue;
    }
    if (start !== null) parts.push(start === end ? `${start}` : `${start}–${end}`);
    start = line;
    end = line;
  }
  if (start !== null) parts.push(start === end ? `${start}` : `${start}–${end}`);
  return parts.join(', ');
}

/**
 * One issue as a sentence: the line, the column's name and the translated reason. File issues name the
 * column as the header must spell it too ("Invoice date (invoiceDate)"), so a missing one can be added.
 */
export function issueText(t: TFunction, issue: ImportIssue, { withHeader = false } = {}): string {
  const column = isImportColumn(issue.column) ? issue.column : null;
  const reason = translateCode(t, issue.code, { max: column ? MAX_LENGTHS[column] : undefined });
  if (!column) return t('invoices:import.issue_line', { line: issue.line, reason });
  const label = t(IMPORT_COLUMN_KEYS[column]);
  return t('invoices:import.issue_column', {
    line: issue.line,
    column: withHeader ? `${label} (${column})` : label,
    reason,
  });
}

/** The invoices the import would register: those without issues. */
export function importableInvoices(preview: ImportPreview): ImportPreviewInvoice[] {
  return preview.invoices.filter((invoice) => invoice.issues.length === 0);
}
