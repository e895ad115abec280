import {
  FINANCED_SERVICES,
  INVOICE_EVENT,
  INVOICE_STATE,
  type InvoiceEvent,
  type InvoiceState,
  type ServiceType,
} from './invoices';

/**
 * The invoice state machine (docs/INVOICES.md, docs/MONEY.md): one table of where each action may
 * start, shared by every part of the server that moves an invoice (and readable by the web). Customer
 * actions move an invoice only out of `pending`; the back office's credit decision moves it out of
 * `awaitingCreditDecision`.
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

const { pending, notPaid, partPaid, chargedBack, creating, awaitingCreditDecision } = INVOICE_STATE;

/**
 * Where each action may start. `pay` is a payment that reduces the remaining amount (on a charged-back
 * invoice it is passed on to the issuer); `dun` is a collection step of the daily job (overdue,
 * reminders, collection, interest).
 */
export const INVOICE_TRANSITIONS: Readonly<Record<InvoiceAction, readonly InvoiceState[]>> = {
  edit: [pending],
  delete: [pending],
  send: [pending],
  approve: [awaitingCreditDecision],
  reject: [awaitingCreditDecision],
  distribute: [creating],
  pay: [notPaid, partPaid, chargedBack],
  dun: [notPaid, partPaid],
  chargeBack: [notPaid, partPaid],
};

/** Whether `action` may start from `state` (a number read from the database, any value). */
export function canTransition(state: number, action: InvoiceAction): boolean {
  return (INVOICE_TRANSITIONS[action] as readonly number[]).includes(state);
}

/**
 * The state after a payment that leaves `remainingMinor` (öre/cents) to pay: paid at zero or less, else
 * part paid; a charged-back invoice stays charged back (the money is passed on to the issuer).
 */
export function stateAfterPayment(state: InvoiceState, remainingMinor: number): InvoiceState {
  if (state === INVOICE_STATE.chargedBack) return INVOICE_STATE.chargedBack;
  return remainingMinor <= 0 ? INVOICE_STATE.paid : INVOICE_STATE.partPaid;
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
 * Where a credit decision takes an invoice: approved, it awaits the recipient's payment in `notPaid`;
 * rejected, it is back in `pending`, where the customer may fix and resend it.
 */
export function stateAfterDecision(decision: 'approved' | 'rejected'): {
  state: InvoiceState;
  event: InvoiceEvent;
} {
  return decision === 'approved'
    ? { state: INVOICE_STATE.notPaid, event: INVOICE_EVENT.approved }
    : { state: INVOICE_STATE.pending, event: INVOICE_EVENT.rejected };
}
