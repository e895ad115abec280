import { canTransition, INVOICE_STATE, type InvoiceState, stateAfterPayment } from '@portal/contracts';
import { OUR_BANKGIRO } from '@portal/domain/money-flow';
import type { payments } from '../../db/schema';
import { uuidv7 } from '../../lib/uuid7';
import { isFinanced, journalRows, type PostingRow } from './ledger';

/**
 * The matching of incoming payments to invoices (docs/MONEY.md "Incoming payments"), apart from the
 * reading of the file and the database work around it: what each payment does to its invoice and which
 * journal it books.
 */

/** One TK20/TK21 of the file, flattened with its section's facts. */
export interface Incoming {
  dedupeKey: string;
  bankgiro: string;
  currency: string;
  paymentDate: string;
  reference: string;
  /**
   * The reference of the payment's only extra reference (a single TK22 carrying the whole amount, or
   * none), looked up when `reference` matches no invoice; null when there is none or it is ambiguous.
   */
  extraReference: string | null;
  /** The TK22/TK23 references in file order, shown for a payment with a blank reference. */
  extraReferences: string[];
  amountMinor: number;
  deduction: boolean;
  payerBankgiro: string | null;
  payerName: string;
  channel: number;
  bgcSerial: string;
}

/** An invoice as matching sees it, updated in memory as the file's payments apply in order. */
export interface PaymentTarget {
  id: string;
  issuerId: string;
  invoiceNumber: string;
  ocr: string;
  state: number;
  currency: string;
  service: string;
  remainingMinor: number;
  touched: boolean;
}

/**
 * An issuer's debt claim as matching sees it (docs/MONEY.md "Debt claims"), by its OCR reference:
 * paid to our own bankgiro, updated in memory as the file's payments apply in order.
 */
export interface ClaimTarget {
  id: string;
  issuerId: string;
  currency: string;
  amountMinor: number;
  paidMinor: number;
  state: 'open' | 'paid';
  paidAt: Date | null;
}

export interface MatchBatch {
  /** The payments, each applied one with its timeline facts (`remainingAfterMinor`, `forwarded`). */
  payments: (typeof payments.$inferInsert)[];
  postings: PostingRow[];
  /** The invoices the batch's payments applied to (their state and remaining amount after it). */
  touched: Set<PaymentTarget>;
  /** The debt claims the batch's payments paid (what is paid of them after it). */
  claims: Set<ClaimTarget>;
}

export const emptyBatch = (): MatchBatch => ({
  payments: [],
  postings: [],
  touched: new Set(),
  claims: new Set(),
});

/**
 * Matches the payments `fresh[from..to)` in file order (the targets change in memory as they do) and
 * adds the rows to write to `batch`: each payment (with its timeline facts) and its journal. Pure: no
 * database, no clock (the caller passes `at`); the import reads and locks the targets before and writes
 * the batch after (payment-import.ts). Tested on its own in payment-matching.test.ts.
 */
