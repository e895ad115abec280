import { z } from 'zod';
import { SERVICE_TYPES } from './invoices';
import { pageQueryShape, pageSchema } from './lists';
import { withDatesInOrder } from './reports';
import { isoDateSchema, plainText } from './rules';

/**
 * Payloads of the money flow (docs/MONEY.md): the back office's payout runs, BGMAX imports, unmatched
 * payments, daily job, book check and fees, and the customer's transfer costs (settlements), payments
 * report and fee preview. Amounts are integer minor units of `currency`.
 */

const minor = z.number().int();
/** How many of something a run or an import did. */
const count = z.number().int();

// ---- back office ----

/**
 * How far from today (Europe/Stockholm) a date of money movement an operator enters may be: the payout
 * date of a run and the day of a daily job, at most 30 days back (a missed run caught up) and 365 days
 * ahead (a planned one). Outside it the server answers 400 `money.date_out_of_range` (docs/MONEY.md
 * "Money bounds"); 9999-12-31 is a typo, not a plan.
 */
export const MONEY_DATE_WINDOW = { daysBack: 30, daysAhead: 365 } as const;

/** `POST backoffice/payouts`: the payout date defaults to today (Europe/Stockholm). */
export const runPayoutBodySchema = z.object({ payoutDate: isoDateSchema.optional() });
export const payoutSettlementSchema = z.object({
  settlementID: z.string(),
  number: z.number().int(),
  issuerID: z.string(),
  currency: z.string(),
  rowCount: count,
  grossMinor: minor,
  feeMinor: minor,
  totalPayoutMinor: minor,
  /** The issuer's verified account the money goes to, masked (docs/MONEY.md "Payout holds"). */
  paidTo: z.string(),
});
/** Why a run holds an issuer's payout: no verified bank account to pay to (issue #13). */
export const PAYOUT_HOLD_REASONS = ['bank_account_unverified'] as const;
/**
 * An issuer and currency whose payout a run held: nothing settled, its postings stay open and the
 * first run after the hold is lifted pays them. `totalMinor` is what it would have been paid.
 */
export const heldPayoutSchema = z.object({
  issuerID: z.string(),
  currency: z.string(),
  rowCount: count,
  totalMinor: minor,
  reason: z.enum(PAYOUT_HOLD_REASONS),
});
/**
 * `GET backoffice/payouts/held`: the issuers whose payouts a run would hold now, per currency: the open
 * postings it owes them (`rowCount`) and their sum before fees (`grossMinor`), with the reason.
 */
export const heldIssuerSchema = z.object({
  issuerID: z.string(),
  issuerName: z.string(),
  currency: z.string(),
  rowCount: count,
  grossMinor: minor,
  reason: z.enum(PAYOUT_HOLD_REASONS),
});
export const listHeldPayoutsResponseSchema = z.object({ items: z.array(heldIssuerSchema) });
export type ListHeldPayoutsResponse = z.infer<typeof listHeldPayoutsResponseSchema>;
/**
 * An issuer and currency left unsettled by a run because its charge backs exceed its payouts:
 * `totalMinor` (negative) is what the issuer owes us; the next run with enough payouts sets it off.
 */
export const carriedBalanceSchema = z.object({
  issuerID: z.string(),
  currency: z.string(),
  rowCount: count,
  totalMinor: minor,
});
/**
 * An issuer whose part of a batch (payout run, daily job) failed and was rolled back alone: the others
 * went through (issue #10). `code` is an error code (`money.out_of_range`, `server.internal`, ...);
 * the details are in the server log and the run's audit row.
 */
export const issuerFailureSchema = z.object({ issuerID: z.string(), code: z.string() });
export const runPayoutResponseSchema = z.object({
  batchID: z.string(),
  settlements: z.array(payoutSettlementSchema),
  carried: z.array(carriedBalanceSchema),
  /** Issuers whose payout is held (no verified bank account); paid by the first run after. */
  held: z.array(heldPayoutSchema),
  /** Issuers not settled because their settlement failed; their postings wait for the next run. */
  failed: z.array(issuerFailureSchema),
});
export type RunPayoutResponse = z.infer<typeof runPayoutResponseSchema>;

