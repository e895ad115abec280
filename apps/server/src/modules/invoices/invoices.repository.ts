import { INVOICE_STATE, PENDING_LIST_LIMIT } from '@portal/contracts';
import { and, asc, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { firstOrNull } from '../../db/first-row';
import { lockOwnById } from '../../db/locks';
import { invoiceEvents, invoiceFiles, invoiceRows, invoices, issuers, recipients } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import type { InvoiceRow } from './invoice-detail.repository';
import { rejectionReason, searchWhere } from './invoice-list.repository';

/** The queries of the invoices module's writes and small reads; the list and the detail have their own files. */

export type InvoiceValues = Omit<
  typeof invoices.$inferInsert,
  'id' | 'state' | 'ocr' | 'createdAt' | 'updatedAt'
>;
export type InvoiceRowValues = Omit<typeof invoiceRows.$inferInsert, 'invoiceId'>;
export type InvoiceEventValues = typeof invoiceEvents.$inferInsert;

export async function findIssuerCountry(db: Db | Tx, issuerId: string): Promise<'SE' | 'FI'> {
  const [issuer] = await db
    .select({ country: issuers.country })
    .from(issuers)
    .where(eq(issuers.id, issuerId));
  if (!issuer) throw new ApiError('server.internal');
  return issuer.country;
}

export async function findOwnRecipient(tx: Tx, issuerId: string, recipientId: string) {
  return firstOrNull(
    tx
      .select({ id: recipients.id, organizationNumber: recipients.organizationNumber, vat: recipients.vat })
      .from(recipients)
      .where(and(eq(recipients.issuerId, issuerId), eq(recipients.id, recipientId))),
  );
}

/** The issuer's invoice, locked for the rest of the transaction; another issuer's is not found. */
export function lockOwnInvoice(tx: Tx, issuerId: string, id: string): Promise<InvoiceRow> {
  return lockOwnById(tx, invoices, issuerId, id, 'invoices.not_found');
}

export async function insertInvoice(
  tx: Tx,
  values: InvoiceValues,
  ocr: string | null,
  now: Date,
): Promise<string> {
  const [row] = await tx
    .insert(invoices)
    .values({ ...values, state: INVOICE_STATE.pending, ocr, createdAt: now, updatedAt: now })
    .returning({ id: invoices.id });
  if (!row) throw new ApiError('server.internal');
  return row.id;
}

export async function updateInvoice(tx: Tx, id: string, values: InvoiceValues, now: Date): Promise<void> {
  await tx
    .update(invoices)
    .set({ ...values, updatedAt: now })
    .where(and(eq(invoices.issuerId, values.issuerId), eq(invoices.id, id)));
}

/** Replaces the invoice's rows: an edit writes them all again, in the body's order. */
export async function replaceInvoiceRows(tx: Tx, invoiceId: string, rows: InvoiceRowValues[]): Promise<void> {
  await tx.delete(invoiceRows).where(eq(invoiceRows.invoiceId, invoiceId));
  if (rows.length > 0) await tx.insert(invoiceRows).values(rows.map((r) => ({ ...r, invoiceId })));
}

export async function setInvoiceState(tx: Tx, id: string, state: number, now: Date): Promise<void> {
  await tx.update(invoices).set({ state, updatedAt: now }).where(eq(invoices.id, id));
}

export async function insertInvoiceEvents(tx: Tx, events: InvoiceEventValues[]): Promise<void> {
  if (events.length > 0) await tx.insert(invoiceEvents).values(events);
}

export async function findOwnInvoiceNumber(tx: Tx, issuerId: string, id: string): Promise<string | null> {
  const [from] = await tx
    .select({ number: invoices.invoiceNumber })
    .from(invoices)
    .where(and(eq(invoices.issuerId, issuerId), eq(invoices.id, id)));
  return from?.number ?? null;
}

/** The amounts stored with the invoice while its own PDF (`invoiceFileID`) is attached, or null. */
export async function findUploadedAmounts(
  tx: Tx,
  issuerId: string,
  invoiceId: string,
  invoiceFileID: string,
) {
  return firstOrNull(
    tx
      .select({
        currency: invoices.currency,
        vatLines: invoices.vatLines,
        grossMinor: invoices.grossMinor,
        deductionMinor: invoices.deductionMinor,
      })
      .from(invoices)
      .innerJoin(
        invoiceFiles,
        and(
          eq(invoiceFiles.invoiceId, invoices.id),
          eq(invoiceFiles.id, invoiceFileID),
          eq(invoiceFiles.role, 'invoice'),
        ),
      )
      .where(and(eq(invoices.issuerId, issuerId), eq(invoices.id, invoiceId))),
  );
}

/** Lets go of the files the invoice holds, then locks the issuer's files of `wanted` (the free ones can be tied). */
export async function releaseAndLockFiles(tx: Tx, issuerId: string, invoiceId: string, wanted: string[]) {
  await tx
    .update(invoiceFiles)
    .set({ invoiceId: null })
    .where(and(eq(invoiceFiles.issuerId, issuerId), eq(invoiceFiles.invoiceId, invoiceId)));
  if (wanted.length === 0) return [];
  return tx
    .select({ id: invoiceFiles.id, invoiceId: invoiceFiles.invoiceId, role: invoiceFiles.role })
    .from(invoiceFiles)
    .where(and(eq(invoiceFiles.issuerId, issuerId), inArray(invoiceFiles.id, wanted)))
    .for('update');
}

export async function tieFiles(tx: Tx, issuerId: string, invoiceId: string, ids: string[]): Promise<void> {
  await tx
    .update(invoiceFiles)
    .set({ invoiceId })
    .where(and(eq(invoiceFiles.issuerId, issuerId), inArray(invoiceFiles.id, ids)));
}

/** The facts of the issuer's invoice with this number, shown with the duplicate-number error. */
export async function findByInvoiceNumber(db: Db, issuerId: string, invoiceNumber: string) {
  return firstOrNull(
    db
      .select({
        grossMinor: invoices.grossMinor,
        currency: invoices.currency,
        invoiceDate: invoices.invoiceDate,
        recipientName: recipients.name,
      })
      .from(invoices)
      .innerJoin(recipients, eq(recipients.id, invoices.recipientId))
      .where(and(eq(invoices.issuerId, issuerId), eq(invoices.invoiceNumber, invoiceNumber))),
  );
}

/** Pending invoices (registered, not sent), oldest first, at most `PENDING_LIST_LIMIT`, with their count. */
export async function listPendingInvoices(db: Db, issuerId: string, search: string | undefined) {
  const filters: (SQL | undefined)[] = [
    eq(invoices.issuerId, issuerId),
    eq(invoices.state, INVOICE_STATE.pending),
  ];
  if (search) filters.push(searchWhere(db, issuerId, search));
  const where = and(...filters);
  const [rows, [total]] = await Promise.all([
    db
      .select({ invoice: invoices, recipientName: recipients.name, rejectionReason })
      .from(invoices)
      .innerJoin(recipients, eq(recipients.id, invoices.recipientId))
      .where(where)
      .orderBy(asc(invoices.invoiceDate), asc(invoices.invoiceNumber))
      .limit(PENDING_LIST_LIMIT),
    db.select({ n: count() }).from(invoices).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** The issuer's invoice numbers, newest first (at most `limit`). */
export async function listRecentInvoiceNumbers(db: Db, issuerId: string, limit: number): Promise<string[]> {
  const rows = await db
    .select({ n: invoices.invoiceNumber })
    .from(invoices)
    .where(eq(invoices.issuerId, issuerId))
    .orderBy(desc(invoices.createdAt))
    .limit(limit);
  return rows.map((r) => r.n);
}

/** A new invoice sent at once, not paid (2), with its OCR reference (an invoice we issue ourselves). */
export async function markIssued(tx: Tx, id: string, ocr: string, now: Date): Promise<void> {
  await tx
    .update(invoices)
    .set({ state: INVOICE_STATE.notPaid, ocr, sentAt: now, updatedAt: now })
    .where(eq(invoices.id, id));
}
