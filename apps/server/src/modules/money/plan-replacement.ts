import { INVOICE_EVENT, INVOICE_STATE } from '@portal/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { invoiceEvents, invoices } from '../../db/schema';
import { postJournal } from './ledger';

/**
 * A replacing plan takes over what is left of a recalled plan's recall invoice (docs/INSTALLMENTS.md
 * "Money", replacement): the invoice's receivable moves to the new plan's plan_receivable in one
 * `planTransfer` journal, and the invoice is settled (paid, nothing left) with a closing event that
 * names the new plan. The invoice is locked; one that is not open (not paid or part paid) moves
 * nothing. Returns the amount moved, in minor units.
 */
export async function transferRecallInvoice(
  tx: Tx,
  entry: { invoiceId: string; toPlanId: string; issuerId: string },
  at: Date,
): Promise<number> {
  const [invoice] = await tx
    .select({
      id: invoices.id,
      currency: invoices.currency,
      remainingMinor: invoices.remainingMinor,
    })
    .from(invoices)
    .where(
      and(
        eq(invoices.id, entry.invoiceId),
        eq(invoices.issuerId, entry.issuerId),
        inArray(invoices.state, [INVOICE_STATE.notPaid, INVOICE_STATE.partPaid]),
      ),
    )
    .for('update');
  if (!invoice || invoice.remainingMinor <= 0) return 0;
  const amountMinor = invoice.remainingMinor;
  await postJournal(tx, {
    issuerId: entry.issuerId,
    currency: invoice.currency,
    kind: 'planTransfer',
    at,
    lines: [
      { account: 'plan_receivable', amountMinor, planId: entry.toPlanId, invoiceId: invoice.id },
      { account: 'receivable', amountMinor: -amountMinor, invoiceId: invoice.id },
    ],
  });
  await tx
    .update(invoices)
    .set({ state: INVOICE_STATE.paid, remainingMinor: 0, updatedAt: at })
    .where(eq(invoices.id, invoice.id));
  await tx.insert(invoiceEvents).values({
    invoiceId: invoice.id,
    issuerId: entry.issuerId,
    event: INVOICE_EVENT.cleared,
    at,
    details: { planID: entry.toPlanId, amountMinor },
  });
  return amountMinor;
}
