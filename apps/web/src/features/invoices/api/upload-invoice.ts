import { ROUTES, type UploadInvoiceBody } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { useSaveInvoiceMutation } from './saved-invoice';

export interface UploadInvoiceInput {
  body: UploadInvoiceBody;
  /** The same key for every attempt of one form, so a retry or a double click registers once. */
  idempotencyKey: string;
}

/**
 * `POST limited/invoices/upload`: registers the customer's own invoice PDF as a pending invoice. 400
 * `invoices.invalid` with field issues (`files.required`, `validation.ocr_reference`), 404
 * `files.not_found`, 409 `invoices.duplicate_number` (with the existing invoice's facts) or
 * `invoices.duplicate_ocr`.
 */
export function uploadInvoice({ body, idempotencyKey }: UploadInvoiceInput) {
  return apiRequest(ROUTES.uploadInvoice, (s) => s.invoiceDetailSchema, {
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

export function useUploadInvoice() {
  return useSaveInvoiceMutation(uploadInvoice);
}
