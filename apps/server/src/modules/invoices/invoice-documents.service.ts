import { createHash } from 'node:crypto';
import { documentLanguageOf, type InvoiceDetail, type Language } from '@portal/contracts';
import { PDFDocument } from 'pdf-lib';
import type { Db, Tx } from '../../db/client';
import { ApiError } from '../../lib/errors';
import type { FileStore } from '../../services/file-store';
import { type InvoiceIssuer, renderInvoicePdf, renderPaymentSlipPdf } from '../../services/invoice-pdf';
import { toIssuer } from '../../services/users';
import { toRecipient } from '../recipients/recipients.service';
import { loadDetails } from './invoice-detail.repository';
import {
  documentBytes,
  findInvoiceDocuments,
  findIssuer,
  findRecipients,
  findUploadedInvoiceFiles,
  insertInvoiceDocuments,
  type NewInvoiceDocument,
} from './invoice-documents.repository';

/**
 * An invoice's document (issue #11, docs/INVOICES.md "Invoice documents"): what the recipient gets.
 * Our drawing of the invoice, or, for an invoice registered by upload, the customer's own PDF with our
 * payment slip page after it. At sending it is drawn once and stored (frozen); every later download
 * returns those bytes. Before sending, a download draws it from the invoice as it is now (a preview).
 * The language is the recipient's document language, never the language of whoever downloads.
 */

/**
 * The most bytes of documents one download gathers: 200 drawn invoices are about 1 MB, but uploaded
 * PDFs may be 10 MB each, and a bundle is built in memory.
 */
export const DOCUMENTS_MAX_BYTES = 50 * 1024 * 1024;

/** One drawn or stored document. */
export interface InvoiceDocument {
  invoiceID: string;
  invoiceNumber: string;
  bytes: Uint8Array;
  /** Whether these are the bytes stored at sending. */
  frozen: boolean;
}

interface Drawn {
  kind: 'generated' | 'uploaded';
  language: Language;
  bytes: Uint8Array;
}

/** The issuer as its documents show it. */
async function documentIssuer(db: Db | Tx, issuerId: string): Promise<InvoiceIssuer & { id: string }> {
  const row = await findIssuer(db, issuerId);
  if (!row) throw new ApiError('invoices.not_found');
  return { ...toIssuer(row), collectionBankgiro: row.collectionBankgiro, id: issuerId };
}

/**
 * Draws the documents of the issuer's invoices `ids` as they are now, in the order of `ids`. An
 * invoice with an uploaded PDF of its own is that PDF's pages followed by our payment slip page; its
 * PDF is read from `files` (null only where no invoice can have one: those we issue ourselves).
 */
async function drawDocuments(
  db: Db | Tx,
  files: FileStore | null,
  issuer: InvoiceIssuer & { id: string },
  details: readonly InvoiceDetail[],
): Promise<Drawn[]> {
  const issuerId = issuer.id;
  const ids = details.map((d) => d.invoiceID);
  const [recipientRows, uploads] = await Promise.all([
    findRecipients(
      db,
      issuerId,
      details.map((d) => d.recipientID),
    ),
    findUploadedInvoiceFiles(db, issuerId, ids),
  ]);
  const drawn: Drawn[] = [];
  for (const detail of details) {
    const row = recipientRows.get(detail.recipientID);
    if (!row) throw new ApiError('invoices.not_found');
    const recipient = toRecipient(row);
    const language = documentLanguageOf(recipient);
    const upload = uploads.get(detail.invoiceID);
    if (!upload) {
      drawn.push({
        kind: 'generated',
        language,
        bytes: await renderInvoicePdf(detail, issuer, recipient),
      });
      continue;
    }
    if (!files) throw new Error(`invoice ${detail.invoiceID}: its uploaded PDF needs the file store`);
    const own = await (files.through?.(db) ?? files).get(upload.storageKey);
    if (!own) throw new ApiError('files.not_found');
    const slip = await renderPaymentSlipPdf(detail, issuer, recipient, language);
    drawn.push({ kind: 'uploaded', language, bytes: await appendPages(own, slip, detail) });
  }
  return drawn;
}

