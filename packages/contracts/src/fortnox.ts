import { z } from 'zod';
import { pendingInvoiceSchema } from './invoices';
import { plainText } from './rules';

/**
 * Fortnox business invoices (spec §1 `/invoice/send-business`, §2 `fortnoxSetting`, §6; issue #13).
 * The issuer connects its Fortnox company (OAuth2, the browser comes back to the page with a code and
 * our state); the page lists the company's unpaid customer invoices as Fortnox pages them, and the
 * chosen ones are taken over as pending invoices and sent through the send path of `/invoice/send`.
 */

/** Minutes an authorization started at Fortnox waits for the browser to come back. */
export const FORTNOX_AUTHORIZATION_MINUTES = 15;
/** Fortnox invoices per page of the list (Fortnox's `limit`). */
export const FORTNOX_PAGE_SIZE = 25;
/** Most invoices one take-over may name. */
export const FORTNOX_TAKE_OVER_MAX = 50;

/**
 * The connection as the page shows it: `not_connected` (never), `active`, or `revoked`, with why:
 * `disconnected` here, or `refused` by Fortnox (the integration was removed there, or lapsed).
 */
export const fortnoxConnectionSchema = z.object({
  status: z.enum(['not_connected', 'active', 'revoked']),
  reason: z.enum(['disconnected', 'refused']).nullable(),
  companyName: z.string().nullable(),
  companyOrganizationNo: z.string().nullable(),
  connectedAt: z.string().nullable(),
  /** True when Fortnox is the embedded demo's stand-in: the page shows a demo badge. */
  demo: z.boolean(),
});
export type FortnoxConnection = z.infer<typeof fortnoxConnectionSchema>;
export const getFortnoxConnectionResponseSchema = fortnoxConnectionSchema;

/** `POST limited/fortnox/connect`: where the browser goes to approve the access at Fortnox. */
export const startFortnoxConnectionResponseSchema = z.object({ redirectUrl: z.string() });

/** `POST limited/fortnox/callback`: what Fortnox sent the browser back with. */
export const completeFortnoxConnectionBodySchema = z.object({
  state: plainText().min(16).max(200),
  code: plainText().min(1).max(500).optional(),
  /** Fortnox's `error` (`access_denied` when the customer declined). */
  error: plainText().max(200).optional(),
});
export type CompleteFortnoxConnectionBody = z.infer<typeof completeFortnoxConnectionBodySchema>;

/**
 * Whether a Fortnox invoice can be sent to us: `available`; `pending` (taken over, waiting in
 * `/invoice/send`, can be sent from here too); `noxfinans` (financed by Fortnox's own NoxFinans);
 * `not_booked`; `part_paid`; `due_passed` / `due_too_soon` (the send rule of `/invoice/send`).
 */
export const FORTNOX_INVOICE_STATUSES = [
  'available',
  'pending',
  'noxfinans',
  'not_booked',
  'part_paid',
  'due_passed',
  'due_too_soon',
] as const;

export const fortnoxInvoiceSchema = z.object({
  documentNumber: z.string(),
  customerNumber: z.string(),
  customerName: z.string(),
  invoiceDate: z.string(),
  dueDate: z.string(),
  currency: z.string(),
  /** Total incl. VAT and what is still unpaid, in minor units of `currency`. */
  totalMinor: z.number().int(),
  balanceMinor: z.number().int(),
  ocr: z.string(),
  status: z.enum(FORTNOX_INVOICE_STATUSES),
  /** The pending invoice it was taken over as, when `pending`. */
  invoiceID: z.string().nullable(),
});
export type FortnoxInvoice = z.infer<typeof fortnoxInvoiceSchema>;

export const listFortnoxInvoicesQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
/**
 * `GET limited/fortnox/invoices`: one page of the company's unpaid invoices as Fortnox pages them
 * (`filter=unpaid`), without those already sent to us (`hiddenSent` counts them on this page).
 */
export const listFortnoxInvoicesResponseSchema = z.object({
  page: z.number().int(),
  totalPages: z.number().int(),
  total: z.number().int(),
  hiddenSent: z.number().int(),
  items: z.array(fortnoxInvoiceSchema),
});
export type ListFortnoxInvoicesResponse = z.infer<typeof listFortnoxInvoicesResponseSchema>;

export const takeOverFortnoxInvoicesBodySchema = z.object({
  documentNumbers: z
    .array(z.string().regex(/^[0-9]{1,12}$/, 'validation.invalid'))
    .min(1, 'validation.select_at_least_one')
    .max(FORTNOX_TAKE_OVER_MAX),
});

/** Why a Fortnox invoice was not taken over. */
export const FORTNOX_TAKE_OVER_CODES = [
  'fortnox.invoice_not_found',
  'fortnox.invoice_unavailable',
  'fortnox.invoice_unsupported',
  'fortnox.already_sent',
  'invoices.duplicate_number',
  'invoices.duplicate_ocr',
] as const;

/**
 * `POST limited/fortnox/invoices/take-over`: each Fortnox invoice becomes (or already is) a pending
 * invoice of ours; `invoices` are those pending invoices, for the send confirmation of `/invoice/send`.
 */
export const takeOverFortnoxInvoicesResponseSchema = z.object({
  results: z.array(
    z.object({
      documentNumber: z.string(),
      ok: z.boolean(),
      invoiceID: z.string().nullable(),
      code: z.enum(FORTNOX_TAKE_OVER_CODES).nullable(),
    }),
  ),
  invoices: z.array(pendingInvoiceSchema),
});
export type TakeOverFortnoxInvoicesResponse = z.infer<typeof takeOverFortnoxInvoicesResponseSchema>;
