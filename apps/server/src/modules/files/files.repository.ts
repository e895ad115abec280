import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { invoiceFiles } from '../../db/schema';

/** The queries of the files module: every read names the issuer, so another issuer's file is never found. */

export type InvoiceFileRow = typeof invoiceFiles.$inferSelect;

export async function insertFile(
  db: Db,
  values: typeof invoiceFiles.$inferInsert,
): Promise<InvoiceFileRow | undefined> {
  const [row] = await db.insert(invoiceFiles).values(values).returning();
  return row;
}

export async function findFile(
  db: Db,
  issuerId: string,
  fileId: string,
): Promise<InvoiceFileRow | undefined> {
  const [row] = await db
    .select()
    .from(invoiceFiles)
    .where(and(eq(invoiceFiles.issuerId, issuerId), eq(invoiceFiles.id, fileId)));
  return row;
}
