import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { firstOrNull } from '../../db/first-row';
import { invoiceDocuments, invoiceFiles, issuers, recipients } from '../../db/schema';

export type InvoiceDocumentRow = typeof invoiceDocuments.$inferSelect;
export type NewInvoiceDocument = typeof invoiceDocuments.$inferInsert;

/** The frozen documents of the issuer's invoices among `invoiceIds`, by invoice id. */
export async function findInvoiceDocuments(
  db: Db | Tx,
  issuerId: string,
  invoiceIds: readonly string[],
): Promise<Map<string, InvoiceDocumentRow>> {
  if (invoiceIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(invoiceDocuments)
    .where(
      and(eq(invoiceDocuments.issuerId, issuerId), inArray(invoiceDocuments.invoiceId, [...invoiceIds])),
    );
  return new Map(rows.map((row) => [row.invoiceId, row]));
}

/** Stores frozen documents; an invoice that already has one keeps it (a document never changes). */
export async function insertInvoiceDocuments(tx: Tx, rows: readonly NewInvoiceDocument[]): Promise<void> {
  if (rows.length === 0) return;
  await tx
    .insert(invoiceDocuments)
    .values([...rows])
    .onConflictDoNothing({ target: invoiceDocuments.invoiceId });
}

/** The issuer row a document is drawn for. */
export async function findIssuer(db: Db | Tx, issuerId: string) {
  return firstOrNull(db.select().from(issuers).where(eq(issuers.id, issuerId)));
}

/** The issuer's recipients among `ids`, by id. */
export async function findRecipients(db: Db | Tx, issuerId: string, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, typeof recipients.$inferSelect>();
  const rows = await db
    .select()
    .from(recipients)
    .where(and(eq(recipients.issuerId, issuerId), inArray(recipients.id, [...new Set(ids)])));
  return new Map(rows.map((row) => [row.id, row]));
}

/** The storage keys of the customers' own invoice PDFs (role `invoice`) of these invoices, by invoice id. */
export async function findUploadedInvoiceFiles(
  db: Db | Tx,
  issuerId: string,
  invoiceIds: readonly string[],
): Promise<Map<string, { storageKey: string; sha256: string }>> {
  if (invoiceIds.length === 0) return new Map();
  const rows = await db
    .select({
      invoiceId: invoiceFiles.invoiceId,
      storageKey: invoiceFiles.storageKey,
      sha256: invoiceFiles.sha256,
    })
    .from(invoiceFiles)
    .where(
      and(
        eq(invoiceFiles.issuerId, issuerId),
        eq(invoiceFiles.role, 'invoice'),
        inArray(invoiceFiles.invoiceId, [...invoiceIds]),
      ),
    );
  const byInvoice = new Map<string, { storageKey: string; sha256: string }>();
  for (const row of rows) if (row.invoiceId) byInvoice.set(row.invoiceId, row);
  return byInvoice;
}

/**
 * The bytes the documents of these invoices come to, without reading them: the stored documents'
 * sizes, and for an invoice without one the size of its uploaded PDF (a drawn document is a few kB).
 */
export async function documentBytes(
  db: Db | Tx,
  issuerId: string,
  invoiceIds: readonly string[],
): Promise<number> {
  if (invoiceIds.length === 0) return 0;
  const ids = [...invoiceIds];
  const [stored] = await db
    .select({ bytes: sql<string>`coalesce(sum(${invoiceDocuments.size}), 0)` })
    .from(invoiceDocuments)
    .where(and(eq(invoiceDocuments.issuerId, issuerId), inArray(invoiceDocuments.invoiceId, ids)));
  const [uploaded] = await db
    .select({ bytes: sql<string>`coalesce(sum(${invoiceFiles.size}), 0)` })
    .from(invoiceFiles)
    .leftJoin(invoiceDocuments, eq(invoiceDocuments.invoiceId, invoiceFiles.invoiceId))
    .where(
      and(
        eq(invoiceFiles.issuerId, issuerId),
        eq(invoiceFiles.role, 'invoice'),
        inArray(invoiceFiles.invoiceId, ids),
        isNull(invoiceDocuments.invoiceId),
      ),
    );
  return Number(stored?.bytes ?? 0) + Number(uploaded?.bytes ?? 0);
}
