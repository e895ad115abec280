// Over 500 lines on purpose: every payload of the invoice calls (spec §3-§5) with its rules, next to the
// states and events they use, so a field's name, limit and error code stand in one place.
import { addDays } from '@portal/domain/calendar-date';
import { computeInvoiceTotals } from '@portal/domain/invoice-totals';
import { isValidOcrReference, normalizeOcrReference } from '@portal/domain/ocr-reference';
import { isFinnishBusinessId, isSwedishOrganisationNumber } from '@portal/domain/organisation-number';
import { MAX_QUANTITY_MILLI, QUANTITY_SCALE } from '@portal/domain/quantity';
import { z } from 'zod';
import { minorAmountSchema, UNITS, vatBasisPointsSchema } from './articles';
import { LANGUAGES } from './constants';
import { overdueBucketSchema } from './dashboard';
import { listQuerySchema, pageSchema, SORT_ORDERS } from './lists';
import { optionalText } from './recipients';
import { isoDateSchema, plainText, requiredText } from './rules';

/** Service types of spec §3, spelled as the spec spells them. */
export const SERVICE_TYPES = [
  'internalService',
  'factoring',
  'invoicingService',
  'debtCollectionService',
  'loans',
  'invoiceLoans',
  'nonRecourseFactoring',
  'nonRecourceService',
  'chargeBack',
  'restClaims',
  'revolvingCredit',
] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

/** Services where we finance the invoice: sending asks for a credit decision first. */
export const FINANCED_SERVICES: readonly ServiceType[] = [
  'factoring',
  'loans',
  'invoiceLoans',
  'nonRecourseFactoring',
  'nonRecourceService',
  'revolvingCredit',
];

/**
 * Services where the issuer assigns (sells) the claim to us: the factoring variants, with and without
 * recourse. Their invoice documents carry the assignment clause ("the claim has been assigned, payment
 * discharging the debt only to bankgiro …"), since after the assignment only a payment to us discharges
 * the buyer (issue #11). Loans, invoice loans and revolving credit finance the issuer against its
 * invoices without buying them, and invoicing, collection and the other services buy nothing: their
 * documents have no clause.
 */
export const ASSIGNED_SERVICES: readonly ServiceType[] = [
  'factoring',
  'nonRecourseFactoring',
  'nonRecourceService',
];

/**
 * Financed services where the issuer keeps the credit risk: an invoice still unpaid the agreed days
 * after its due date is charged back (docs/MONEY.md). nonRecourseFactoring and nonRecourceService are
 * the financed services without recourse.
 */
export const RECOURSE_SERVICES: readonly ServiceType[] = [
  'factoring',
  'loans',
  'invoiceLoans',
  'revolvingCredit',
];

/**
 * Invoice states of spec §4 by number (10 is not used). Pending invoices (registered, not sent) are
 * state 1; the labels are translated under `invoices:states.<number>`.
 */
export const INVOICE_STATES = {
  1: 'pending',
  2: 'notPaid',
  3: 'partPaid',
  4: 'paid',
  5: 'chargedBack',
  6: 'creating',
  7: 'temporary',
  8: 'customerLoss',
  9: 'awaitingCreditDecision',
  11: 'deleted',
} as const;
export type InvoiceState = keyof typeof INVOICE_STATES;
export const INVOICE_STATE_NUMBERS = Object.keys(INVOICE_STATES).map(Number) as InvoiceState[];

/**
 * The invoice states by name, for code that moves or filters invoices (`INVOICE_STATE.notPaid` is 2):
 * the numbers are the spec's and the database's, the names are what the code reads. `satisfies` keeps
 * this table and `INVOICE_STATES` the same, name for number.
 */
export const INVOICE_STATE = {
  pending: 1,
  notPaid: 2,
  partPaid: 3,
  paid: 4,
  chargedBack: 5,
  creating: 6,
  temporary: 7,
  customerLoss: 8,
  awaitingCreditDecision: 9,
  deleted: 11,
} as const satisfies { [N in InvoiceState as (typeof INVOICE_STATES)[N]]: N };