/** `POST backoffice/payments/import?filename=` with the file's bytes as the body. */
export const importPaymentsQuerySchema = z.object({ filename: plainText().trim().min(1).max(200) });
export const importPaymentsResponseSchema = z.object({
  fileID: z.string(),
  duplicateFile: z.boolean(),
  payments: count,
  registered: count,
  matched: count,
  unmatched: count,
  /** Deductions (TK21, a split payment's TK23 part): money taken off a deposit, kept apart from the unmatched payments. */
  deductions: count,
  /** Zero amounts (a TK20 or a part of nothing), kept as information: never booked, never assigned. */
  information: count,
  overpayments: count,
  totalMinor: minor,
});
export type ImportPaymentsResponse = z.infer<typeof importPaymentsResponseSchema>;

/**
 * What the operator's list shows: the payments waiting to be assigned (`unmatched`, the default) or the
 * zero amounts kept as information (`information`), oldest first.
 */
export const UNMATCHED_LIST_STATUSES = ['unmatched', 'information'] as const;
export const listUnmatchedQuerySchema = z.object({
  ...pageQueryShape,
  status: z.enum(UNMATCHED_LIST_STATUSES).default('unmatched'),
});
export const unmatchedPaymentSchema = z.object({
  paymentID: z.string(),
  status: z.enum(UNMATCHED_LIST_STATUSES),
  /** A part of a payment split over its extra references (1-based), assigned alone; null when whole. */
  part: z.number().int().nullable(),
  /** Bankgirot's serial number of the payment: a split payment's parts share it. */
  bgcSerial: z.string(),
  receivingBankgiro: z.string(),
  issuerID: z.string().nullable(),
  reference: z.string(),
  amountMinor: minor,
  currency: z.string(),
  paymentDate: z.string(),
  payerName: z.string(),
});
export const listUnmatchedResponseSchema = pageSchema(unmatchedPaymentSchema);
export type ListUnmatchedResponse = z.infer<typeof listUnmatchedResponseSchema>;

export const assignPaymentBodySchema = z.object({ invoiceID: z.uuid('validation.invalid') });
export const assignPaymentResponseSchema = z.object({
  paymentID: z.string(),
  invoiceID: z.string(),
  appliedMinor: minor,
  overpaidMinor: minor,
  state: z.number().int(),
  remainingMinor: minor,
});
export type AssignPaymentResponse = z.infer<typeof assignPaymentResponseSchema>;

/** How an operator resolves a BGMAX TK21 deduction (docs/MONEY.md "Deductions (TK21)"). */
export const DEDUCTION_ACTIONS = ['chargeIssuer', 'settleInvoice'] as const;
export type DeductionAction = (typeof DEDUCTION_ACTIONS)[number];

/** `GET backoffice/deductions`: the deductions no operator has resolved, oldest first. */
export const listDeductionsQuerySchema = z.object(pageQueryShape);
export const openDeductionSchema = z.object({
  paymentID: z.string(),
  issuerID: z.string().nullable(),
  issuerName: z.string().nullable(),
  receivingBankgiro: z.string(),
  /** The payer's reference of the TK21 (often the number of a credit note). */
  reference: z.string(),
  payerName: z.string(),
  /** What the payer took off the deposit, positive. */
  amountMinor: minor,
  currency: z.string(),
  paymentDate: z.string(),
});
export const listDeductionsResponseSchema = pageSchema(openDeductionSchema);
export type ListDeductionsResponse = z.infer<typeof listDeductionsResponseSchema>;

/**
 * `POST backoffice/deductions/:id/resolve`: charge the deduction to the issuer whose credit the payer
 * used, or settle it against a named invoice of the issuer's (the payer took it off what it owed).
 */
