import {
  FINANCED_SERVICES,
  INVOICE_EVENT,
  INVOICE_STATE,
  type InvoiceEvent,
  type InvoiceState,
  type ServiceType,
} from '@portal/contracts';
import { ApiError } from '../../lib/errors';

/**
 * The invoice state machine (docs/INVOICES.md). Customer actions move an invoice only out of
 * `pending` (1); the back office's credit decision moves it out of `awaitingCreditDecision` (9).
 */
export type InvoiceAction =
  | 'edit'
  | 'delete'
  | 'send'
  | 'approve'
  | 'reject'
  | 'distribute'
  | 'pay'
  | 'dun'
  | 'chargeBack';

/**
 * Where each action may start (docs/INVOICES.md, docs/MONEY.md). `pay` is a payment that reduces the
 * remaining amount (on a charged-back invoice it is passed on to the issuer); `dun` is a collection
 * step of the daily job (overdue, reminders, collection, interest).
 */
const ALLOWED: Record<InvoiceAction, readonly InvoiceState[]> = {
  edit: [1],
  delete: [1],
  send: [1],
  approve: [9],
  reject: [9],
  distribute: [6],
  pay: [2, 3, 5],
  dun: [2, 3],
  chargeBack: [2, 3],
};

export function canTransition(state: number, action: InvoiceAction): boolean {
  return (ALLOWED[action] as readonly number[]).includes(state);
}

/**
 * The state after a payment that leaves `remainingMinor` to pay: paid (4) at zero, else part paid (3);
 * a charged-back invoice (5) stays charged back (the money is passed on to the issuer).
 */
export function stateAfterPayment(state: InvoiceState, remainingMinor: number): InvoiceState {
  if (state === INVOICE_STATE.chargedBack) return INVOICE_STATE.chargedBack;
  return remainingMinor <= 0 ? INVOICE_STATE.paid : INVOICE_STATE.partPaid;
}

export function assertTransition(state: number, action: InvoiceAction): void {
  if (!canTransition(state, action)) throw new ApiError('invoices.invalid_transition');
}

/** Where sending takes an invoice: financed services wait for our credit decision, others are queued. */
export function stateAfterSend(service: ServiceType): { state: InvoiceState; events: InvoiceEvent[] } {
  return FINANCED_SERVICES.includes(service)
    ? {
        state: INVOICE_STATE.awaitingCreditDecision,
        events: [INVOICE_EVENT.sent, INVOICE_EVENT.creditDecisionRequested],
      }
    : { state: INVOICE_STATE.creating, events: [INVOICE_EVENT.sent, INVOICE_EVENT.queued] };
}

/**
 * Where a credit decision takes an invoice: approved (event 3) it awaits the recipient's payment in
 * `notPaid` (2); rejected (event 2) it is back in `pending` (1), where the customer may fix and resend it.
 */
export function stateAfterDecision(decision: 'approved' | 'rejected'): {
  state: InvoiceState;
  event: InvoiceEvent;
} {
  return decision === 'approved'
    ? { state: INVOICE_STATE.notPaid, event: INVOICE_EVENT.approved }
    : { state: INVOICE_STATE.pending, event: INVOICE_EVENT.rejected };
}