/** The states of an invoice we have bought and not yet seen paid in full: what is open and can be overdue. */
export const UNPAID_INVOICE_STATES = [INVOICE_STATE.notPaid, INVOICE_STATE.partPaid] as const;

/** Whether a state is one of `UNPAID_INVOICE_STATES` (bought, not yet paid in full). */
export function isUnpaidState(state: number): boolean {
  return (UNPAID_INVOICE_STATES as readonly number[]).includes(state);
}

/** The back office's credit decision on a financed invoice, kept until the invoice is sent again. */
export const CREDIT_DECISIONS = ['approved', 'rejected'] as const;
export type CreditDecisionValue = (typeof CREDIT_DECISIONS)[number];

/**
 * What every list, badge and detail shows of an invoice: its state, except that a rejected invoice is
 * `rejected`. A rejection takes the invoice back to `pending` (1) with the decision kept, so the state
 * alone would say "not sent"; sending it again clears the decision. A deleted rejected invoice (11)
 * shows as deleted. The rule is the list filter `rejected`'s (decision rejected, not deleted), so that
 * tab lists exactly the invoices whose status is `rejected`.
 */
export type InvoiceStatus = InvoiceState | 'rejected';
export function invoiceStatus(invoice: {
  state: number;
  decision: CreditDecisionValue | null;
}): InvoiceStatus | null {
  if (invoice.decision === 'rejected' && invoice.state !== INVOICE_STATE.deleted) return 'rejected';
  return invoice.state in INVOICE_STATES ? (invoice.state as InvoiceState) : null;
}

/** The list filters of spec §4. */
export const INVOICE_FILTERS = [
  'all',
  'active',
  'overdue',
  'paid',
  'partPaid',
  'recharged',
  'pendingApproval',
  'queued',
  'rejected',
] as const;
export type InvoiceFilter = (typeof INVOICE_FILTERS)[number];

/** Timeline events of spec §4 (1-29); labels under `invoices:events.<number>`. */
export const INVOICE_EVENTS = {
  1: 'registered',
  2: 'rejected',
  3: 'approved',
  4: 'awaitsGuarantee',
  5: 'payout',
  6: 'paid',
  7: 'partPaid',
  8: 'reminder1',
  9: 'reminder2',
  10: 'collection',
  11: 'settlement',
  12: 'reversed',
  13: 'cleared',
  14: 'interestItem',
  15: 'sent',
  16: 'queued',
  17: 'creditDecisionRequested',
  18: 'edited',
  19: 'duplicated',
  20: 'deleted',
  21: 'overpayment',
  22: 'chargedBack',
  23: 'message',
  24: 'distributed',
  25: 'overdue',
  26: 'customerLoss',
  27: 'documentAdded',
  28: 'dueDateChanged',
  29: 'creditNote',
} as const;
export type InvoiceEvent = keyof typeof INVOICE_EVENTS;

/** The timeline events by name (`INVOICE_EVENT.sent` is 15); `satisfies` keeps it equal to `INVOICE_EVENTS`. */
export const INVOICE_EVENT = {
  registered: 1,
  rejected: 2,
  approved: 3,
  awaitsGuarantee: 4,
  payout: 5,
  paid: 6,
  partPaid: 7,
  reminder1: 8,
  reminder2: 9,
  collection: 10,
  settlement: 11,
  reversed: 12,
  cleared: 13,
  interestItem: 14,
  sent: 15,
  queued: 16,
  creditDecisionRequested: 17,
  edited: 18,
  duplicated: 19,
  deleted: 20,
  overpayment: 21,
  chargedBack: 22,
  message: 23,
  distributed: 24,
  overdue: 25,
  customerLoss: 26,
  documentAdded: 27,
  dueDateChanged: 28,
  creditNote: 29,
} as const satisfies { [N in InvoiceEvent as (typeof INVOICE_EVENTS)[N]]: N };

/** Largest file a customer may upload, checked while the body streams in. */
export const FILE_MAX_BYTES = 10 * 1024 * 1024;
export const FILE_MAX_ATTACHMENTS = 10;
export const FILE_ROLES = ['invoice', 'attachment'] as const;

