import { z } from 'zod';
import { listQuerySchema, pageSchema } from './lists';
import { REPORT_FILE_TYPES } from './reports';
import { isoDateSchema } from './rules';

/** Columns the ledger report sorts by. */
export const LEDGER_SORT_FIELDS = [
  'invoiceNumber',
  'invoiceDate',
  'dueDate',
  'customer',
  'amount',
  'remaining',
] as const;

/**
 * Where an invoice is in collection on the report's date (spec §3 "process"), translated under
 * `reports:ledger.process.<key>`.
 */
export const LEDGER_PROCESSES = [
  'none',
  'overdue',
  'reminder1',
  'reminder2',
  'collection',
  'chargedBack',
] as const;
export type LedgerProcess = (typeof LEDGER_PROCESSES)[number];

/**
 * The columns of the ledger report's files: those of spec §3, in order, and an installment's loan
 * number (issue #14); their headers are translated under `reports:ledger.columns.<key>`.
 */
export const LEDGER_COLUMNS = [
  'invoiceNumber',
  'loanNumber',
  'invoiceDate',
  'dueDate',
  'service',
  'customer',
  'organizationNumber',
  'city',
  'sni',
  'amount',
  'currency',
  'remaining',
  'process',
] as const;

/** `GET limited/reports/ledger?date&page&pageSize&sort&order`: the open ledger as of `date`. */
export const ledgerQuerySchema = listQuerySchema(LEDGER_SORT_FIELDS)
  .omit({ search: true })
  .extend({ date: isoDateSchema });
export type LedgerQuery = z.input<typeof ledgerQuerySchema>;

/** `GET limited/reports/ledger/export?date&fileType=excel|pdf`. */
export const ledgerExportQuerySchema = z.object({
  date: isoDateSchema,
  fileType: z.enum(REPORT_FILE_TYPES),
});
export type LedgerExportQuery = z.infer<typeof ledgerExportQuerySchema>;

/**
 * One open invoice of the ledger: the columns of spec §3, and for an installment plan's invoice (an
 * installment or its recall, issue #14) the plan it belongs to, null for any other. Amounts in minor
 * units.
 */
export const ledgerRowSchema = z.object({
  invoiceID: z.string(),
  invoiceNumber: z.string(),
  invoiceDate: z.string(),
  dueDate: z.string(),
  service: z.string(),
  customer: z.string(),
  organizationNumber: z.string(),
  city: z.string(),
  sni: z.string(),
  amountMinor: z.number().int(),
  currency: z.string(),
  remainingMinor: z.number().int(),
  process: z.enum(LEDGER_PROCESSES),
  /** The installment plan's id and loan number when the invoice is one of a plan's, else null. */
  installmentPlanID: z.string().nullable(),
  loanNumber: z.string().nullable(),
});
export type LedgerRow = z.infer<typeof ledgerRowSchema>;

export const ledgerResponseSchema = z.object({
  date: z.string(),
  ...pageSchema(ledgerRowSchema).shape,
  /** Every open invoice of the date, not only this page: count, amount and remaining per currency. */
  totals: z.array(
    z.object({
      currency: z.string(),
      count: z.number().int(),
      amountMinor: z.number().int(),
      remainingMinor: z.number().int(),
    }),
  ),
});
export type LedgerResponse = z.infer<typeof ledgerResponseSchema>;
