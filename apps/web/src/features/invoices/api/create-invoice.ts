import { type InvoiceBody, ROUTES } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invoiceKeys } from './list-invoices';

export interface CreateInvoiceInput {
  body: InvoiceBody;
  /** The same key for every attempt of one form, so a retry or a double click registers once. */
  idempotencyKey: string;
}

/**
 * `POST limited/invoices`: registers a pending invoice. 400 `invoices.invalid` with field issues,
 * 409 `invoices.duplicate_number` with the existing invoice's facts (spec §5).
 */
export function createInvoice({ body, idempotencyKey }: CreateInvoiceInput) {
  return apiRequest(ROUTES.createInvoice, (s) => s.invoiceDetailSchema, {
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

export function useCreateInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvoice,
    onSuccess: (invoice) => {
      queryClient.setQueryData(invoiceKeys.detail(invoice.invoiceID), invoice);
      return queryClient.invalidateQueries({ queryKey: invoiceKeys.all });
    },
  });
}
