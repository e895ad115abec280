import { PLAN_EVENT } from '@portal/contracts';
import { and, eq, gt, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { installmentPlanRows, installmentPlans, payments } from '../../db/schema';
import * as repo from './installments.repository';

/**
 * The plan's side of a payment (docs/INSTALLMENTS.md "Money"): every payment a BGMAX import (or an
 * operator's assignment) applied to an installment's invoice, or to a recalled plan's recall invoice,
 * writes `installmentPaid` on the plan's timeline, with the installment, the amount applied and what
 * is left of the invoice. Run as the import's `afterApplied` step, in its transaction, so the event
 * commits with the payment or not at all; a file already imported applies nothing and writes nothing.
 */
export async function recordInstallmentPayments(
  tx: Tx,
  of: { fileId: string } | { paymentId: string },
  at: Date,
): Promise<number> {
  const which = 'fileId' in of ? eq(payments.fileId, of.fileId) : eq(payments.id, of.paymentId);
  const applied = and(which, inArray(payments.status, ['matched', 'assigned']), gt(payments.appliedMinor, 0));
  const columns = {
    planId: installmentPlans.id,
    issuerId: installmentPlans.issuerId,
    state: installmentPlans.state,
    invoiceId: payments.invoiceId,
    paymentId: payments.id,
    appliedMinor: payments.appliedMinor,
    remainingAfterMinor: payments.remainingAfterMinor,
    paymentDate: payments.paymentDate,
    bgcSerial: payments.bgcSerial,
  };
  const [ofRows, ofRecalls] = await Promise.all([
    tx
      .select({ ...columns, number: installmentPlanRows.number })
      .from(payments)
      .innerJoin(installmentPlanRows, eq(installmentPlanRows.invoiceId, payments.invoiceId))
      .innerJoin(installmentPlans, eq(installmentPlans.id, installmentPlanRows.planId))
      .where(applied),
    tx
      .select(columns)
      .from(payments)
      .innerJoin(installmentPlans, eq(installmentPlans.recallInvoiceId, payments.invoiceId))
      .where(applied),
  ]);
  const found = [...ofRows, ...ofRecalls.map((p) => ({ ...p, number: null }))].sort((a, b) =>
    a.bgcSerial.localeCompare(b.bgcSerial),
  );
  await repo.insertPlanEvents(
    tx,
    found.map((p) => ({
      planId: p.planId,
      issuerId: p.issuerId,
      event: PLAN_EVENT.installmentPaid,
      state: p.state,
      at,
      details: {
        invoiceID: p.invoiceId ?? '',
        // The recall invoice holds the rows no installment invoice took: it has no number of its own.
        installment: p.number ?? 'recall',
        amountMinor: p.appliedMinor,
        remainingMinor: p.remainingAfterMinor ?? 0,
        paymentDate: p.paymentDate,
        paymentID: p.paymentId,
      },
    })),
  );
  return found.length;
}
