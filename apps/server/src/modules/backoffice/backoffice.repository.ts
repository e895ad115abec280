import { INVOICE_STATE } from '@portal/contracts';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { pageWithTotal } from '../../db/paging';
import { invoices, issuers, recipients } from '../../db/schema';

/**
 * The queries of the back office: the invoices awaiting our decision (operators' sign-in is
 * services/sign-in.ts's, shared with the customers').
 */

/** One page of every issuer's invoices awaiting our credit decision (state 9), oldest sent first. */
export async function listPendingDecisions(db: Db, page: number, pageSize: number) {
  const awaiting = eq(invoices.state, INVOICE_STATE.awaitingCreditDecision);
  const rows = db
    .select({ invoice: invoices, issuerName: issuers.name, recipientName: recipients.name })
    .from(invoices)
    .innerJoin(issuers, eq(issuers.id, invoices.issuerId))
    .innerJoin(recipients, eq(recipients.id, invoices.recipientId))
    .where(awaiting)
    .orderBy(asc(invoices.sentAt), asc(invoices.id))
    .$dynamic();
  return pageWithTotal(db, rows, invoices, awaiting, { page, pageSize });
}
