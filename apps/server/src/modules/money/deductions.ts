import { type DeductionAction, INVOICE_EVENT, INVOICE_STATE } from '@portal/contracts';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { lockById } from '../../db/locks';
import { pageOfRows } from '../../db/paging';
import { invoiceEvents, invoices, issuers, payments } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { isFinanced, type PostingLine, postJournal } from './ledger';

/**
 * The process of a BGMAX TK21 deduction (docs/MONEY.md "Deductions (TK21)"): the import books it on
 * payment_deductions (money the deposit lacks); an operator resolves it once, in one transaction with
 * its audit row:
 * - `chargeIssuer`: the payer used a credit of the issuer's (a credit note): Dr issuer_payable /
 *   Cr payment_deductions, set off as a negative `deduction` row of the issuer's next settlement; event
 *   29 on the invoice the deduction's reference names (its OCR), if it names one.
 * - `settleInvoice`: the payer took it off what it owed on a named invoice of the issuer's (part paid
 *   or paid, at least that much paid, same currency): Dr receivable / Cr payment_deductions, the
 *   remaining amount up by it (paid back to part paid, or to not paid when nothing is left paid), event
 *   12 on the invoice. For an invoice we only collect (the payment was passed on) the claim is held for
 *   the issuer again (Dr receivable / Cr claims_held) and the issuer bears the missing money (Dr
 *   issuer_payable / Cr payment_deductions). A charged-back invoice is off our book: refused, charge the
 *   issuer instead.
 */

export type DeductionResolution = { action: 'chargeIssuer' } | { action: 'settleInvoice'; invoiceId: string };

export interface ResolvedDeduction {
  paymentId: string;
  action: DeductionAction;
  issuerId: string;
  invoiceId: string | null;
  /** What the payer took off the deposit, positive. */
  amountMinor: number;
  currency: string;
  invoiceState: number | null;
  remainingMinor: number | null;
}

/** One page of the deductions no operator has resolved, oldest first, with the issuer's name. */
export async function listOpenDeductions(db: Db, page: number, pageSize: number) {
  const open = and(eq(payments.status, 'deduction'), isNull(payments.deductionAction));
  const order = [asc(payments.createdAt), asc(payments.id)];
  const { rows, total } = await pageOfRows(db, payments, open, order, { page, pageSize });
  const ids = [...new Set(rows.flatMap((r) => (r.issuerId ? [r.issuerId] : [])))];
  const names = new Map(
    ids.length === 0
      ? []
      : (
          await db
            .select({ id: issuers.id, name: issuers.name })
            .from(issuers)
            .where(inArray(issuers.id, ids))
        ).map((i) => [i.id, i.name]),
  );
  return {
    rows: rows.map((r) => ({ ...r, issuerName: r.issuerId ? (names.get(r.issuerId) ?? null) : null })),
    total,
  };
}

/** The states an invoice may take a deduction in: some of it was paid. */
const SETTLEABLE: readonly number[] = [INVOICE_STATE.partPaid, INVOICE_STATE.paid];

/**
 * Resolves the deduction `paymentId` (docs/MONEY.md "Deductions (TK21)"), once: 404
 * `deductions.not_found` for anything but a deduction, 409 `deductions.already_resolved` (details: the
 * action) the second time, `deductions.no_issuer` for one into a bankgiro of no issuer's; settling
 * against an invoice: 404 `invoices.not_found`, 409 `deductions.other_issuer`, `deductions.other_currency`,
 * `deductions.invoice_state` (not part paid or paid; a charged-back invoice included) or
 * `deductions.exceeds_paid` (more than was paid on it). The deduction and the invoice are locked, in
 * that order (as an operator's assignment does); `record` writes the audit row in the transaction.
 */