export const resolveDeductionBodySchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('chargeIssuer') }),
  z.object({ action: z.literal('settleInvoice'), invoiceID: z.uuid('validation.invalid') }),
]);
export type ResolveDeductionBody = z.infer<typeof resolveDeductionBodySchema>;
export const resolveDeductionResponseSchema = z.object({
  paymentID: z.string(),
  action: z.enum(DEDUCTION_ACTIONS),
  issuerID: z.string(),
  /** The invoice concerned: the one settled against, or the one a charge's reference names (or null). */
  invoiceID: z.string().nullable(),
  amountMinor: minor,
  currency: z.string(),
  /** The settled invoice's state and remaining amount after it; null for a charge. */
  invoiceState: z.number().int().nullable(),
  remainingMinor: minor.nullable(),
});
export type ResolveDeductionResponse = z.infer<typeof resolveDeductionResponseSchema>;

/** `POST backoffice/daily`: the day defaults to today (Europe/Stockholm). */
export const runDailyBodySchema = z.object({ date: isoDateSchema.optional() });
export const runDailyResponseSchema = z.object({
  date: z.string(),
  alreadyRunning: z.boolean(),
  distributed: count,
  overdue: count,
  reminder1: count,
  reminder2: count,
  collection: count,
  interestItems: count,
  chargedBack: count,
  /** Installment plans' invoices issued, and plans completed (docs/INSTALLMENTS.md "Money"). */
  installmentsInvoiced: count,
  plansCompleted: count,
  /** Debt claims made on issuers and reminders of claims sent (docs/MONEY.md "Debt claims"). */
  debtClaims: count,
  claimReminders: count,
  /** Invoices whose collection steps failed and were left as they were. */
  failed: z.array(z.string()),
  /**
   * Every failure with its issuer and code: an issuer whose distribution failed (`invoiceID` null,
   * its queued invoices stay queued), an invoice whose steps failed, or an installment plan whose
   * day failed (`planID`); the others went through.
   */
  failures: z.array(
    issuerFailureSchema.extend({ invoiceID: z.string().nullable(), planID: z.string().nullable() }),
  ),
});
export type RunDailyResponse = z.infer<typeof runDailyResponseSchema>;

export const checkBooksResponseSchema = z.object({
  violations: z.array(z.object({ rule: z.string(), id: z.string(), detail: z.string() })),
});
export type CheckBooksResponse = z.infer<typeof checkBooksResponseSchema>;

export const issuerFeeSchema = z.object({
  service: z.enum(SERVICE_TYPES),
  currency: z.enum(['SEK', 'EUR']),
  percentBasisPoints: z.number().int().min(0).max(10_000),
  fixedMinor: z.number().int().min(0).max(100_000_000),
});
export type IssuerFee = z.infer<typeof issuerFeeSchema>;
/** Bounds of `debtClaimDays`: days an open debt waits for payouts before it is claimed from the issuer. */
export const DEBT_CLAIM_DAYS_RANGE = { min: 1, max: 365 } as const;
const debtClaimDaysSchema = z.number().int().min(DEBT_CLAIM_DAYS_RANGE.min).max(DEBT_CLAIM_DAYS_RANGE.max);
/**
 * `PUT backoffice/issuers/:id/fees` replaces the issuer's whole price list; `debtClaimDays`, when
 * given, sets the days after which its open debt becomes a debt claim (docs/MONEY.md "Debt claims").
 */
export const issuerFeesBodySchema = z.object({
  fees: z.array(issuerFeeSchema).max(50),
  debtClaimDays: debtClaimDaysSchema.optional(),
});
export const issuerFeesResponseSchema = z.object({
  issuerID: z.string(),
  fees: z.array(issuerFeeSchema),
  debtClaimDays: z.number().int(),
});
export type IssuerFeesResponse = z.infer<typeof issuerFeesResponseSchema>;

// ---- debt claims (docs/MONEY.md "Debt claims") ----

export const DEBT_CLAIM_STATES = ['open', 'paid'] as const;
/**
 * A claim on an issuer for a debt no payouts covered: `amountMinor` owed (the negative total of the
 * postings it took, gross less fees), `paidMinor` of it paid and `remainingMinor` left; paid to
 * `bankgiro` (ours) with `ocr` by `dueDate`.
 */
