import { type FILE_ROLES, type InvoiceDetail, ROUTES } from '@portal/contracts';
import { apiUpload } from '../../../lib/api-client';
import { readBlob } from '../../../lib/read-blob';

export type FileRole = (typeof FILE_ROLES)[number];
export type InvoiceFile = InvoiceDetail['files'][number];

/** `POST limited/files?role=&filename=` with the PDF bytes as the body: the stored file's id, name and size. */
export function uploadInvoiceFile(file: File, role: FileRole): Promise<InvoiceFile> {
  return apiUpload(
    { method: ROUTES.uploadFile.method, path: ROUTES.uploadFile.path },
    (s) => s.invoiceFileSchema,
    file,
    { query: { role, filename: file.name }, contentType: 'application/pdf' },
  );
}

/** True when the file starts with the PDF signature `%PDF-`: the browser refuses anything else first. */
export async function looksLikePdf(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await readBlob(file.slice(0, 5)));
  return head.length === 5 && String.fromCharCode(...head) === '%PDF-';
}
