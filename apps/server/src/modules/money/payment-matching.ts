import { canTransition, INVOICE_STATE, type InvoiceState, stateAfterPayment } from '@portal/contracts';
import { type BgmaxPayment, bgmaxExtraReferenceSignedAmount } from '@portal/domain/bgmax';
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
  /**
   * The payment as the payer split it over its extra references (`splitParts`), registered part by
   * part when `reference` names no invoice; null when it is not split.
   */
  parts: IncomingPart[] | null;
  amountMinor: number;
  deduction: boolean;
  payerBankgiro: string | null;
  payerName: string;
  channel: number;
  bgcSerial: string;
}

/** One part of a payment the payer split over its extra references (docs/MONEY.md "Split payments"). */
export interface IncomingPart {
  /** Its extra reference's place among the payment's TK22/TK23, 1-based: `payments.part`. */
  part: number;
  reference: string;
  /** Signed: a TK23's part is negative. */
  amountMinor: number;
}

/** What an import registered, by what became of each row (a split payment's parts count one by one). */
export interface MatchCounts {
  matched: number;
  unmatched: number;
  deductions: number;
  information: number;
  overpayments: number;
}

/**
 * The parts of a payment split over its extra references (shared/domain/bgmax.md §3): two or more
 * TK22/TK23 whose signed amounts (TK23 negative) add up to the TK20's amount, each part its extra
 * reference's; null for anything else (a deduction, a zero payment, one extra reference, or amounts
 * that do not add up, e.g. all zero when the payer did not split it).
 */
export function splitParts(
  p: Pick<BgmaxPayment, 'kind' | 'amountMinor' | 'extraReferences'>,
): IncomingPart[] | null {
  if (p.kind === 'deduction' || p.amountMinor <= 0 || p.extraReferences.length < 2) return null;
  const parts = p.extraReferences.map((e, i) => ({
    part: i + 1,
    reference: e.reference,
    amountMinor: bgmaxExtraReferenceSignedAmount(e),
  }));
  // Exact whatever the amounts: a sum past the safe range must not round into equality.
  const sum = parts.reduce((s, x) => s + BigInt(x.amountMinor), 0n);
  return sum === BigInt(p.amountMinor) ? parts : null;
}

/** A part's dedupe key: its payment's with the part's number, so that each part is unique. */
export const partKey = (dedupeKey: string, part: number): string => `${dedupeKey}|${part}`;

/** Every dedupe key a payment may have been registered under: whole, or part by part. */
export function dedupeKeysOf(p: Pick<Incoming, 'dedupeKey' | 'parts'>): string[] {
  return [p.dedupeKey, ...(p.parts ?? []).map((x) => partKey(p.dedupeKey, x.part))];
}

