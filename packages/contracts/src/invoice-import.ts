import { z } from 'zod';
import { LANGUAGES } from './constants';

/**
 * The columns of an invoice import file (CSV or Excel), one line per invoice row; lines with the same
 * invoice number form one invoice. The header names are these keys or their names in any of the
 * portal's languages (`invoices:import.columns.<key>`, as the template writes them), in any order.
 */
/** The columns that say what the invoice is, not the row: every line of one invoice must repeat them alike. */
export const IMPORT_INVOICE_COLUMNS = [
  'recipientOrganizationNumber',
  'recipientName',
  'invoiceDate',
  'dueDate',
  'service',
  'currency',
] as const;
export const IMPORT_COLUMNS = [
  'invoiceNumber',
  ...IMPORT_INVOICE_COLUMNS,
  'orderReference',
  'articleNumber',
  'description',
  'quantity',
  'unit',
  'unitPrice',
  'vatPercent',
] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];
export const IMPORT_REQUIRED_COLUMNS: readonly ImportColumn[] = [
  'invoiceNumber',
  'invoiceDate',
  'dueDate',
  'description',
  'quantity',
  'unitPrice',
  'vatPercent',
];
export const IMPORT_FORMATS = ['csv', 'xlsx'] as const;
/** Lines of one import file, at most. */
export const IMPORT_MAX_LINES = 5000;

/** A problem on one line (1 = the header) and column of the file. */
export const importIssueSchema = z.object({
  line: z.number().int(),
  column: z.string(),
  code: z.string(),
});

export const importPreviewInvoiceSchema = z.object({
  /** As the file writes it; empty on a line without one (each such line is an invoice of its own). */
  invoiceNumber: z.string(),
  recipientName: z.string(),
  invoiceDate: z.string(),
  currency: z.string(),
  /** The file's lines of this invoice, as a spreadsheet numbers them (the header is line 1). */
  lines: z.array(z.number().int()),
  rows: z.number().int(),
  /** Total incl. VAT in minor units; 0 when the invoice has issues and was not computed. */
  grossMinor: z.number().int(),
  issues: z.array(importIssueSchema),
});

/** `POST limited/invoices/import/preview`: what the file would register; nothing is saved. */
export const importPreviewResponseSchema = z.object({
  invoices: z.array(importPreviewInvoiceSchema),
  /** Problems of the file as a whole (a missing column, too many lines). */
  fileIssues: z.array(importIssueSchema),
  valid: z.number().int(),
  invalid: z.number().int(),
});
export type ImportPreview = z.infer<typeof importPreviewResponseSchema>;

export const importFileQuerySchema = z.object({ format: z.enum(IMPORT_FORMATS) });

/** `POST limited/invoices/import`: the valid invoices of the file are registered in one transaction. */
export const importInvoicesResponseSchema = z.object({
  created: z.array(z.object({ invoiceID: z.string(), invoiceNumber: z.string() })),
  skipped: z.number().int(),
});

/** The template's file type and, as the reports, the language of its column names (else the user's). */
export const importTemplateQuerySchema = z.object({
  format: z.enum(IMPORT_FORMATS),
  language: z.enum(LANGUAGES).optional(),
});

/** Codes of the line issues (translated under `errors:import.<code>`), besides `validation.*` rule codes. */
export const IMPORT_ISSUE_CODES = [
  'missing_column',
  'too_many_lines',
  'no_invoices',
  'unknown_recipient',
  'invalid_date',
  'invalid_amount',
  'invalid_quantity',
  'invalid_vat',
  'invalid_unit',
  'invalid_service',
  'invalid_currency',
  'number_exists',
  'inconsistent_invoice',
] as const;