/** `POST limited/files?role=&filename=` with the PDF bytes as the body (application/pdf). */
export const uploadFileQuerySchema = z.object({
  role: z.enum(FILE_ROLES).default('attachment'),
  filename: plainText().trim().min(1).max(200),
});

export const INVOICE_LIMITS = {
  invoiceNumber: 30,
  orderReference: 50,
  contact: 60,
  rowName: 100,
  rowDescription: 300,
  articleNumber: 25,
  rows: 200,
} as const;

/** Quantities are thousandths (1500 = 1.5), so that 1.5 h is exact without floats (`@portal/domain/quantity`). */
export { MAX_QUANTITY_MILLI, QUANTITY_SCALE };

/**
 * The one maximum of an invoice's total (gross, incl. VAT) in minor units: 10 000 000 000 öre =
 * 100 million SEK (or EUR), far above any invoice this portal finances. It keeps every sum over many
 * invoices exact in a JavaScript number: Number.MAX_SAFE_INTEGER = 9 007 199 254 740 991, so an
 * issuer would need 900 719 invoices all at this maximum (90 000 billion SEK, more than ten times
 * Sweden's yearly GDP) before a sum over its invoices could lose an öre. Each row's net is also within
 * it, and 200 rows × 1e10 × 2 (VAT at most 100 %) = 4e12 keeps the arithmetic in range on the way.
 * docs/MONEY.md "Money bounds".
 */
export const MAX_INVOICE_TOTAL_MINOR = 10_000_000_000;

/** The codes of `invoiceTotalIssue`: translated under `validation:`. */
export const INVOICE_TOTAL_CODES = {
  range: 'validation.invoice_total_range',
  positive: 'validation.invoice_total_positive',
} as const;

/**
 * The rule on an invoice's total, shared by the server, the spreadsheet import, the upload and the
 * form (docs/MONEY.md "Money bounds"): every row's net and the total incl. VAT at most
 * `MAX_INVOICE_TOTAL_MINOR`, and the total above zero. A credit is its own document (a credit note
 * against an invoice), so no service takes a negative or zero invoice, financed or not. Returns the
 * code of the broken rule, or null. No rows, or figures that are not integers, are left to the field
 * rules.
 */
export function invoiceTotalIssue(
  rows: readonly { quantityMilli: number; unitPriceMinor: number; vatBasisPoints: number }[],
): (typeof INVOICE_TOTAL_CODES)[keyof typeof INVOICE_TOTAL_CODES] | null {
  // No rows, or a figure that is not a whole number: the field rules say so.
  if (rows.length === 0) return null;
  const isWhole = (n: unknown) => Number.isSafeInteger(n);
  if (!rows.every((r) => isWhole(r.quantityMilli) && isWhole(r.unitPriceMinor) && isWhole(r.vatBasisPoints)))
    return null;
  let grossMinor: number;
  try {
    const totals = computeInvoiceTotals(
      rows.map((r) => ({
        quantity: r.quantityMilli,
        unitPriceMinor: r.unitPriceMinor,
        vatBasisPoints: r.vatBasisPoints,
      })),
      null,
    );
    if (totals.rowNetsMinor.some((net) => Math.abs(net) > MAX_INVOICE_TOTAL_MINOR))
      return INVOICE_TOTAL_CODES.range;
    grossMinor = totals.grossMinor;
  } catch {
    // Beyond the safe-integer range on the way: far beyond the maximum.
    return INVOICE_TOTAL_CODES.range;
  }
  if (grossMinor > MAX_INVOICE_TOTAL_MINOR) return INVOICE_TOTAL_CODES.range;
  if (grossMinor <= 0) return INVOICE_TOTAL_CODES.positive;
  return null;
}

/** `invoiceTotalIssue` as a refinement of an array of rows: the issue is on the array's own path. */
export function refineInvoiceTotal(
  rows: readonly { quantityMilli: number; unitPriceMinor: number; vatBasisPoints: number }[],
  ctx: z.RefinementCtx,
): void {
  const code = invoiceTotalIssue(rows);
  if (code) ctx.addIssue({ code: 'custom', message: code });
}

