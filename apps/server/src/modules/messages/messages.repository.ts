import { COUNTED_MESSAGE_TYPE, INVOICE_EVENT, type listMessagesQuerySchema } from '@portal/contracts';
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { pageOfRows } from '../../db/paging';
import { invoiceEvents, invoices, messages } from '../../db/schema';
import { unreadFor } from '../../services/notices';

/** The queries of the messages module: every read and write names the issuer. */

export type MessageRow = typeof messages.$inferSelect;

/**
 * One page of the issuer's messages (or one invoice's thread), newest first, with the total and the
 * unread count among what is listed: all of the issuer's messages (the header's count) or one thread.
 */
export async function listMessages(
  db: Db,
  issuerId: string,
  userId: string,
  q: z.output<typeof listMessagesQuerySchema>,
) {
  const filters: (SQL | undefined)[] = [eq(messages.issuerId, issuerId)];
  if (q.invoiceID) filters.push(eq(messages.invoiceId, q.invoiceID));
  if (q.unreadOnly === 'true') filters.push(unreadFor(userId));
  const where = and(...filters);
  const counted = and(
    eq(messages.issuerId, issuerId),
    q.invoiceID ? eq(messages.invoiceId, q.invoiceID) : undefined,
    unreadFor(userId),
  );
  const [{ rows, total }, [unread]] = await Promise.all([
    pageOfRows(db, messages, where, [desc(messages.date), desc(messages.id)], q),
    db.select({ n: count() }).from(messages).where(counted),
  ]);
  return { rows, total, unread: unread?.n ?? 0 };
}

/** The number of the issuer's invoice `invoiceId`; null when the issuer has no such invoice. */
export async function invoiceNumberOf(tx: Tx, issuerId: string, invoiceId: string): Promise<string | null> {
  const [inv] = await tx
    .select({ number: invoices.invoiceNumber })
    .from(invoices)
    .where(and(eq(invoices.issuerId, issuerId), eq(invoices.id, invoiceId)));
  return inv ? inv.number : null;
}

/** A message the user wrote (read by its author), stored as type '4'. */
export async function insertUserMessage(
  tx: Tx,
  values: {
    issuerId: string;
    authorUserId: string;
    author: string;
    invoiceId: string | null;
    invoiceNumber: string | null;
    title: string;
    text: string;
    date: Date;
  },
): Promise<MessageRow | undefined> {
  const [row] = await tx
    .insert(messages)
    .values({ ...values, messageType: COUNTED_MESSAGE_TYPE, read: true })
    .returning();
  return row;
}

/** The `message` event in an invoice's timeline. */
export async function insertMessageEvent(
  tx: Tx,
  values: { invoiceId: string; issuerId: string; userId: string; at: Date },
): Promise<void> {
  await tx.insert(invoiceEvents).values({ ...values, event: INVOICE_EVENT.message });
}

/** Marks the issuer's message read; false when the issuer has no such message. */
export async function markMessageRead(db: Db, issuerId: string, messageId: string): Promise<boolean> {
  const updated = await db
    .update(messages)
    .set({ read: true })
    .where(and(eq(messages.issuerId, issuerId), eq(messages.id, messageId)))
    .returning({ id: messages.id });
  return updated.length > 0;
}
