import { ROUTES } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiUpload } from '../../../lib/api-client';
import { IMPORT_CONTENT_TYPES, type ImportFormat } from '../utils/import-file';

export interface ImportFileInput {
  file: File;
  format: ImportFormat;
}

/**
 * `POST limited/invoices/import/preview?format=` with the file as the body: every invoice of the file
 * with its issues, and the counts. The server saves nothing.
 */
export function previewInvoiceImport({ file, format }: ImportFileInput) {
  return apiUpload(ROUTES.previewInvoiceImport, (s) => s.importPreviewResponseSchema, file, {
    query: { format },
    contentType: IMPORT_CONTENT_TYPES[format],
  });
}

export function usePreviewInvoiceImport() {
  return useMutation({ mutationFn: previewInvoiceImport });
}