export const ROT_RUT_TYPES = ['none', 'rot', 'rut'] as const;

export const invoiceRowBodySchema = z.object({
  articleNumber: optionalText(INVOICE_LIMITS.articleNumber),
  name: requiredText(INVOICE_LIMITS.rowName),
  description: optionalText(INVOICE_LIMITS.rowDescription, { multiline: true }),
  quantityMilli: z
    .number('validation.required')
    .int('validation.invalid')
    .min(1, 'validation.quantity_positive')
    .max(MAX_QUANTITY_MILLI, 'validation.amount_range'),
  unit: z.enum(UNITS, 'validation.invalid'),
  unitPriceMinor: minorAmountSchema,
  vatBasisPoints: vatBasisPointsSchema,
  /** A labour row counts for the ROT/RUT deduction. */
  rotRut: z.boolean().default(false),
});
export type InvoiceRowBody = z.input<typeof invoiceRowBodySchema>;

export const rotRutBodySchema = z.object({
  type: z.enum(ROT_RUT_TYPES).default('none'),
  personalNumber: optionalText(13),
  propertyDesignation: optionalText(100),
  housingCoopNumber: optionalText(13),
});

/**
 * Whether a recipient is a company: an organisation number (Swedish, or a Finnish business ID) or a
 * VAT number. ROT and RUT are a private person's tax reduction (../shared/domain/vat-rot-rut.md):
 * never for a company as buyer (`validation.rot_rut_private_buyer`). A recipient with a personal
 * identity number, or none, may be a private person; the buyer's personal number is the invoice's own.
 */
export function isCompanyRecipient(recipient: { organizationNumber: string; vat: string }): boolean {
  const number = recipient.organizationNumber.trim();
  return (
    recipient.vat.trim() !== '' ||
    (number !== '' && (isSwedishOrganisationNumber(number) || isFinnishBusinessId(number)))
  );
}

/** `POST limited/invoices` (register) and `PUT limited/invoices/:id` (edit while pending). */
export const invoiceBodySchema = z.object({
  recipientID: z.uuid('validation.recipient_required'),
  invoiceNumber: requiredText(INVOICE_LIMITS.invoiceNumber),
  service: z.enum(SERVICE_TYPES, 'validation.invalid'),
  currency: plainText().length(3, 'validation.invalid'),
  invoiceDate: isoDateSchema,
  dueDate: isoDateSchema,
  orderReference: optionalText(INVOICE_LIMITS.orderReference),
  issuerContact: optionalText(INVOICE_LIMITS.contact),
  recipientContact: optionalText(INVOICE_LIMITS.contact),
  rows: z
    .array(invoiceRowBodySchema)
    .min(1, 'validation.rows_required')
    .max(INVOICE_LIMITS.rows)
    .superRefine(refineInvoiceTotal),
  rotRut: rotRutBodySchema.default({
    type: 'none',
    personalNumber: '',
    propertyDesignation: '',
    housingCoopNumber: '',
  }),
  /** Ids of uploaded PDF files to attach (`POST limited/files?role=attachment`). */
  attachmentIDs: z.array(z.uuid()).max(FILE_MAX_ATTACHMENTS).default([]),
  /** The invoice this one was duplicated from (`/invoices/duplicate/:id`); its timeline says so. */
  duplicatedFromID: z.uuid().nullable().default(null),
  /** The customer's own invoice PDF (`/invoice/upload`, `POST limited/files?role=invoice`), if any. */
  invoiceFileID: z.uuid().nullable().default(null),
});
export type InvoiceBody = z.input<typeof invoiceBodySchema>;
/** An invoice body as the schema gives it back (defaults filled, texts trimmed): what the server writes. */
export type ParsedInvoiceBody = z.output<typeof invoiceBodySchema>;