export const debtClaimSchema = z.object({
  claimID: z.string(),
  number: z.number().int(),
  currency: z.string(),
  amountMinor: minor,
  paidMinor: minor,
  remainingMinor: minor,
  grossMinor: minor,
  feeMinor: minor,
  rowCount: count,
  ocr: z.string(),
  bankgiro: z.string(),
  claimDate: z.string(),
  dueDate: z.string(),
  state: z.enum(DEBT_CLAIM_STATES),
  remindersSent: count,
  /** The day it was paid in full; null while open. */
  paidDate: z.string().nullable(),
});
export type DebtClaim = z.infer<typeof debtClaimSchema>;
/** `GET limited/debtclaims`: the caller's claims, newest first. */
export const listDebtClaimsResponseSchema = z.object({ items: z.array(debtClaimSchema) });
export type ListDebtClaimsResponse = z.infer<typeof listDebtClaimsResponseSchema>;
/** The kinds of a settlement's rows, and of the postings a debt claim takes (docs/MONEY.md). */
export const SETTLEMENT_ROW_KINDS = ['payout', 'payment', 'chargeBack', 'planPayout', 'deduction'] as const;
/** What a posting (a settlement's row, a debt claim's posting) is for. */
const postingShape = {
  /** The row's invoice; null for a plan's payout, which names its plan instead. */
  invoiceID: z.string().nullable(),
  planID: z.string().nullable(),
  /** The invoice's number, or the plan's loan number. */
  invoiceNumber: z.string(),
  recipientName: z.string(),
  kind: z.enum(SETTLEMENT_ROW_KINDS),
  /** The payer's reference of a `deduction` row; null on every other row. */
  reference: z.string().nullable(),
};
/** A posting's amounts: gross, our fee, and net (gross less the fee). */
const postingAmountsShape = { grossMinor: minor, feeMinor: minor, netMinor: minor };
/** `GET limited/debtclaims/:id`: the statement: each posting the claim took and the payments of it. */
export const debtClaimDetailSchema = z.object({
  claim: debtClaimSchema,
  rows: z.array(
    z.object({
      ...postingShape,
      /** The day the posting was made (the charge back's, the payout's). */
      date: z.string(),
      ...postingAmountsShape,
    }),
  ),
  payments: z.array(
    z.object({ paymentID: z.string(), paymentDate: z.string(), reference: z.string(), amountMinor: minor }),
  ),
});
export type DebtClaimDetail = z.infer<typeof debtClaimDetailSchema>;

/** `GET backoffice/debtclaims?state=`: every issuer's claims, newest first (at most 500). */
export const listIssuerDebtClaimsQuerySchema = z.object({ state: z.enum(DEBT_CLAIM_STATES).optional() });
export const listIssuerDebtClaimsResponseSchema = z.object({
  items: z.array(debtClaimSchema.extend({ issuerID: z.string(), issuerName: z.string() })),
});
export type ListIssuerDebtClaimsResponse = z.infer<typeof listIssuerDebtClaimsResponseSchema>;
/**
 * `POST backoffice/debtclaims`: with `issuerID`, that issuer's open debt is claimed at once (whatever
 * its age); without, the daily job's step runs for `date` (default today): every debt old enough.
 */
export const claimIssuerDebtsBodySchema = z.object({
  issuerID: z.uuid('validation.invalid').optional(),
  date: isoDateSchema.optional(),
});
export const claimIssuerDebtsResponseSchema = z.object({
  claims: z.array(
    z.object({
      claimID: z.string(),
      number: z.number().int(),
      issuerID: z.string(),
      currency: z.string(),
      amountMinor: minor,
      rowCount: count,
      ocr: z.string(),
      dueDate: z.string(),
    }),
  ),
  reminders: count,
  failed: z.array(issuerFailureSchema),
});
export type ClaimIssuerDebtsResponse = z.infer<typeof claimIssuerDebtsResponseSchema>;

// ---- customer ----

