import { FINANCED_SERVICES, type InvoiceEvent, type InvoiceState, type ServiceType } from '@portal/contracts';
import { ApiError } from '../lib/errors';

/**
 * The invoice state machine (docs/INVOICES.md). Customer actions of this issue move an invoice only
 * out of `pending` (1); the back office moves it further (credit decision, payout, payments).
 */
export type InvoiceAction = 'edit' | 'delete' | 'send';

const ALLOWED: Record<InvoiceAction, readonly InvoiceState[]> = {
  edit: [1],
  delete: [1],
  send: [1],
};

export function assertTransition(state: number, action: InvoiceAction): void {
  if (!(ALLOWED[action] as readonly number[]).includes(state))
    throw new ApiError('invoices.invalid_transition');
}

/** Where sending takes an invoice: financed services wait for our credit decision, others are queued. */
export function stateAfterSend(service: ServiceType): { state: InvoiceState; events: InvoiceEvent[] } {
  return FINANCED_SERVICES.includes(service)
    ? { state: 9, events: [15, 17] }
    : { state: 6, events: [15, 16] };
}
