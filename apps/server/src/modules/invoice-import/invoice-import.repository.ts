import { INVOICE_EVENT } from '@portal/contracts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { invoiceEvents, invoices, issuers, recipients } from '../../db/schema';

/** The queries of the invoice import: what a file is checked against, and the events of what it registered. */

export async function issuerCountry(db: Db | Tx, issuerId: string) {
  const [issuer] = await db
    .select({ country: issuers.country })
    .from(issuers)
    .where(eq(issuers.id, issuerId));
  return issuer?.country;
}

/** The issuer's recipients: id, name and organisation number. */
export function recipientsOf(db: Db | Tx, issuerId: string) {
  return db
    .select({ id: recipients.id, name: recipients.name, org: recipients.organizationNumber })
    .from(recipients)
    .where(eq(recipients.issuerId, issuerId));
}

/** Every invoice number the issuer has used. */
export async function invoiceNumbersOf(db: Db | Tx, issuerId: string): Promise<string[]> {
  const rows = await db
    .select({ n: invoices.invoiceNumber })
    .from(invoices)
    .where(eq(invoices.issuerId, issuerId));
  return rows.map((r) => r.n);
}

/** The issuer's first recipient by name, if any. */
export async function firstRecipient(db: Db, issuerId: string) {
  const [recipient] = await db
    .select({ org: recipients.organizationNumber, name: recipients.name })
    .from(recipients)
    .where(eq(recipients.issuerId, issuerId))
    .orderBy(asc(recipients.name))
    .limit(1);
  return recipient;
}

/** The `registered` event of each imported invoice. */
export async function insertRegisteredEvents(
  tx: Tx,
  issuerId: string,
  userId: string,
  invoiceIds: string[],
  at: Date,
): Promise<void> {
  await tx.insert(invoiceEvents).values(
    invoiceIds.map((invoiceId) => ({
      invoiceId,
      issuerId,
      event: INVOICE_EVENT.registered,
      userId,
      at,
      details: { source: 'import' },
    })),
  );
}

/** How many of `invoiceIds` the issuer has. */
export async function countStored(tx: Tx, issuerId: string, invoiceIds: string[]): Promise<number> {
  const stored = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.issuerId, issuerId), inArray(invoices.id, invoiceIds)));
  return stored.length;
}
