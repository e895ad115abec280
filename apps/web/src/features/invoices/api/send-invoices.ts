import { ROUTES } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/api-hooks';
import { invoiceKeys } from './list-invoices';

export interface SendInvoicesInput {
  invoiceIDs: string[];
  /** One key per send: a double click or a retry sends the invoices once and gets the same answer. */
  idempotencyKey: string;
}

/**
 * `POST limited/invoices/send`: sends pending invoices; each result carries its new state and OCR
 * reference, or the code of why that invoice was not sent.
 */
export function sendInvoices({ invoiceIDs, idempotencyKey }: SendInvoicesInput) {
  return apiRequest(ROUTES.sendInvoices, (s) => s.sendInvoicesResponseSchema, {
    body: { invoiceIDs },
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

export function useSendInvoices() {
  return useRefreshingMutation(sendInvoices, invoiceKeys.all);
}
