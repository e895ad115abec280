import { type InvoiceBody, ROUTES } from '@portal/contracts';
import { type NewInvoiceInput, registerInvoiceAt, useSaveInvoiceMutation } from './saved-invoice';

export type CreateInvoiceInput = NewInvoiceInput<InvoiceBody>;

/**
 * `POST limited/invoices`: registers a pending invoice. 400 `invoices.invalid` with field issues,
 * 409 `invoices.duplicate_number` with the existing invoice's facts (spec §5).
 */
export const createInvoice = registerInvoiceAt<InvoiceBody>(ROUTES.createInvoice);

export function useCreateInvoice() {
  return useSaveInvoiceMutation(createInvoice);
}
