import { buildPath, type InvoiceBody, ROUTES } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invoiceKeys } from './list-invoices';

export interface UpdateInvoiceInput {
  id: string;
  body: InvoiceBody;
}

/** `PUT limited/invoices/:id`: changes an invoice that has not been sent (409 once it has). */
export function updateInvoice({ id, body }: UpdateInvoiceInput) {
  return apiRequest(
    { method: ROUTES.updateInvoice.method, path: buildPath(ROUTES.updateInvoice.path, { id }) },
    (s) => s.invoiceDetailSchema,
    { body },
  );
}

export function useUpdateInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateInvoice,
    onSuccess: (invoice) => {
      queryClient.setQueryData(invoiceKeys.detail(invoice.invoiceID), invoice);
      return queryClient.invalidateQueries({ queryKey: invoiceKeys.all });
    },
  });
}
