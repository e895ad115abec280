import type { InvoiceDetail } from '@portal/contracts';
import { useRefreshingMutation } from '../../../lib/api-hooks';
import { invoiceKeys } from './list-invoices';

/**
 * A call that writes one invoice and answers with it (create, update, upload): the answer becomes the
 * cached detail at once, and the lists load again.
 */
export function useSaveInvoiceMutation<V>(save: (variables: V) => Promise<InvoiceDetail>) {
  return useRefreshingMutation(save, invoiceKeys.all, (invoice, queryClient) => {
    queryClient.setQueryData(invoiceKeys.detail(invoice.invoiceID), invoice);
  });
}