/** Longest own OCR reference as typed (spaces and hyphens included); its digits are at most 25. */
export const OWN_OCR_MAX_INPUT = 40;
/** Most VAT rates one uploaded invoice states (the issuer has at most four). */
export const UPLOAD_AMOUNT_LINES_MAX = 10;

/**
 * The customer's own OCR reference (`/invoice/upload`): optional, typed with or without spaces and
 * hyphens; what is stored is its digits. It must pass Bankgirot's hard control level, the Luhn check
 * digit over 2-25 digits (`isValidOcrReference`, shared/domain/references-and-ids.md §2). The length
 * digit is not required: whether the customer uses it is its agreement with its bank, not ours.
 * Empty → null (we make one when the invoice is sent). Uniqueness per issuer is the server's check.
 */
export const ownOcrReferenceSchema = plainText()
  .max(OWN_OCR_MAX_INPUT, 'validation.ocr_reference')
  .default('')
  .transform(normalizeOcrReference)
  .refine((v) => v === '' || isValidOcrReference(v), 'validation.ocr_reference')
  .transform((v) => (v === '' ? null : v));

/** One VAT rate of an uploaded invoice: the amount excluding VAT at that rate, as on the PDF. */
export const uploadedAmountSchema = z.object({
  vatBasisPoints: vatBasisPointsSchema,
  netMinor: minorAmountSchema.refine((v) => v > 0, 'validation.amount_positive'),
});

/**
 * `POST limited/invoices/upload` (`/invoice/upload`): registers the customer's own invoice PDF with
 * the facts we need. The PDF is required (spec §5: "a file must be attached on upload"); a missing
 * or null `invoiceFileID` fails `files.required`. The amounts are the net per VAT rate (each rate
 * once); the server stores one row per rate and computes VAT and totals with `computeInvoiceTotals`,
 * as for every invoice. No ROT/RUT: such an invoice is registered with the form.
 */
export const uploadInvoiceBodySchema = z.object({
  invoiceFileID: z.uuid('files.required'),
  recipientID: invoiceBodySchema.shape.recipientID,
  invoiceNumber: invoiceBodySchema.shape.invoiceNumber,
  service: invoiceBodySchema.shape.service,
  currency: invoiceBodySchema.shape.currency,
  invoiceDate: invoiceBodySchema.shape.invoiceDate,
  dueDate: invoiceBodySchema.shape.dueDate,
  orderReference: invoiceBodySchema.shape.orderReference,
  issuerContact: invoiceBodySchema.shape.issuerContact,
  recipientContact: invoiceBodySchema.shape.recipientContact,
  ocr: ownOcrReferenceSchema,
  amounts: z
    .array(uploadedAmountSchema)
    .min(1, 'validation.rows_required')
    .max(UPLOAD_AMOUNT_LINES_MAX)
    .superRefine((lines, ctx) => {
      const seen = new Set<number>();
      lines.forEach((line, i) => {
        if (seen.has(line.vatBasisPoints))
          ctx.addIssue({
            code: 'custom',
            path: [i, 'vatBasisPoints'],
            message: 'validation.vat_rate_repeated',
          });
        seen.add(line.vatBasisPoints);
      });
      // Stored as one row per rate of quantity 1 at the net, so the same total rule holds; a line not
      // above zero already has its own issue.
      if (lines.every((l) => l.netMinor > 0))
        refineInvoiceTotal(
          lines.map((l) => ({
            quantityMilli: QUANTITY_SCALE,
            unitPriceMinor: l.netMinor,
            vatBasisPoints: l.vatBasisPoints,
          })),
          ctx,
        );
    }),
  /** Further PDFs to attach (`POST limited/files?role=attachment`). */
  attachmentIDs: invoiceBodySchema.shape.attachmentIDs,
});
export type UploadInvoiceBody = z.input<typeof uploadInvoiceBodySchema>;
export type ParsedUploadInvoiceBody = z.output<typeof uploadInvoiceBodySchema>;

export const invoiceRowSchema = invoiceRowBodySchema.extend({ netMinor: z.number().int() });

export const vatLineSchema = z.object({
  vatBasisPoints: z.number().int(),
  netMinor: z.number().int(),
  vatMinor: z.number().int(),
});

