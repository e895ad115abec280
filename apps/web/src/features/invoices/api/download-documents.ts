import { type Language, ROUTES } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '../../../lib/api-client';
import { routeAt } from '../../../lib/api-hooks';
import { saveBlob } from '../../../lib/download';

/**
 * `GET limited/invoices/:id/pdf`: the invoice's document (the PDF sent, once sent) in its recipient's
 * language, saved under the server's name.
 */
export async function downloadInvoicePdf(input: { invoiceID: string; invoiceNumber: string }): Promise<void> {
  const { blob, filename } = await apiDownload(routeAt(ROUTES.getInvoicePdf, { id: input.invoiceID }));
  saveBlob(blob, filename ?? `invoice-${input.invoiceNumber}.pdf`);
}

/**
 * `POST limited/invoices/pdf`: one PDF of the chosen invoices' documents in the given order, saved
 * under the server's name; `language` is only the bundle's title (each document is its recipient's).
 */
export async function downloadInvoicesPdf(input: {
  invoiceIDs: readonly string[];
  language: Language;
}): Promise<void> {
  const { blob, filename } = await apiDownload(
    { method: ROUTES.getInvoicesPdf.method, path: ROUTES.getInvoicesPdf.path },
    { body: { invoiceIDs: input.invoiceIDs, language: input.language } },
  );
  saveBlob(blob, filename ?? 'invoices.pdf');
}

/** `GET limited/files/:id`: an uploaded PDF (the invoice's own PDF or an attachment). */
export async function downloadInvoiceFile(input: { fileID: string; filename: string }): Promise<void> {
  const { blob, filename } = await apiDownload(routeAt(ROUTES.downloadFile, { id: input.fileID }));
  saveBlob(blob, filename ?? input.filename);
}

export function useDownloadInvoicePdf() {
  return useMutation({ mutationFn: downloadInvoicePdf });
}

export function useDownloadInvoiceFile() {
  return useMutation({ mutationFn: downloadInvoiceFile });
}

export function useDownloadInvoicesPdf() {
  return useMutation({ mutationFn: downloadInvoicesPdf });
}