/** `GET limited/transfercosts`: settlements newest first; from/to filter the created date. */
export const listTransferCostsQuerySchema = z
  .object({ ...pageQueryShape, from: isoDateSchema.optional(), to: isoDateSchema.optional() })
  .refine((v) => !v.from || !v.to || v.to >= v.from, { path: ['to'], message: 'reports.wrong_date_range' });
export type ListTransferCostsQuery = z.input<typeof listTransferCostsQuerySchema>;
export const transferCostSchema = z.object({
  settlementID: z.string(),
  number: z.number().int(),
  createdDate: z.string(),
  payoutDate: z.string(),
  currency: z.string(),
  grossMinor: minor,
  feeMinor: minor,
  totalPayoutMinor: minor,
  rowCount: count,
});
export type TransferCost = z.infer<typeof transferCostSchema>;
export const listTransferCostsResponseSchema = pageSchema(transferCostSchema);
export type ListTransferCostsResponse = z.infer<typeof listTransferCostsResponseSchema>;

/**
 * `planPayout`: an installment plan's financed amount paid out on approval (docs/INSTALLMENTS.md);
 * `deduction`: a BGMAX deduction charged to the issuer (negative, no fee, with the payer's reference).
 */
export const settlementRowSchema = z.object({ ...postingShape, ...postingAmountsShape });
export type SettlementRow = z.infer<typeof settlementRowSchema>;
export const transferCostQuerySchema = z.object(pageQueryShape);
export const transferCostDetailSchema = z.object({
  settlement: transferCostSchema,
  rows: pageSchema(settlementRowSchema),
});
export type TransferCostDetail = z.infer<typeof transferCostDetailSchema>;

/** `POST limited/invoices/fees-preview`: what a payout would pay for these invoices. */
export const feesPreviewBodySchema = z.object({
  invoiceIDs: z.array(z.uuid('validation.invalid')).min(1).max(200),
});
export const feesPreviewResponseSchema = z.object({
  items: z.array(
    z.object({
      invoiceID: z.string(),
      currency: z.string(),
      financed: z.boolean(),
      grossMinor: minor,
      feeMinor: minor,
      netMinor: minor,
    }),
  ),
  totals: z.array(z.object({ currency: z.string(), grossMinor: minor, feeMinor: minor, netMinor: minor })),
});
export type FeesPreviewResponse = z.infer<typeof feesPreviewResponseSchema>;

/** The payments report's filter, of its pages and its export: the dates (in order), a recipient, an invoice number. */
const paymentsFilterShape = {
  from: isoDateSchema,
  to: isoDateSchema,
  recipientID: z.uuid('validation.invalid').optional(),
  invoiceNumber: plainText().trim().max(30).optional(),
};
/** `GET limited/reports/payments`: payments matched to the issuer's invoices, newest first. */
export const paymentsReportQuerySchema = withDatesInOrder(
  z.object({ ...pageQueryShape, ...paymentsFilterShape }),
);
export type PaymentsReportQuery = z.input<typeof paymentsReportQuerySchema>;
export const reportPaymentSchema = z.object({
  paymentID: z.string(),
  paymentDate: z.string(),
  invoiceID: z.string(),
  invoiceNumber: z.string(),
  recipientName: z.string(),
  reference: z.string(),
  payerName: z.string(),
  currency: z.string(),
  amountMinor: minor,
  appliedMinor: minor,
  overpaidMinor: minor,
  /** A resolved BGMAX deduction (negative amount): how it was handled; null for a payment. */
  deduction: z.enum(DEDUCTION_ACTIONS).nullable(),
});
export type ReportPayment = z.infer<typeof reportPaymentSchema>;
export const paymentsReportResponseSchema = pageSchema(reportPaymentSchema).extend({
  totals: z.array(z.object({ currency: z.string(), count: count, amountMinor: minor })),
});
export type PaymentsReportResponse = z.infer<typeof paymentsReportResponseSchema>;
export const EXPORT_FORMATS = ['excel', 'csv'] as const;
export const paymentsExportQuerySchema = withDatesInOrder(
  z.object({ ...paymentsFilterShape, format: z.enum(EXPORT_FORMATS) }),
);