export const invoiceSummarySchema = z.object({
  invoiceID: z.string(),
  invoiceNumber: z.string(),
  recipientID: z.string(),
  recipientName: z.string(),
  service: z.enum(SERVICE_TYPES),
  state: z.number().int(),
  currency: z.string(),
  invoiceDate: z.string(),
  dueDate: z.string(),
  created: z.string(),
  ocr: z.string().nullable(),
  grossMinor: z.number().int(),
  toPayMinor: z.number().int(),
  remainingMinor: z.number().int(),
  overdue: z.boolean(),
  /** The credit decision, when one was made (cleared when the invoice is sent again). */
  decision: z.enum(CREDIT_DECISIONS).nullable(),
  /** The back office's reason of a rejection (`decision` is `rejected`), else null. */
  rejectionReason: z.string().nullable(),
});
export type InvoiceSummary = z.infer<typeof invoiceSummarySchema>;

export const invoiceFileSchema = z.object({
  fileID: z.string(),
  role: z.enum(FILE_ROLES),
  filename: z.string(),
  size: z.number().int(),
  sha256: z.string(),
});

export const invoiceEventSchema = z.object({
  eventID: z.string(),
  event: z.number().int(),
  date: z.string(),
  text: z.string(),
  /** The event's figures (docs/MONEY.md "Timeline event details"): minor units and YYYY-MM-DD dates. */
  details: z.record(z.string(), z.union([z.string(), z.number()])),
});

export const invoiceDetailSchema = invoiceSummarySchema.extend({
  orderReference: z.string(),
  issuerContact: z.string(),
  recipientContact: z.string(),
  rows: z.array(invoiceRowSchema),
  vat: z.array(vatLineSchema),
  netMinor: z.number().int(),
  vatMinor: z.number().int(),
  deductionMinor: z.number().int(),
  rotRut: rotRutBodySchema,
  files: z.array(invoiceFileSchema),
  events: z.array(invoiceEventSchema),
});
export type InvoiceDetail = z.infer<typeof invoiceDetailSchema>;

export const INVOICE_SORT_FIELDS = [
  'invoiceDate',
  'dueDate',
  'invoiceNumber',
  'recipientName',
  'grossMinor',
  'created',
] as const;
export const listInvoicesQuerySchema = listQuerySchema(INVOICE_SORT_FIELDS).extend({
  filter: z.enum(INVOICE_FILTERS).default('all'),
  /** The history opens newest first. */
  order: z.enum(SORT_ORDERS).default('desc'),
  from: isoDateSchema.optional(),
  to: isoDateSchema.optional(),
  recipientID: z.uuid().optional(),
  /** Unpaid invoices that many days past due (the dashboard's overdue buckets). */
  bucket: overdueBucketSchema.optional(),
  /**
   * Optional: the `nextCursor` or `prevCursor` of the page next to the wanted one. The page then
   * starts right after (or ends right before) that page's last (first) invoice, read by keyset, and
   * `page` is only echoed; a cursor of another sort or order is ignored and `page` counts. A cursor
   * is base64url: any other character is refused (`validation.invalid`), as in every other field.
   */
  cursor: z
    .string()
    .max(500)
    .regex(/^[A-Za-z0-9_-]*$/, 'validation.invalid')
    .optional(),
});
export type ListInvoicesQuery = z.output<typeof listInvoicesQuerySchema>;
export const listInvoicesResponseSchema = pageSchema(invoiceSummarySchema).extend({
  /** Sum of grossMinor over everything that matched, per currency. */
  totals: z.array(z.object({ currency: z.string(), grossMinor: z.number().int(), count: z.number().int() })),
  /** The `cursor` of the next page (null on the last page) and of the previous one (null on the first). */
  nextCursor: z.string().nullable().optional(),
  prevCursor: z.string().nullable().optional(),
});

/**
 * A financed invoice goes to us at least this many days before its due date (docs/INVOICES.md "Due
 * dates when sending"): we need the time to decide on credit, pay out and collect. The same for every
 * issuer: there is no per-issuer setting of it (yet).
 */
