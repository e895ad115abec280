import { ROUTES } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { routeAt, useRefreshingMutation } from '../../../lib/api-hooks';
import { invoiceKeys } from './list-invoices';

/** `DELETE limited/invoices/:id`: deletes a pending invoice (kept as state 11 for the history). */
export function deleteInvoice(id: string) {
  return apiRequest(routeAt(ROUTES.deleteInvoice, { id }), (s) => s.okResponseSchema);
}

export function useDeleteInvoice() {
  return useRefreshingMutation(deleteInvoice, invoiceKeys.all);
}
