import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import {
  fortnoxAuthorizations,
  fortnoxConnections,
  fortnoxInvoices,
  fortnoxPaymentOutbox,
  invoiceFiles,
  invoices,
  issuers,
  recipients,
  userAbilities,
  users,
} from '../../db/schema';

export type ConnectionRow = typeof fortnoxConnections.$inferSelect;
export type OutboxRow = typeof fortnoxPaymentOutbox.$inferSelect;

/** The user's Fortnox setting (spec §2 `fortnoxSetting`): null when the user has none. */
export async function findUserSetting(db: Db | Tx, userId: string): Promise<boolean | null> {
  const [row] = await db.select({ active: users.fortnoxActive }).from(users).where(eq(users.id, userId));
  return row?.active ?? null;
}

export async function findIssuer(db: Db | Tx, issuerId: string) {
  const [row] = await db
    .select({ name: issuers.name, organizationNo: issuers.organizationNo, country: issuers.country })
    .from(issuers)
    .where(eq(issuers.id, issuerId));
  return row ?? null;
}

export async function findConnection(db: Db | Tx, issuerId: string): Promise<ConnectionRow | null> {
  const [row] = await db.select().from(fortnoxConnections).where(eq(fortnoxConnections.issuerId, issuerId));
  return row ?? null;
}

export async function lockConnection(tx: Tx, issuerId: string): Promise<ConnectionRow | null> {
  const [row] = await tx
    .select()
    .from(fortnoxConnections)
    .where(eq(fortnoxConnections.issuerId, issuerId))
    .for('update');
  return row ?? null;
}

/** The issuer's one connection, made or made again (a reconnect replaces tokens and company). */
export async function upsertConnection(
  tx: Tx,
  row: Omit<typeof fortnoxConnections.$inferInsert, 'id'>,
): Promise<ConnectionRow> {
  const [saved] = await tx
    .insert(fortnoxConnections)
    .values(row)
    .onConflictDoUpdate({ target: fortnoxConnections.issuerId, set: { ...row, reason: null, endedAt: null } })
    .returning();
  if (!saved) throw new Error('fortnox connection not saved');
  return saved;
}

export async function saveTokens(
  db: Db | Tx,
  issuerId: string,
  tokens: { accessTokenSealed: string; refreshTokenSealed: string; accessExpiresAt: Date; refreshedAt: Date },
): Promise<void> {
  await db.update(fortnoxConnections).set(tokens).where(eq(fortnoxConnections.issuerId, issuerId));
}

/** Ends the connection: the tokens are forgotten, the reason kept. */
export async function endConnection(
  db: Db | Tx,
  issuerId: string,
  reason: 'disconnected' | 'refused',
  at: Date,
): Promise<void> {
  await db
    .update(fortnoxConnections)
    .set({
      status: 'revoked',
      reason,
      accessTokenSealed: null,
      refreshTokenSealed: null,
      accessExpiresAt: null,
      endedAt: at,
    })
    .where(eq(fortnoxConnections.issuerId, issuerId));
}

/**
 * The `active` of `fortnoxSetting` follows the connection: every user of the issuer who has the
 * setting sees whether the company's Fortnox is connected (the menu's note, spec §6).
 */
export async function setUsersActive(db: Db | Tx, issuerId: string, active: boolean): Promise<void> {
  await db
    .update(users)
    .set({ fortnoxActive: active })
    .where(and(eq(users.issuerId, issuerId), isNotNull(users.fortnoxActive)));
}

export async function insertAuthorization(db: Db | Tx, row: typeof fortnoxAuthorizations.$inferInsert) {
  await db.insert(fortnoxAuthorizations).values(row);
}

/** Marks an authorization used and answers it; null when unknown or already used (a replay). */
export async function useAuthorization(tx: Tx, stateHash: string, at: Date) {
  const [row] = await tx
    .update(fortnoxAuthorizations)
    .set({ usedAt: at })
    .where(and(eq(fortnoxAuthorizations.stateHash, stateHash), isNull(fortnoxAuthorizations.usedAt)))
    .returning();
  return row ?? null;
}

export async function findAuthorization(db: Db | Tx, stateHash: string) {
  const [row] = await db
    .select()
    .from(fortnoxAuthorizations)
    .where(eq(fortnoxAuthorizations.stateHash, stateHash));
  return row ?? null;
}

/** The issuer's taken-over Fortnox invoices among `documentNumbers`, with their invoice's state. */
export async function takenOver(
  db: Db | Tx,
  _issuerId: string,
  companyOrgNo: string,
  documentNumbers: string[],
) {
  if (documentNumbers.length === 0) return [];
  return db
    .select({
      documentNumber: fortnoxInvoices.documentNumber,
      issuerId: fortnoxInvoices.issuerId,
      invoiceId: fortnoxInvoices.invoiceId,
      state: invoices.state,
    })
    .from(fortnoxInvoices)
    .innerJoin(invoices, eq(invoices.id, fortnoxInvoices.invoiceId))
    .where(
      and(
        eq(fortnoxInvoices.companyOrgNo, companyOrgNo),
        inArray(fortnoxInvoices.documentNumber, documentNumbers),
      ),
    );
}

