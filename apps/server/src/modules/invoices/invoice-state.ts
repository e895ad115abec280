import { canTransition, type InvoiceAction } from '@portal/contracts';
import { ApiError } from '../../lib/errors';

/** The state machine is the contracts' (`INVOICE_TRANSITIONS`); the server answers a refused move with 409. */
export {
  canTransition,
  type InvoiceAction,
  stateAfterDecision,
  stateAfterPayment,
  stateAfterSend,
} from '@portal/contracts';

export function assertTransition(state: number, action: InvoiceAction): void {
  if (!canTransition(state, action)) throw new ApiError('invoices.invalid_transition');
}