export function matchPayments(
  fresh: Incoming[],
  from: number,
  to: number,
  ctx: {
    fileId: string;
    at: Date;
    issuerOf: Map<string, string>;
    targets: Map<string, PaymentTarget>;
    /** Debt claims by OCR reference, for payments to our own bankgiro (`OUR_BANKGIRO`). */
    claims?: Map<string, ClaimTarget>;
    counts: { matched: number; deductions: number; overpayments: number };
  },
  batch: MatchBatch,
): void {
  const { fileId, at, issuerOf, targets, counts } = ctx;
  const claims = ctx.claims ?? new Map<string, ClaimTarget>();
  for (let k = from; k < to; k++) {
    const p = fresh[k] as Incoming;
    // Time-ordered: the payments' indexes on their id grow at one end (lib/uuid7.ts).
    const paymentId = uuidv7();
    const issuerId = issuerOf.get(p.bankgiro) ?? null;
    const own = issuerId ? targets.get(`${issuerId}:${p.reference}`) : undefined;
    // The TK20's reference first; only when it names no invoice, its sole TK22's.
    const viaExtra =
      !own && issuerId && p.extraReference ? targets.get(`${issuerId}:${p.extraReference}`) : undefined;
    const target = own ?? viaExtra;
    const base = {
      id: paymentId,
      fileId,
      dedupeKey: p.dedupeKey,
      receivingBankgiro: p.bankgiro,
      // The reference the payment was made on: its own, the TK22 it was matched on, or when its own
      // is blank its extra references (for the operator who assigns it).
      reference: viaExtra
        ? (p.extraReference ?? '')
        : p.reference === ''
          ? p.extraReferences.join(' ')
          : p.reference,
      amountMinor: p.amountMinor,
      currency: p.currency,
      paymentDate: p.paymentDate,
      payerBankgiro: p.payerBankgiro,
      payerName: p.payerName,
      channel: p.channel,
      bgcSerial: p.bgcSerial,
      createdAt: at,
    };
    if (p.deduction) {
      // Money taken off the deposit (a credit the payer deducted), not a payment of an invoice: kept
      // as such, out of the unmatched queue, and booked off the bank so the bank holds the deposit.
      counts.deductions++;
      batch.payments.push({ ...base, issuerId, invoiceId: null, status: 'deduction' });
      batch.postings.push(...heldJournal('deduction', issuerId, p.currency, p.amountMinor, paymentId, at));
      continue;
    }
    const claim = issuerId ? undefined : claimOf(p, claims);
    if (claim) {
      // A debt claim paid to our own bankgiro: what the issuer owes us comes in.
      counts.matched++;
      batch.claims.add(claim);
      batch.postings.push(...payClaim(claim, p.amountMinor, paymentId, at));
      batch.payments.push({
        ...base,
        reference: claims.get(p.reference) === claim ? p.reference : (p.extraReference ?? ''),
        issuerId: claim.issuerId,
        invoiceId: null,
        claimId: claim.id,
        status: 'claim',
        appliedMinor: p.amountMinor,
      });
      continue;
    }
    const usable =
      target && p.amountMinor > 0 && target.currency === p.currency && acceptsPayment(target.state);
    if (!target || !usable) {
      batch.payments.push({ ...base, issuerId, invoiceId: null, status: 'unmatched' });
      batch.postings.push(...heldJournal('unmatched', issuerId, p.currency, p.amountMinor, paymentId, at));
      continue;
    }
    const applied = applyPayment(target, p.amountMinor, paymentId, at);
    batch.touched.add(target);
    batch.postings.push(...applied.postings);
    if (applied.overpaidMinor > 0) counts.overpayments++;
    counts.matched++;
    batch.payments.push({
      ...base,
      issuerId: target.issuerId,
      invoiceId: target.id,
      status: 'matched',
      appliedMinor: applied.appliedMinor,
      overpaidMinor: applied.overpaidMinor,
      remainingAfterMinor: applied.remainingAfterMinor,
      forwarded: applied.forwarded,
    });
  }
}

/**
 * The open debt claim a payment to our own bankgiro pays: by its reference, else its sole extra
 * reference, in the claim's currency, and no more than what is left of it. An overpayment, a claim
 * already paid or another currency is none: the payment waits unmatched for an operator.
 */
function claimOf(p: Incoming, claims: Map<string, ClaimTarget>): ClaimTarget | undefined {
  if (p.bankgiro !== OUR_BANKGIRO || p.deduction) return undefined;
  const claim = claims.get(p.reference) ?? (p.extraReference ? claims.get(p.extraReference) : undefined);
  if (claim?.state !== 'open' || claim.currency !== p.currency) return undefined;
  return p.amountMinor > 0 && p.amountMinor <= claim.amountMinor - claim.paidMinor ? claim : undefined;
}

/**
 * A payment of a debt claim: Dr bank / Cr issuer_claim; the claim is paid when nothing is left of it.
 * Updates `claim` in memory and returns the journal.
 */
export function payClaim(claim: ClaimTarget, amountMinor: number, paymentId: string, at: Date): PostingRow[] {
  claim.paidMinor += amountMinor;
  if (claim.paidMinor === claim.amountMinor) {
    claim.state = 'paid';
    claim.paidAt = at;
  }
  return journalRows({
    issuerId: claim.issuerId,
    currency: claim.currency,
    kind: 'claimPayment',
    at,
    lines: [
      { account: 'bank', amountMinor, paymentId, claimId: claim.id },
      { account: 'issuer_claim', amountMinor: -amountMinor, paymentId, claimId: claim.id },
    ],
  });
}

