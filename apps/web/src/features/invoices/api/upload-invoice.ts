import { ROUTES, type UploadInvoiceBody } from '@portal/contracts';
import { type NewInvoiceInput, registerInvoiceAt, useSaveInvoiceMutation } from './saved-invoice';

export type UploadInvoiceInput = NewInvoiceInput<UploadInvoiceBody>;

/**
 * `POST limited/invoices/upload`: registers the customer's own invoice PDF as a pending invoice. 400
 * `invoices.invalid` with field issues (`files.required`, `validation.ocr_reference`), 404
 * `files.not_found`, 409 `invoices.duplicate_number` (with the existing invoice's facts) or
 * `invoices.duplicate_ocr`.
 */
export const uploadInvoice = registerInvoiceAt<UploadInvoiceBody>(ROUTES.uploadInvoice);

export function useUploadInvoice() {
  return useSaveInvoiceMutation(uploadInvoice);
}
