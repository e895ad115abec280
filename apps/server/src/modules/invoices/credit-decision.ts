import type { CreditDecisionResponse } from '@portal/contracts';
import type { Locale } from '@portal/i18n';
import { eq } from 'drizzle-orm';
import type { OperatorContext } from '../../context';
import type { Db } from '../../db/client';
import { invoiceEvents, invoices, issuers, messages, recipients } from '../../db/schema';
import { auditOperator } from '../../lib/audit';
import { ApiError } from '../../lib/errors';
import { noticeColumns } from '../../services/notices';
import { recogniseInvoice } from '../money/money.service';
import { invoiceTotalCode } from './invoice-math';
import { assertTransition, stateAfterDecision } from './invoice-state';

export type CreditDecision = { decision: 'approved' } | { decision: 'rejected'; reason: string };

/** The language of our messages to an issuer: Finnish for a Finnish company, else Swedish. */
function localeOf(country: 'SE' | 'FI'): Locale {
  return country === 'FI' ? 'fi-FI' : 'sv-SE';
}

/**
 * An operator's credit decision on an invoice awaiting one (state 9), all in one transaction: the
 * state move, the timeline event (a rejection's reason is its text), an unread message to the issuer
 * from us, and the audit row. The invoice row is locked first, so of two decisions at once the second
 * finds it moved and answers 409 `invoices.invalid_transition`, writing nothing.
 */
export async function decideCredit(
  db: Db,
  operator: OperatorContext,
  invoiceId: string,
  choice: CreditDecision,
  now: Date,
  ip: string,
): Promise<CreditDecisionResponse> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({
        id: invoices.id,
        issuerId: invoices.issuerId,
        state: invoices.state,
        invoiceNumber: invoices.invoiceNumber,
        service: invoices.service,
        currency: invoices.currency,
        remainingMinor: invoices.remainingMinor,
        grossMinor: invoices.grossMinor,
        toPayMinor: invoices.toPayMinor,
        recipientName: recipients.name,
        country: issuers.country,
      })
      .from(invoices)
      .innerJoin(recipients, eq(recipients.id, invoices.recipientId))
      .innerJoin(issuers, eq(issuers.id, invoices.issuerId))
      .where(eq(invoices.id, invoiceId))
      .for('update', { of: invoices })
      .limit(1);
    if (!found) throw new ApiError('invoices.not_found');
    const action = choice.decision === 'approved' ? 'approve' : 'reject';
    assertTransition(found.state, action);
    // Never buy an invoice whose total is out of range (stored before the bounds): reject it instead.
    if (action === 'approve' && invoiceTotalCode(found) !== null)
      throw new ApiError('invoices.invalid_total');
    const next = stateAfterDecision(choice.decision);
    const reason = choice.decision === 'rejected' ? choice.reason.trim() : null;

    await tx
      .update(invoices)
      .set({ state: next.state, decision: choice.decision, updatedAt: now })
      .where(eq(invoices.id, found.id));
    // Approved, the invoice is bought: the recipient owes us, we owe the issuer (docs/MONEY.md).
    if (choice.decision === 'approved') await recogniseInvoice(tx, found, now);
    await tx.insert(invoiceEvents).values({
      invoiceId: found.id,
      issuerId: found.issuerId,
      event: next.event,
      at: now,
      userId: null,
      details: { operatorId: operator.operatorId, ...(reason !== null ? { reason } : {}) },
    });
    await tx.insert(messages).values({
      issuerId: found.issuerId,
      // Written by us: no customer user is the author, so every user of the issuer counts it unread.
      ...noticeColumns(
        {
          code: `creditDecision.${choice.decision}`,
          params: {
            invoiceNumber: found.invoiceNumber,
            recipient: found.recipientName,
            reason: reason ?? '',
          },
        },
        localeOf(found.country),
      ),
      invoiceId: found.id,
      invoiceNumber: found.invoiceNumber,
      date: now,
      read: false,
    });
    await auditOperator(tx, `backoffice.invoice.${choice.decision}`, operator, ip, {
      issuerId: found.issuerId,
      details: {
        invoiceId: found.id,
        fromState: found.state,
        toState: next.state,
        ...(reason ? { reason } : {}),
      },
    });
    return { invoiceID: found.id, state: next.state, decision: choice.decision };
  });
}
