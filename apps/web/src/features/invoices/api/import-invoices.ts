import { ROUTES } from '@portal/contracts';
import { apiUpload } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/api-hooks';
import { IMPORT_CONTENT_TYPES } from '../utils/import-file';
import { invoiceKeys } from './list-invoices';
import type { ImportFileInput } from './preview-invoice-import';

export interface ImportInvoicesInput extends ImportFileInput {
  /** One key per preview: a double click or a retry imports the file once and gets the same answer. */
  idempotencyKey: string;
}

/**
 * `POST limited/invoices/import?format=` with the same file as the preview: the server checks it again
 * and registers every valid invoice in one transaction; the answer lists them and counts the skipped.
 */
export function importInvoices({ file, format, idempotencyKey }: ImportInvoicesInput) {
  return apiUpload(ROUTES.importInvoices, (s) => s.importInvoicesResponseSchema, file, {
    query: { format },
    contentType: IMPORT_CONTENT_TYPES[format],
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

export function useImportInvoices() {
  return useRefreshingMutation(importInvoices, invoiceKeys.all);
}
