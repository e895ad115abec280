import { type InvoiceBody, ROUTES } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { useSaveInvoiceMutation } from './saved-invoice';

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
  return useSaveInvoiceMutation(createInvoice);
}
