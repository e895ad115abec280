import type { InvoiceDetail } from '@portal/contracts';
import { type ApiRoute, apiRequest } from '../../../lib/api-client';
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

/** What a call that registers a new invoice sends: the body and the form's idempotency key. */
export interface NewInvoiceInput<B> {
  body: B;
  /** The same key for every attempt of one form, so a retry or a double click registers once. */
  idempotencyKey: string;
}

/** The call that registers a new invoice at `route` (create, upload) and answers with it. */
export function registerInvoiceAt<B>(route: ApiRoute) {
  return ({ body, idempotencyKey }: NewInvoiceInput<B>) =>
    apiRequest(route, (s) => s.invoiceDetailSchema, {
      body,
      headers: { 'Idempotency-Key': idempotencyKey },
    });
}