/** The references a payment may be matched on: its own, its sole TK22's, and its parts'. */
export function referencesOf(p: Pick<Incoming, 'reference' | 'extraReference' | 'parts'>): string[] {
  const refs = [p.reference];
  if (p.extraReference !== null) refs.push(p.extraReference);
  for (const x of p.parts ?? []) refs.push(x.reference);
  return refs;
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
 * adds the rows to write to `batch`: each payment (with its timeline facts) and its journal; a payment
 * split over its extra references whose own reference names no invoice, part by part. Pure: no
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
    counts: MatchCounts;
  },
  batch: MatchBatch,
): void {
  const { fileId, at, issuerOf, targets } = ctx;
  const claims = ctx.claims ?? new Map<string, ClaimTarget>();
  for (let k = from; k < to; k++) {
    const p = fresh[k] as Incoming;
    const issuerId = issuerOf.get(p.bankgiro) ?? null;
    const find = (reference: string | null) =>
      issuerId && reference ? targets.get(`${issuerId}:${reference}`) : undefined;
    const own = find(p.reference);
    const row: PaymentFacts = {
      fileId,
      receivingBankgiro: p.bankgiro,
      issuerId,
      currency: p.currency,
      paymentDate: p.paymentDate,
      payerBankgiro: p.payerBankgiro,
      payerName: p.payerName,
      channel: p.channel,
      bgcSerial: p.bgcSerial,
      createdAt: at,
    };
    const claim = issuerId ? undefined : claimOf(p, claims);
    if (claim) {
      // A debt claim paid to our own bankgiro: what the issuer owes us comes in.
      const id = uuidv7();
      ctx.counts.matched++;
      batch.claims.add(claim);
      batch.postings.push(...payClaim(claim, p.amountMinor, id, at));
      const reference = claims.get(p.reference) === claim ? p.reference : (p.extraReference ?? '');
      batch.payments.push(
        paymentRow(row, { dedupeKey: p.dedupeKey, reference }, id, p.amountMinor, 'claim', {
          issuerId: claim.issuerId,
          invoiceId: null,
          claimId: claim.id,
          appliedMinor: p.amountMinor,
        }),
      );
      continue;
    }
    if (!own && p.parts) {
      // Split by the payer: each part on its own, as its reference says (a TK23's is a deduction).
      for (const x of p.parts)
        registerRow(
          row,
          { dedupeKey: partKey(p.dedupeKey, x.part), part: x.part, reference: x.reference },
          x.amountMinor,
          x.amountMinor < 0,
          find(x.reference),
          ctx,
          batch,
        );
      continue;
    }
    // The TK20's reference first; only when it names no invoice, its sole TK22's.
    const viaExtra = own ? undefined : find(p.extraReference);
    // The reference the payment was made on: its own, the TK22 it was matched on, or when its own is
    // blank its extra references (for the operator who assigns it).
    const reference = viaExtra
      ? (p.extraReference ?? '')
      : p.reference === ''
        ? p.extraReferences.join(' ')
        : p.reference;
    registerRow(
      row,
      { dedupeKey: p.dedupeKey, reference },
      p.amountMinor,
      p.deduction,
      own ?? viaExtra,
      ctx,
      batch,
    );
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

/**
 * One payment row (a whole payment or a part of one) and its journal, added to `batch`: a zero amount
 * is information only (nothing moves, nothing is booked or assigned), a deduction is held apart, a
 * payment is applied to `target` when it can take it, else kept unmatched for an operator.
 */
function registerRow(
  row: PaymentFacts,
  key: PaymentKey,
  amountMinor: number,
  deduction: boolean,
  target: PaymentTarget | undefined,
  ctx: { at: Date; counts: MatchCounts },
  batch: MatchBatch,
): void {
  const { at, counts } = ctx;
  // Time-ordered: the payments' indexes on their id grow at one end (lib/uuid7.ts).
  const id = uuidv7();
  const issuerId = row.issuerId;
  if (amountMinor === 0) {
    counts.information++;
    batch.payments.push(paymentRow(row, key, id, amountMinor, 'information'));
    return;
  }
  if (deduction) {
    // Money taken off the deposit (a credit the payer deducted), not a payment of an invoice: kept
    // as such, out of the unmatched queue, and booked off the bank so the bank holds the deposit.
    counts.deductions++;
    batch.payments.push(paymentRow(row, key, id, amountMinor, 'deduction'));
    batch.postings.push(...heldJournal('deduction', issuerId, row.currency, amountMinor, id, at));
    return;
  }
  if (!target || amountMinor < 0 || target.currency !== row.currency || !acceptsPayment(target.state)) {
    counts.unmatched++;
    batch.payments.push(paymentRow(row, key, id, amountMinor, 'unmatched'));
    batch.postings.push(...heldJournal('unmatched', issuerId, row.currency, amountMinor, id, at));
    return;
  }
  const applied = applyPayment(target, amountMinor, id, at);
  batch.touched.add(target);
  batch.postings.push(...applied.postings);
  if (applied.overpaidMinor > 0) counts.overpayments++;
  counts.matched++;
  batch.payments.push(
    paymentRow(row, key, id, amountMinor, 'matched', {
      issuerId: target.issuerId,
      invoiceId: target.id,
      appliedMinor: applied.appliedMinor,
      overpaidMinor: applied.overpaidMinor,
      remainingAfterMinor: applied.remainingAfterMinor,
      forwarded: applied.forwarded,
    }),
  );
}

/** What a payment's rows take from it and its file whatever becomes of them. */
type PaymentFacts = Pick<
  typeof payments.$inferInsert,
  | 'fileId'
  | 'receivingBankgiro'
  | 'currency'
  | 'paymentDate'
  | 'payerBankgiro'
  | 'payerName'
  | 'channel'
  | 'bgcSerial'
  | 'createdAt'
> & { issuerId: string | null };

/** What tells one row of a payment from another: the whole payment, or one of its parts. */
interface PaymentKey {
  dedupeKey: string;
  reference: string;
  part?: number;
}

/** Where a row's money went: left out, the column's default (a row held apart: its section's issuer). */
interface PaymentOutcome {
  issuerId: string | null;
  invoiceId: string | null;
  claimId?: string;
  appliedMinor?: number;
  overpaidMinor?: number;
  remainingAfterMinor?: number;
  forwarded?: boolean;
}

/**
 * A payment row, every column in one object literal: spreads of a shared row with properties added
 * after allocated several times its size per payment (issue #15), and the rows are kept until their
 * batch is written.
 */
function paymentRow(
  row: PaymentFacts,
  key: PaymentKey,
  id: string,
  amountMinor: number,
  status: (typeof payments.$inferInsert)['status'],
  outcome: PaymentOutcome = { issuerId: row.issuerId, invoiceId: null },
): typeof payments.$inferInsert {
  return {
    id,
    fileId: row.fileId,
    dedupeKey: key.dedupeKey,
    receivingBankgiro: row.receivingBankgiro,
    issuerId: outcome.issuerId,
    invoiceId: outcome.invoiceId,
    status,
    reference: key.reference,
    amountMinor,
    currency: row.currency,
    paymentDate: row.paymentDate,
    payerBankgiro: row.payerBankgiro,
    payerName: row.payerName,
    channel: row.channel,
    bgcSerial: row.bgcSerial,
    part: key.part,
    appliedMinor: outcome.appliedMinor,
    overpaidMinor: outcome.overpaidMinor,
    remainingAfterMinor: outcome.remainingAfterMinor,
    forwarded: outcome.forwarded,
    claimId: outcome.claimId,
    createdAt: row.createdAt,
  };
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