export async function resolveDeduction(
  db: Db,
  paymentId: string,
  how: DeductionResolution,
  opts: { operatorId: string; now: Date; record?: (tx: Tx, done: ResolvedDeduction) => Promise<void> },
): Promise<ResolvedDeduction> {
  return db.transaction(async (tx) => {
    const deduction = await lockById(tx, payments, paymentId);
    if (deduction?.status !== 'deduction') throw new ApiError('deductions.not_found');
    if (deduction.deductionAction !== null)
      throw new ApiError('deductions.already_resolved', { details: { action: deduction.deductionAction } });
    const issuerId = deduction.issuerId;
    if (!issuerId) throw new ApiError('deductions.no_issuer');
    const amountMinor = -deduction.amountMinor;
    const facts = {
      amountMinor,
      reference: deduction.reference,
      paymentDate: deduction.paymentDate,
    };
    const base = { issuerId, currency: deduction.currency, at: opts.now };
    const off: PostingLine = { account: 'payment_deductions', amountMinor: -amountMinor, paymentId };
    let done: ResolvedDeduction;
    if (how.action === 'chargeIssuer') {
      const named = await invoiceNamedBy(tx, issuerId, deduction.reference, deduction.currency);
      await postJournal(tx, {
        ...base,
        kind: 'deductionCharge',
        lines: [{ account: 'issuer_payable', amountMinor, invoiceId: named, paymentId }, off],
      });
      if (named)
        await tx.insert(invoiceEvents).values({
          invoiceId: named,
          issuerId,
          event: INVOICE_EVENT.creditNote,
          at: opts.now,
          details: facts,
        });
      done = { ...resolvedOf(deduction, 'chargeIssuer', named), invoiceState: null, remainingMinor: null };
    } else {
      const invoice = await lockById(tx, invoices, how.invoiceId);
      if (!invoice) throw new ApiError('invoices.not_found');
      if (invoice.issuerId !== issuerId) throw new ApiError('deductions.other_issuer');
      if (invoice.currency !== deduction.currency) throw new ApiError('deductions.other_currency');
      if (!SETTLEABLE.includes(invoice.state))
        throw new ApiError('deductions.invoice_state', { details: { state: invoice.state } });
      const paidMinor = invoice.toPayMinor - invoice.remainingMinor;
      if (amountMinor > paidMinor) throw new ApiError('deductions.exceeds_paid', { details: { paidMinor } });
      const remainingMinor = invoice.remainingMinor + amountMinor;
      const state = remainingMinor >= invoice.toPayMinor ? INVOICE_STATE.notPaid : INVOICE_STATE.partPaid;
      const lines: PostingLine[] = [
        { account: 'receivable', amountMinor, invoiceId: invoice.id, paymentId },
        off,
      ];
      // We only collect this invoice and passed its payment on in full: the claim is held for the issuer
      // again, and the issuer bears the money the deposit lacked (its next settlement sets it off).
      if (!isFinanced(invoice.service))
        lines.push(
          { account: 'claims_held', amountMinor: -amountMinor, invoiceId: invoice.id, paymentId },
          { account: 'issuer_payable', amountMinor, invoiceId: invoice.id, paymentId },
        );
      await postJournal(tx, { ...base, kind: 'deductionSettle', lines });
      await tx
        .update(invoices)
        .set({ state, remainingMinor, updatedAt: opts.now })
        .where(eq(invoices.id, invoice.id));
      await tx.insert(invoiceEvents).values({
        invoiceId: invoice.id,
        issuerId,
        event: INVOICE_EVENT.reversed,
        at: opts.now,
        details: { ...facts, remainingMinor },
      });
      done = { ...resolvedOf(deduction, 'settleInvoice', invoice.id), invoiceState: state, remainingMinor };
    }
    await tx
      .update(payments)
      .set({
        deductionAction: done.action,
        invoiceId: done.invoiceId,
        // What the deduction took back of what was paid on the invoice, for the payments report.
        appliedMinor: done.action === 'settleInvoice' ? -amountMinor : 0,
        resolvedBy: opts.operatorId,
        resolvedAt: opts.now,
      })
      .where(eq(payments.id, paymentId));
    await opts.record?.(tx, done);
    return done;
  });
}

function resolvedOf(
  deduction: typeof payments.$inferSelect,
  action: DeductionAction,
  invoiceId: string | null,
): Omit<ResolvedDeduction, 'invoiceState' | 'remainingMinor'> {
  return {
    paymentId: deduction.id,
    action,
    issuerId: deduction.issuerId ?? '',
    invoiceId,
    amountMinor: -deduction.amountMinor,
    currency: deduction.currency,
  };
}

/** The issuer's invoice in the currency whose OCR reference the deduction's reference is, if any. */
async function invoiceNamedBy(
  tx: Tx,
  issuerId: string,
  reference: string,
  currency: string,
): Promise<string | null> {
  if (!/^[0-9]{2,25}$/.test(reference)) return null;
  const [found] = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.issuerId, issuerId), eq(invoices.ocr, reference), eq(invoices.currency, currency)))
    .limit(1);
  return found?.id ?? null;
}