/**
 * The customer's PDF with the pages of `slip` after its own: the customer's pages are copied as they
 * are (content, fonts, images); the document is dated by the invoice date so the same input gives the
 * same bytes.
 */
async function appendPages(own: Uint8Array, slip: Uint8Array, detail: InvoiceDetail): Promise<Uint8Array> {
  const doc = await PDFDocument.load(own, { updateMetadata: false });
  const slipDoc = await PDFDocument.load(slip);
  for (const page of await doc.copyPages(slipDoc, slipDoc.getPageIndices())) doc.addPage(page);
  const dated = new Date(`${detail.invoiceDate}T12:00:00Z`);
  doc.setModificationDate(dated);
  return doc.save();
}

/**
 * Draws and stores the documents of invoices just sent, in the send's transaction: they are what the
 * recipient gets and what every later download returns. An invoice that already has a document keeps
 * it. `ids` must be the issuer's. `files` holds the customers' own PDFs of uploaded invoices; an
 * invoice we issue ourselves (an installment plan's) has none, and its caller passes null.
 */
export async function freezeInvoiceDocuments(
  tx: Tx,
  files: FileStore | null,
  issuerId: string,
  ids: readonly string[],
  today: string,
): Promise<void> {
  if (ids.length === 0) return;
  const details = await loadDetails(tx, issuerId, ids, today);
  const issuer = await documentIssuer(tx, issuerId);
  // One invoice at a time: a send of 500 invoices with uploaded PDFs of 10 MB each never holds more
  // than one document in memory.
  for (const detail of details) {
    const [doc] = await drawDocuments(tx, files, issuer, [detail]);
    if (!doc) continue;
    const row: NewInvoiceDocument = {
      invoiceId: detail.invoiceID,
      issuerId,
      kind: doc.kind,
      language: doc.language,
      sha256: createHash('sha256').update(doc.bytes).digest('hex'),
      size: doc.bytes.length,
      data: Buffer.from(doc.bytes),
    };
    await insertInvoiceDocuments(tx, [row]);
  }
}

/**
 * The documents of the issuer's invoices `ids` in that order: the stored bytes of each sent invoice,
 * drawn now for the others. Any id not the issuer's answers `invoices.not_found` for all.
 */
export async function invoiceDocuments(
  db: Db,
  files: FileStore,
  issuerId: string,
  ids: readonly string[],
  today: string,
): Promise<InvoiceDocument[]> {
  const details = await loadDetails(db, issuerId, ids, today);
  // Refused before a byte is read: the same answer as too many invoices ("use a date range").
  if ((await documentBytes(db, issuerId, ids)) > DOCUMENTS_MAX_BYTES)
    throw new ApiError('invoices.too_many_records');
  const stored = await findInvoiceDocuments(db, issuerId, ids);
  const toDraw = details.filter((d) => !stored.has(d.invoiceID));
  const drawn =
    toDraw.length === 0 ? [] : await drawDocuments(db, files, await documentIssuer(db, issuerId), toDraw);
  const drawnById = new Map(toDraw.map((d, i) => [d.invoiceID, (drawn[i] as Drawn).bytes]));
  return details.map((detail) => {
    const frozen = stored.get(detail.invoiceID);
    return {
      invoiceID: detail.invoiceID,
      invoiceNumber: detail.invoiceNumber,
      bytes: frozen ? new Uint8Array(frozen.data) : (drawnById.get(detail.invoiceID) as Uint8Array),
      frozen: frozen !== undefined,
    };
  });
}

/**
 * One PDF of several documents in the given order, each document's pages exactly as its own PDF has
 * them (a frozen document's pages are copied, not drawn again). Dated by the latest invoice date.
 */
export async function joinDocuments(
  documents: readonly InvoiceDocument[],
  title: string,
): Promise<Uint8Array> {
  const [only] = documents;
  if (documents.length === 1 && only) return only.bytes;
  const joined = await PDFDocument.create({ updateMetadata: false });
  joined.setTitle(title);
  for (const document of documents) {
    const source = await PDFDocument.load(document.bytes, { updateMetadata: false });
    for (const page of await joined.copyPages(source, source.getPageIndices())) joined.addPage(page);
  }
  return joined.save();
}
