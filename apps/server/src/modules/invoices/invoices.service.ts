import {
  INVOICE_EVENT,
  INVOICE_STATE,
  invoiceBodySchema,
  isCompanyRecipient,
  type ListInvoicesQuery,
  type ParsedInvoiceBody,
  type ParsedUploadInvoiceBody,
  type SendInvoicesBody,
  type ServiceType,
  sendDueDateCode,
} from '@portal/contracts';
import { isDueBeforeInvoiceDate } from '@portal/domain/due-date';
import type { AuthContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { isUniqueViolation } from '../../lib/pg-errors';
import { todayIn } from '../../lib/today';
import type { FileStore } from '../../services/file-store';
import { idempotencyKeyOf, once } from '../../services/idempotency';
import { CURRENCIES, loadUser, TAX_RATES } from '../../services/users';
import { loadDetail, summary } from './invoice-detail.repository';
import { freezeInvoiceDocuments } from './invoice-documents.service';
import { listInvoices as listInvoicePage } from './invoice-list.repository';
import {
  computeInvoice,
  nextOcrReference,
  type StoredTotals,
  suggestNextInvoiceNumber,
} from './invoice-math';
import { assertTransition } from './invoice-state';
import { uploadedInvoiceBody, uploadedRowName } from './invoice-upload';
import * as repo from './invoices.repository';
import { sendInvoices as sendPending } from './send-invoices';

/**
 * The invoices module's service: every rule and transaction of registering, changing, deleting and
 * sending an invoice, and what other modules, the import and the demo seed use. Outside this folder,
 * import from this file only (ARCHITECTURE.md "Modules").
 */

export { decideCredit } from './credit-decision';
export { loadDetail, loadDetails, summary } from './invoice-detail.repository';
export { filterWhere, rejectionReason } from './invoice-list.repository';
export { computeInvoice, invoiceTotalCode, suggestNextInvoiceNumber } from './invoice-math';
export type { SendResult } from './send-invoices';

type Headers = Record<string, string | string[] | undefined>;

/** The invoice history page: filters of spec §4, search, dates, sort, keyset pages. */
export function listInvoices(db: Db, issuerId: string, query: ListInvoicesQuery, now: Date) {
  return listInvoicePage(db, issuerId, query, todayIn(now));
}

/** Registered invoices not yet sent, each with the due-date rule's verdict for sending today. */
export async function listPendingInvoices(db: Db, issuerId: string, search: string | undefined, now: Date) {
  const today = todayIn(now);
  const { rows, total } = await repo.listPendingInvoices(db, issuerId, search);
  return {
    items: rows.map((r) => ({
      ...summary(r.invoice, r.recipientName, today, r.rejectionReason),
      sendCode: sendDueDateCode(r.invoice.service as ServiceType, r.invoice.dueDate, today),
    })),
    total,
  };
}

/** A suggested next invoice number: the largest of the latest 1,000 numbers, plus one. */
export async function getNextInvoiceNumber(db: Db, issuerId: string) {
  return { invoiceNumber: suggestNextInvoiceNumber(await repo.listRecentInvoiceNumbers(db, issuerId, 1000)) };
}

export function getInvoice(db: Db, issuerId: string, id: string, now: Date) {
  return loadDetail(db, issuerId, id, todayIn(now));
}

/** Registers an invoice (state pending, event registered; a duplicate keeps its source's number on an event). */
export async function createInvoice(
  db: Db,
  auth: AuthContext,
  body: ParsedInvoiceBody,
  headers: Headers,
  now: Date,
) {
  return registerOnce(db, auth, headers, 'createInvoice', body, now, async (tx) => {
    const id = await writeInvoice(tx, auth.issuerId, body, { existingId: null, now });
    if (!body.duplicatedFromID) return { id };
    // The source must be the caller's own; its number is kept on the event for the timeline.
    const fromInvoiceNumber = await repo.findOwnInvoiceNumber(tx, auth.issuerId, body.duplicatedFromID);
    if (fromInvoiceNumber === null) throw new ApiError('invoices.not_found');
    return { id, more: [userEvent(auth, id, INVOICE_EVENT.duplicated, now, { fromInvoiceNumber })] };
  });
}

/** Registers the customer's own invoice PDF with its facts (docs/INVOICES.md "Register by upload"). */
export async function uploadInvoice(
  db: Db,
  auth: AuthContext,
  upload: ParsedUploadInvoiceBody,
  headers: Headers,
  now: Date,
) {
  const user = await loadUser(db, auth.userId);
  const country = await repo.findIssuerCountry(db, auth.issuerId);
  const input = uploadedInvoiceBody(upload, uploadedRowName(user.language, country));
  return registerOnce(db, auth, headers, 'uploadInvoice', upload, now, async (tx) => {
    // The body built from the upload goes through the register rules (the total's bounds among them).
    const body = invoiceBodySchema.parse(input);
    const id = await writeInvoice(tx, auth.issuerId, body, {
      existingId: null,
      now,
      source: 'upload',
      ownOcr: upload.ocr,
    });
    return { id };
  });
}

/** An event the user records now on one of the issuer's invoices. */
function userEvent(
  who: { issuerId: string; userId: string | null },
  invoiceId: string,
  event: repo.InvoiceEventValues['event'],
  at: Date,
  details?: repo.InvoiceEventValues['details'],
): repo.InvoiceEventValues {
  return {
    invoiceId,
    issuerId: who.issuerId,
    event,
    userId: who.userId,
    at,
    ...(details ? { details } : {}),
  };
}

/**
 * Registers an invoice once per Idempotency-Key (the `operation` with its `request`): `write` stores it
 * in the transaction and gives its id and the events it has beyond `registered`; the answer is its
 * detail. A number or OCR reference the issuer has used already answers its duplicate error.
 */
async function registerOnce(
  db: Db,
  auth: AuthContext,
  headers: Headers,
  operation: 'createInvoice' | 'uploadInvoice',
  request: { invoiceNumber: string },
  now: Date,
  write: (tx: Tx) => Promise<{ id: string; more?: repo.InvoiceEventValues[] }>,
) {
  return once(db, auth.issuerId, idempotencyKeyOf(headers), operation, request, async (tx) => {
    const { id, more = [] } = await write(tx);
    await repo.insertInvoiceEvents(tx, [userEvent(auth, id, INVOICE_EVENT.registered, now), ...more]);
    return loadDetail(tx, auth.issuerId, id, todayIn(now));
  }).catch(duplicateNumber(db, auth.issuerId, request.invoiceNumber));
}

/** Changes an invoice that has not been sent. */
export async function updateInvoice(
  db: Db,
  auth: AuthContext,
  id: string,
  body: ParsedInvoiceBody,
  now: Date,
) {
  const today = todayIn(now);
  return db
    .transaction(async (tx) => {
      const current = await repo.lockOwnInvoice(tx, auth.issuerId, id);
      assertTransition(current.state, 'edit');
      await writeInvoice(tx, auth.issuerId, body, { existingId: current.id, now });
      await repo.insertInvoiceEvents(tx, [userEvent(auth, current.id, INVOICE_EVENT.edited, now)]);
      return loadDetail(tx, auth.issuerId, current.id, today);
    })
    .catch(duplicateNumber(db, auth.issuerId, body.invoiceNumber));
}

/** Deletes an invoice that has not been sent: state deleted, kept for the history. */
export async function deleteInvoice(db: Db, auth: AuthContext, id: string, now: Date): Promise<void> {
  await db.transaction((tx) => deletePendingInvoice(tx, auth, id, now));
}

/** `deleteInvoice` inside the caller's transaction (the demo seed deletes as the customer would). */
export async function deletePendingInvoice(
  tx: Tx,
  who: { issuerId: string; userId: string | null },
  id: string,
  now: Date,
): Promise<void> {
  const current = await repo.lockOwnInvoice(tx, who.issuerId, id);
  assertTransition(current.state, 'delete');
  await repo.setInvoiceState(tx, current.id, INVOICE_STATE.deleted, now);
  await repo.insertInvoiceEvents(tx, [userEvent(who, current.id, INVOICE_EVENT.deleted, now)]);
}

/** Sends pending invoices to us in one transaction (see `send-invoices.ts`); Idempotency-Key makes retries safe. */
export async function sendInvoices(
  db: Db,
  auth: AuthContext,
  body: SendInvoicesBody,
  headers: Headers,
  now: Date,
  files: FileStore,
) {
  const ids = [...new Set(body.invoiceIDs)];
  return once(db, auth.issuerId, idempotencyKeyOf(headers), 'sendInvoices', body, async (tx) => ({
    results: await sendPending(tx, auth, ids, now, files),
  }));
}

/** The send path inside a caller's transaction (the demo seed, later features that send what they register). */
export { sendPending as sendInvoicesInTransaction };

export interface WriteInvoiceOptions {
  /** The invoice to overwrite (an edit), or null for a new one. */
  existingId: string | null;
  /** The app clock's time: created and updated stamps. */
  now: Date;
  source?: 'form' | 'upload' | 'import';
  /** The customer's own OCR reference of a new invoice (register by upload); an edit keeps the stored one. */
  ownOcr?: string | null;
}

/**
 * The one way an invoice is written: checks a parsed body against the issuer's currencies, VAT rates
 * and recipients, then stores the invoice, its totals and rows and ties its files, in the caller's
 * transaction. Create, update, upload, the file import and the demo seed all write through it. The body
 * is the contract's parsed `InvoiceBody` (Fastify or the import has validated it); the rules here are
 * the ones that need the database.
 */
export async function writeInvoice(
  tx: Tx,
  issuerId: string,
  body: ParsedInvoiceBody,
  opts: WriteInvoiceOptions,
): Promise<string> {
  const { existingId, now, source = 'form', ownOcr = null } = opts;
  const country = await repo.findIssuerCountry(tx, issuerId);
  if (!CURRENCIES[country].includes(body.currency))
    throw new ApiError('invoices.invalid_currency', {
      issues: [{ path: 'currency', code: 'invoices.invalid_currency' }],
    });
  const rates = new Set(TAX_RATES[country].map((r) => r.rateBasisPoints));
  body.rows.forEach((row, i) => {
    if (!rates.has(row.vatBasisPoints))
      throw new ApiError('invoices.invalid_vat_rate', {
        issues: [{ path: `rows.${i}.vatBasisPoints`, code: 'invoices.invalid_vat_rate' }],
      });
  });
  if (isDueBeforeInvoiceDate(body.invoiceDate, body.dueDate))
    throw new ApiError('invoices.invalid', {
      issues: [{ path: 'dueDate', code: 'validation.due_before_invoice_date' }],
    });
  const recipient = await repo.findOwnRecipient(tx, issuerId, body.recipientID);
  if (!recipient)
    throw new ApiError('recipient.not_found', {
      issues: [{ path: 'recipientID', code: 'validation.recipient_required' }],
    });
  // ROT and RUT are a private person's tax reduction: never with a company as the buyer (issue #11).
  if (body.rotRut.type !== 'none' && isCompanyRecipient(recipient))
    throw new ApiError('invoices.rot_rut_invalid', {
      issues: [{ path: 'rotRut.type', code: 'validation.rot_rut_private_buyer' }],
    });

  const totals = computeInvoice(body, country);
  if (existingId && body.invoiceFileID)
    await refuseEditedUploadAmounts(tx, issuerId, existingId, body.invoiceFileID, body.currency, totals);
  const values: repo.InvoiceValues = {
    issuerId,
    recipientId: body.recipientID,
    invoiceNumber: body.invoiceNumber.trim(),
    service: body.service,
    currency: body.currency,
    invoiceDate: body.invoiceDate,
    dueDate: body.dueDate,
    orderReference: body.orderReference,
    issuerContact: body.issuerContact,
    recipientContact: body.recipientContact,
    netMinor: totals.netMinor,
    vatMinor: totals.vatMinor,
    grossMinor: totals.grossMinor,
    deductionMinor: totals.deductionMinor,
    toPayMinor: totals.toPayMinor,
    remainingMinor: totals.toPayMinor,
    rotRut: body.rotRut,
    vatLines: totals.vatLines,
    source: body.invoiceFileID ? 'upload' : source,
  };
  let invoiceId: string;
  if (existingId) {
    await repo.updateInvoice(tx, existingId, values, now);
    invoiceId = existingId;
  } else {
    invoiceId = await repo.insertInvoice(tx, values, ownOcr, now);
  }
  await attachFiles(tx, issuerId, invoiceId, body.attachmentIDs, body.invoiceFileID);
  await repo.replaceInvoiceRows(
    tx,
    invoiceId,
    body.rows.map((r, position) => ({
      position,
      articleNumber: r.articleNumber,
      name: r.name,
      description: r.description,
      quantityMilli: r.quantityMilli,
      unit: r.unit,
      unitPriceMinor: r.unitPriceMinor,
      vatBasisPoints: r.vatBasisPoints,
      rotRut: r.rotRut,
      netMinor: totals.rowNetMinor[position] ?? 0,
    })),
  );
  return invoiceId;
}

/**
 * An invoice we issue ourselves (an installment plan's, issue #14): written through `writeInvoice`, then
 * sent at once to the buyer, not paid (2), with its own OCR reference, in the caller's transaction.
 * It skips the queue and the credit decision because the plan was already decided; the caller books
 * it (it does not go through the ordinary recognise journal). The timeline says registered, sent and
 * distributed, with `details` on the sending. Its document is drawn and stored (frozen) as it is
 * sent, like every sent invoice's: what every download returns. It is always our drawing, never an
 * uploaded PDF, so no file store is read.
 */
export async function issueInvoice(
  tx: Tx,
  issuerId: string,
  body: ParsedInvoiceBody,
  now: Date,
  details: Record<string, string | number>,
): Promise<{ id: string; ocr: string }> {
  if (body.invoiceFileID) throw new Error('an invoice we issue is our own drawing, not an uploaded PDF');
  const id = await writeInvoice(tx, issuerId, body, { existingId: null, now });
  const ocr = await nextOcrReference(tx, issuerId);
  await repo.markIssued(tx, id, ocr, now);
  await repo.insertInvoiceEvents(
    tx,
    [INVOICE_EVENT.registered, INVOICE_EVENT.sent, INVOICE_EVENT.distributed].map((event) => ({
      invoiceId: id,
      issuerId,
      event,
      at: now,
      details: event === INVOICE_EVENT.sent ? { ...details, ocr } : {},
    })),
  );
  await freezeInvoiceDocuments(tx, null, issuerId, [id], todayIn(now));
  return { id, ocr };
}

/**
 * An invoice registered by upload is sent as the customer's own PDF (issue #11): its currency and
 * amounts (net and VAT per rate, total, deduction) are what that PDF states, so an edit that keeps the
 * same PDF cannot change them; a new PDF (another `invoiceFileID`) may bring new amounts.
 */
async function refuseEditedUploadAmounts(
  tx: Tx,
  issuerId: string,
  invoiceId: string,
  invoiceFileID: string,
  currency: string,
  totals: StoredTotals,
): Promise<void> {
  const current = await repo.findUploadedAmounts(tx, issuerId, invoiceId, invoiceFileID);
  if (!current) return;
  const amountsOf = (lines: readonly { vatBasisPoints: number; netMinor: number; vatMinor: number }[]) =>
    JSON.stringify(
      [...lines]
        .sort((a, b) => a.vatBasisPoints - b.vatBasisPoints)
        .map((l) => [l.vatBasisPoints, l.netMinor, l.vatMinor]),
    );
  const same =
    current.currency === currency &&
    current.grossMinor === totals.grossMinor &&
    current.deductionMinor === totals.deductionMinor &&
    amountsOf(current.vatLines) === amountsOf(totals.vatLines);
  if (!same)
    throw new ApiError('invoices.uploaded_amounts_locked', {
      issues: [{ path: 'rows', code: 'invoices.uploaded_amounts_locked' }],
    });
}

/**
 * Ties uploaded files to the invoice: each must be the issuer's and not another invoice's. Files the
 * body no longer names are released (an edit may drop an attachment).
 */
async function attachFiles(
  tx: Tx,
  issuerId: string,
  invoiceId: string,
  attachmentIDs: string[],
  invoiceFileID: string | null,
): Promise<void> {
  const wanted = [...new Set([...attachmentIDs, ...(invoiceFileID ? [invoiceFileID] : [])])];
  const usable = await repo.releaseAndLockFiles(tx, issuerId, invoiceId, wanted);
  if (wanted.length === 0) return;
  const free = new Map(usable.filter((f) => f.invoiceId === null).map((f) => [f.id, f.role]));
  // The invoice's own PDF must have been uploaded as one (role `invoice`), by this issuer; another
  // issuer's file is not found, exactly as a file that does not exist.
  if (invoiceFileID && free.get(invoiceFileID) !== 'invoice')
    throw new ApiError('files.not_found', { issues: [{ path: 'invoiceFileID', code: 'files.not_found' }] });
  if (attachmentIDs.some((id) => !free.has(id)))
    throw new ApiError('files.not_found', { issues: [{ path: 'attachmentIDs', code: 'files.not_found' }] });
  await repo.tieFiles(tx, issuerId, invoiceId, wanted);
}

/**
 * What a write's failure throws: a unique-number violation becomes the spec's duplicate error with the
 * existing invoice's facts (an OCR one, its own error); any other error is thrown as it is.
 */
function duplicateNumber(db: Db, issuerId: string, invoiceNumber: string) {
  return async (err: unknown): Promise<never> => {
    throw await duplicateNumberError(db, issuerId, invoiceNumber, err);
  };
}

async function duplicateNumberError(
  db: Db,
  issuerId: string,
  invoiceNumber: string,
  err: unknown,
): Promise<unknown> {
  if (isUniqueViolation(err, 'invoices_issuer_ocr_idx'))
    return new ApiError('invoices.duplicate_ocr', {
      issues: [{ path: 'ocr', code: 'invoices.duplicate_ocr' }],
    });
  if (!isUniqueViolation(err)) return err;
  const existing = await repo.findByInvoiceNumber(db, issuerId, invoiceNumber.trim());
  if (!existing) return err;
  return new ApiError('invoices.duplicate_number', {
    issues: [{ path: 'invoiceNumber', code: 'invoices.duplicate_number' }],
    details: { ...existing },
  });
}
