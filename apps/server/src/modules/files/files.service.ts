import { createHash, randomUUID } from 'node:crypto';
import type { invoiceFileSchema, uploadFileQuerySchema } from '@portal/contracts';
import { PDFDocument } from 'pdf-lib';
import type { z } from 'zod';
import type { AuthContext } from '../../context';
import type { Db } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { normaliseFileName } from '../../lib/file-names';
import type { FileStore } from '../../services/file-store';
import * as repo from './files.repository';

/**
 * What the bytes are: a real PDF (the `%PDF-` signature, the `%%EOF` trailer, and a document with
 * pages a PDF parser can open), an encrypted one, or not a PDF at all.
 */
export async function pdfKind(bytes: Buffer): Promise<'pdf' | 'encrypted' | 'not_pdf'> {
  if (bytes.length < 8 || bytes.subarray(0, 5).toString('latin1') !== '%PDF-') return 'not_pdf';
  try {
    const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
    if (doc.getPageCount() === 0 || !bytes.subarray(-1024).includes('%%EOF')) return 'not_pdf';
    return doc.isEncrypted ? 'encrypted' : 'pdf';
  } catch {
    return 'not_pdf';
  }
}

/** `uploadFile`: a PDF of the caller's issuer, stored under a server-made key, to attach to an invoice. */
export async function uploadFile(
  db: Db,
  store: FileStore,
  auth: AuthContext,
  bytes: unknown,
  query: z.output<typeof uploadFileQuerySchema>,
): Promise<z.output<typeof invoiceFileSchema>> {
  if (!Buffer.isBuffer(bytes) || bytes.length === 0) throw new ApiError('files.required');
  const kind = await pdfKind(bytes);
  if (kind === 'not_pdf') throw new ApiError('files.not_pdf');
  // An invoice's own PDF is sent on with our payment slip page added (issue #11), which needs its
  // pages readable; an encrypted attachment is only stored and handed back, so it may stay one.
  if (kind === 'encrypted' && query.role === 'invoice') throw new ApiError('files.pdf_encrypted');
  const key = randomUUID();
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  // Bytes first, then the row: a failure in between leaves an unreferenced blob, never a row without bytes.
  await store.put(key, bytes);
  const row = await repo.insertFile(db, {
    issuerId: auth.issuerId,
    role: query.role,
    // Served as a PDF, so named as one: a bare name, no path, no device name, `.pdf` at the end.
    filename: normaliseFileName(query.filename, '.pdf'),
    contentType: 'application/pdf',
    size: bytes.length,
    sha256,
    storageKey: key,
    uploadedBy: auth.userId,
  });
  if (!row) throw new ApiError('server.internal');
  return { fileID: row.id, role: row.role, filename: row.filename, size: row.size, sha256: row.sha256 };
}

/** `downloadFile`: the issuer's file with its bytes; another issuer's, or one without bytes, is not found. */
export async function downloadFile(db: Db, store: FileStore, issuerId: string, fileId: string) {
  const row = await repo.findFile(db, issuerId, fileId);
  if (!row) throw new ApiError('files.not_found');
  const bytes = await store.get(row.storageKey);
  if (!bytes) throw new ApiError('files.not_found');
  return { filename: row.filename, contentType: row.contentType, bytes };
}