/** Whether a payment can be applied to an invoice in this state (else it waits unmatched). */
export function acceptsPayment(state: number): boolean {
  return canTransition(state, 'pay') || state === INVOICE_STATE.paid;
}

/**
 * A payment not applied to an invoice, booked between the bank and the account that holds it:
 * `unmatched` waits in unmatched_payments for an operator; a TK21 `deduction` (a negative amount: the
 * deposit is that much smaller than its payments) is kept in payment_deductions, a claim apart from the
 * unmatched payments (docs/MONEY.md "Incoming payments").
 */
function heldJournal(
  kind: 'unmatched' | 'deduction',
  issuerId: string | null,
  currency: string,
  amountMinor: number,
  paymentId: string,
  at: Date,
): PostingRow[] {
  const account = kind === 'unmatched' ? 'unmatched_payments' : 'payment_deductions';
  return journalRows({
    issuerId,
    currency,
    kind,
    at,
    lines: [
      { account: 'bank', amountMinor, paymentId },
      { account, amountMinor: -amountMinor, paymentId },
    ],
  });
}

export interface AppliedPayment {
  appliedMinor: number;
  overpaidMinor: number;
  /** The invoice's remaining amount after the payment (kept on the payment for the timeline). */
  remainingAfterMinor: number;
  /** Whether the money was passed on to the issuer (the invoice had been charged back). */
  forwarded: boolean;
  postings: PostingRow[];
}

/**
 * One payment of `amountMinor` (> 0) on an invoice that accepts it, as docs/MONEY.md says: the part up
 * to the remaining amount is applied (paid 6 or part paid 7; on a charged-back invoice passed on to
 * the issuer), the rest is an overpayment (21). Updates `target` in memory and returns the journal and
 * the facts the payment row keeps for the timeline, which reads those events from it
 * (`invoiceTimeline`); `fromAccount` is where the money is taken from (the bank, or the unmatched
 * payments when an operator assigns one). The caller writes them, the payment and the invoice.
 */
export function applyPayment(
  target: PaymentTarget,
  amountMinor: number,
  paymentId: string,
  at: Date,
  fromAccount: 'bank' | 'unmatched_payments' = 'bank',
  kind: 'payment' | 'assign' = 'payment',
): AppliedPayment {
  const payable = target.state === INVOICE_STATE.paid ? 0 : target.remainingMinor;
  const appliedMinor = Math.min(amountMinor, Math.max(payable, 0));
  const overpaidMinor = amountMinor - appliedMinor;
  const chargedBack = target.state === INVOICE_STATE.chargedBack;
  const collectedOnly = !isFinanced(target.service);
  const lines: Parameters<typeof journalRows>[0]['lines'] = [
    { account: fromAccount, amountMinor, invoiceId: target.id, paymentId },
    { account: 'overpayments', amountMinor: -overpaidMinor, invoiceId: target.id, paymentId },
  ];
  if (chargedBack) {
    // Our claim went back to the issuer with the charge back: the money is the issuer's.
    lines.push({ account: 'issuer_payable', amountMinor: -appliedMinor, invoiceId: target.id, paymentId });
  } else {
    lines.push({ account: 'receivable', amountMinor: -appliedMinor, invoiceId: target.id, paymentId });
    if (collectedOnly) {
      lines.push({ account: 'claims_held', amountMinor: appliedMinor, invoiceId: target.id, paymentId });
      lines.push({ account: 'issuer_payable', amountMinor: -appliedMinor, invoiceId: target.id, paymentId });
    }
  }
  const postings = journalRows({
    issuerId: target.issuerId,
    currency: target.currency,
    kind: chargedBack ? 'forward' : kind,
    at,
    lines,
  });
  if (appliedMinor > 0) {
    target.remainingMinor -= appliedMinor;
    target.state = stateAfterPayment(target.state as InvoiceState, target.remainingMinor);
  }
  target.touched = true;
  return {
    appliedMinor,
    overpaidMinor,
    remainingAfterMinor: target.remainingMinor,
    forwarded: chargedBack && appliedMinor > 0,
    postings,
  };
}
