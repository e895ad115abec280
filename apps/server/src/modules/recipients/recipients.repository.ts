import type { ListRecipientsQuery, Recipient } from '@portal/contracts';
import { and, count, eq, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { pageOfRows } from '../../db/paging';
import { articles, invoices, partyNumberKeySql, recipients } from '../../db/schema';
import { pageOrder, searchAny } from '../../lib/sql-search';

/** The queries of the recipients module; each takes the database or a transaction, the issuer first. */

type RecipientRow = typeof recipients.$inferSelect;
/** The columns a recipient is written with (the issuer on insert only). */
export type RecipientValues = Omit<
  typeof recipients.$inferInsert,
  'id' | 'issuerId' | 'createdAt' | 'updatedAt'
>;

/** A recipient row as the API answers it. */
export function toRecipient(r: RecipientRow): Recipient {
  return {
    recipientID: r.id,
    name: r.name,
    address: r.address,
    address2: r.address2,
    zipcode: r.zipcode,
    city: r.city,
    country: r.country,
    email: r.email,
    phone: r.phone,
    organizationNumber: r.organizationNumber,
    vat: r.vat,
    documentLanguage: r.documentLanguage,
    updated: r.updatedAt.toISOString(),
  };
}

const SORT_COLUMNS = {
  name: recipients.name,
  city: recipients.city,
  organizationNumber: recipients.organizationNumber,
  updated: recipients.updatedAt,
} as const;

const own = (issuerId: string, id: string) => and(eq(recipients.issuerId, issuerId), eq(recipients.id, id));

/** One page of the issuer's recipients and how many match in all. */
export async function listRecipients(db: Db, issuerId: string, q: ListRecipientsQuery) {
  const where = and(
    eq(recipients.issuerId, issuerId),
    searchAny(q.search, [recipients.name, recipients.organizationNumber, recipients.city, recipients.email]),
  );
  const order = pageOrder(SORT_COLUMNS[q.sort], q.order, recipients.id);
  const { rows, total } = await pageOfRows(db, recipients, where, order, q);
  return { items: rows.map(toRecipient), total };
}

export async function findRecipient(db: Db, issuerId: string, id: string): Promise<RecipientRow | undefined> {
  const [row] = await db.select().from(recipients).where(own(issuerId, id)).limit(1);
  return row;
}

/** Another recipient of the issuer (not `self`) whose party number has the key, if any. */
export async function recipientWithPartyNumber(db: Db, issuerId: string, key: string, self: string | null) {
  const [taken] = await db
    .select({ id: recipients.id, name: recipients.name, number: recipients.organizationNumber })
    .from(recipients)
    .where(
      and(
        eq(recipients.issuerId, issuerId),
        sql`${partyNumberKeySql(recipients.organizationNumber)} = ${key}`,
        self === null ? undefined : ne(recipients.id, self),
      ),
    )
    .limit(1);
  return taken;
}

export async function insertRecipient(db: Db, issuerId: string, values: RecipientValues) {
  const [row] = await db
    .insert(recipients)
    .values({ ...values, issuerId })
    .returning();
  return row;
}

/** The changed row; undefined when the issuer has no such recipient. */
export async function updateRecipient(
  db: Db,
  issuerId: string,
  id: string,
  values: RecipientValues,
  now: Date,
) {
  const [row] = await db
    .update(recipients)
    .set({ ...values, updatedAt: now })
    .where(own(issuerId, id))
    .returning();
  return row;
}

/** Locks the issuer's recipient for its removal; false when there is none. */
export async function lockRecipient(tx: Tx, issuerId: string, id: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: recipients.id })
    .from(recipients)
    .where(own(issuerId, id))
    .for('update');
  return row !== undefined;
}

/** Whether an article or an invoice of the issuer names the recipient. */
export async function recipientInUse(tx: Tx, issuerId: string, id: string): Promise<boolean> {
  const [used] = await tx
    .select({ n: count() })
    .from(articles)
    .where(and(eq(articles.issuerId, issuerId), eq(articles.recipientId, id)));
  const [invoiced] = await tx
    .select({ n: count() })
    .from(invoices)
    .where(and(eq(invoices.issuerId, issuerId), eq(invoices.recipientId, id)));
  return (used?.n ?? 0) > 0 || (invoiced?.n ?? 0) > 0;
}

export async function deleteRecipient(tx: Tx, issuerId: string, id: string): Promise<void> {
  await tx.delete(recipients).where(own(issuerId, id));
}