export const SEND_MIN_DAYS_TO_DUE = 10;

/** Why a pending invoice cannot be sent as it stands: its due date. */
export const SEND_DUE_DATE_CODES = ['invoices.due_date_passed', 'invoices.due_date_too_soon'] as const;
export type SendDueDateCode = (typeof SEND_DUE_DATE_CODES)[number];

/**
 * The due-date rule of sending, for the send page's flags and the send route alike: a financed
 * invoice whose due date is before `today` has passed; one due in fewer than SEND_MIN_DAYS_TO_DUE days
 * (due today included) is too soon. Services we do not finance are sent whatever their due date (debt
 * collection takes overdue invoices by nature). Dates are ISO calendar dates (YYYY-MM-DD).
 */
export function sendDueDateCode(
  service: ServiceType,
  dueDate: string,
  today: string,
): SendDueDateCode | null {
  if (!FINANCED_SERVICES.includes(service)) return null;
  if (dueDate < today) return 'invoices.due_date_passed';
  if (dueDate < addDays(today, SEND_MIN_DAYS_TO_DUE)) return 'invoices.due_date_too_soon';
  return null;
}

/** A pending invoice on the send page: its summary and, when its due date stops it, why. */
export const pendingInvoiceSchema = invoiceSummarySchema.extend({
  sendCode: z.enum(SEND_DUE_DATE_CODES).nullable(),
});
export type PendingInvoice = z.infer<typeof pendingInvoiceSchema>;

/** `GET limited/invoices/pending`: every invoice not sent yet (the send page), oldest first. */
export const PENDING_LIST_LIMIT = 500;
export const listPendingInvoicesQuerySchema = z.object({ search: plainText().trim().max(100).optional() });
export const listPendingInvoicesResponseSchema = z.object({
  items: z.array(pendingInvoiceSchema),
  /** All pending invoices that matched; more than `items` when the list was cut at PENDING_LIST_LIMIT. */
  total: z.number().int().min(0),
});

/** `GET limited/invoices/next-number`: a suggestion for the next invoice number. */
export const nextInvoiceNumberResponseSchema = z.object({ invoiceNumber: z.string() });

/** `POST limited/invoices/send`: the pending invoices to send (spec §5: at least one). */
export const sendInvoicesBodySchema = z.object({
  invoiceIDs: z.array(z.uuid()).min(1, 'validation.select_at_least_one').max(500),
});
export type SendInvoicesBody = z.output<typeof sendInvoicesBodySchema>;
export const sendInvoicesResponseSchema = z.object({
  results: z.array(
    z.object({
      invoiceID: z.string(),
      invoiceNumber: z.string(),
      ok: z.boolean(),
      state: z.number().int().nullable(),
      ocr: z.string().nullable(),
      code: z.string().nullable(),
    }),
  ),
});

/**
 * Most invoices in one `POST limited/invoices/pdf` document: 200 invoices are a few hundred pages and a
 * few MB, drawn in a few seconds. More answers 422 `invoices.too_many_records` (spec §8: "too many
 * records, use a date range").
 */
export const INVOICES_PDF_MAX = 200;

/**
 * `POST limited/invoices/pdf`: one PDF of the chosen invoices, in the order given (a repeated id is
 * drawn once), in `language` or the user's. The count is checked by the route, not here, so that too
 * many ids answer `invoices.too_many_records` rather than a field error.
 */
export const getInvoicesPdfBodySchema = z.object({
  invoiceIDs: z.array(z.uuid()).min(1, 'validation.select_at_least_one'),
  language: z.enum(LANGUAGES).optional(),
});
export type GetInvoicesPdfBody = z.input<typeof getInvoicesPdfBodySchema>;

/** The duplicate-number error carries the existing invoice's amount, recipient and date (spec §5). */
export const duplicateInvoiceDetailsSchema = z.object({
  grossMinor: z.number().int(),
  currency: z.string(),
  recipientName: z.string(),
  invoiceDate: z.string(),
});
