import { type InvoiceBody, ROUTES } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { routeAt } from '../../../lib/api-hooks';
import { useSaveInvoiceMutation } from './saved-invoice';

export interface UpdateInvoiceInput {
  id: string;
  body: InvoiceBody;
}

/** `PUT limited/invoices/:id`: changes an invoice that has not been sent (409 once it has). */
export function updateInvoice({ id, body }: UpdateInvoiceInput) {
  return apiRequest(routeAt(ROUTES.updateInvoice, { id }), (s) => s.invoiceDetailSchema, { body });
}

export function useUpdateInvoice() {
  return useSaveInvoiceMutation(updateInvoice);
}