export async function insertTakenOver(tx: Tx, row: typeof fortnoxInvoices.$inferInsert): Promise<void> {
  await tx.insert(fortnoxInvoices).values(row);
}

/** The issuer's recipient with this organisation number (digits compared), or null. */
export async function findRecipientByNumber(tx: Tx, issuerId: string, organizationNumber: string) {
  const digits = organizationNumber.replace(/[^0-9]/g, '');
  if (!digits) return null;
  const [row] = await tx
    .select({ id: recipients.id })
    .from(recipients)
    .where(
      and(
        eq(recipients.issuerId, issuerId),
        sql`regexp_replace(${recipients.organizationNumber}, '[^0-9]', '', 'g') = ${digits}`,
      ),
    );
  return row ?? null;
}

export async function insertRecipient(tx: Tx, row: typeof recipients.$inferInsert): Promise<string> {
  const [created] = await tx.insert(recipients).values(row).returning({ id: recipients.id });
  if (!created) throw new Error('recipient not created');
  return created.id;
}

export async function insertInvoiceFile(tx: Tx, row: typeof invoiceFiles.$inferInsert): Promise<string> {
  const [created] = await tx.insert(invoiceFiles).values(row).returning({ id: invoiceFiles.id });
  if (!created) throw new Error('invoice file not stored');
  return created.id;
}

/** Stamps an invoice written from Fortnox with its source. */
export async function markSource(tx: Tx, invoiceId: string): Promise<void> {
  await tx.update(invoices).set({ source: 'fortnox' }).where(eq(invoices.id, invoiceId));
}

/** True when a user of the issuer has limited_fortnox_bookkeeping (spec §6). */
export async function issuerKeepsBooksInFortnox(db: Db | Tx, issuerId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: userAbilities.userId })
    .from(userAbilities)
    .innerJoin(users, eq(users.id, userAbilities.userId))
    .where(
      and(
        eq(users.issuerId, issuerId),
        eq(users.active, true),
        eq(userAbilities.ability, 'limited_fortnox_bookkeeping'),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The Fortnox invoices among these invoices, with the document number they came from. */
export async function fortnoxInvoicesOf(db: Db | Tx, invoiceIds: string[]) {
  if (invoiceIds.length === 0) return [];
  return db
    .select({
      invoiceId: fortnoxInvoices.invoiceId,
      issuerId: fortnoxInvoices.issuerId,
      documentNumber: fortnoxInvoices.documentNumber,
    })
    .from(fortnoxInvoices)
    .where(inArray(fortnoxInvoices.invoiceId, invoiceIds));
}

/** Queues payments; a payment already queued is left as it is (the unique key). */
export async function queuePayments(
  db: Db | Tx,
  rows: (typeof fortnoxPaymentOutbox.$inferInsert)[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const added = await db
    .insert(fortnoxPaymentOutbox)
    .values(rows)
    .onConflictDoNothing({ target: fortnoxPaymentOutbox.paymentId })
    .returning({ id: fortnoxPaymentOutbox.id });
  return added.length;
}

export async function pendingPayments(db: Db | Tx, issuerId?: string): Promise<OutboxRow[]> {
  return db
    .select()
    .from(fortnoxPaymentOutbox)
    .where(
      and(
        eq(fortnoxPaymentOutbox.status, 'pending'),
        issuerId ? eq(fortnoxPaymentOutbox.issuerId, issuerId) : undefined,
      ),
    )
    .orderBy(fortnoxPaymentOutbox.createdAt, fortnoxPaymentOutbox.id);
}

/** Counts a try before it is made: a later try then knows this one may have reached Fortnox. */
export async function countAttempt(db: Db | Tx, id: string): Promise<void> {
  await db
    .update(fortnoxPaymentOutbox)
    .set({ attempts: sql`${fortnoxPaymentOutbox.attempts} + 1` })
    .where(eq(fortnoxPaymentOutbox.id, id));
}

export async function paymentDone(db: Db | Tx, id: string, fortnoxNumber: string, at: Date): Promise<void> {
  await db
    .update(fortnoxPaymentOutbox)
    .set({ status: 'done', fortnoxPaymentNumber: fortnoxNumber, doneAt: at, lastError: null })
    .where(and(eq(fortnoxPaymentOutbox.id, id), eq(fortnoxPaymentOutbox.status, 'pending')));
}

export async function paymentFailed(db: Db | Tx, id: string, error: string): Promise<void> {
  await db.update(fortnoxPaymentOutbox).set({ lastError: error }).where(eq(fortnoxPaymentOutbox.id, id));
}

/** Payments of one Fortnox invoice already registered by us, for matching Fortnox's list. */
export async function donePaymentsOf(db: Db | Tx, issuerId: string, documentNumber: string) {
  return db
    .select({
      fortnoxPaymentNumber: fortnoxPaymentOutbox.fortnoxPaymentNumber,
    })
    .from(fortnoxPaymentOutbox)
    .where(
      and(
        eq(fortnoxPaymentOutbox.issuerId, issuerId),
        eq(fortnoxPaymentOutbox.documentNumber, documentNumber),
        eq(fortnoxPaymentOutbox.status, 'done'),
      ),
    );
}
