import { and, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { firstOrNull } from '../../db/first-row';
import { rows } from '../../db/migrate';
import {
  fortnoxAuthorizations,
  fortnoxConnections,
  fortnoxInvoices,
  fortnoxPaymentOutbox,
  invoiceFiles,
  invoices,
  recipients,
  users,
} from '../../db/schema';

export type ConnectionRow = typeof fortnoxConnections.$inferSelect;
export type OutboxRow = typeof fortnoxPaymentOutbox.$inferSelect;

/** The user's Fortnox setting (spec §2 `fortnoxSetting`): null when the user has none. */
export async function findUserSetting(db: Db | Tx, userId: string): Promise<boolean | null> {
  const [row] = await db.select({ active: users.fortnoxActive }).from(users).where(eq(users.id, userId));
  return row?.active ?? null;
}

export async function findConnection(db: Db | Tx, issuerId: string): Promise<ConnectionRow | null> {
  return firstOrNull(db.select().from(fortnoxConnections).where(eq(fortnoxConnections.issuerId, issuerId)));
}

/** The issuers whose active connection was last renewed before `before`. */
export async function connectionsToRenew(db: Db | Tx, before: Date): Promise<string[]> {
  const found = await db
    .select({ issuerId: fortnoxConnections.issuerId })
    .from(fortnoxConnections)
    .where(
      and(
        eq(fortnoxConnections.status, 'active'),
        or(isNull(fortnoxConnections.refreshedAt), lt(fortnoxConnections.refreshedAt, before)),
      ),
    );
  return found.map((r) => r.issuerId);
}

export async function lockConnection(tx: Tx, issuerId: string): Promise<ConnectionRow | null> {
  return firstOrNull(
    tx.select().from(fortnoxConnections).where(eq(fortnoxConnections.issuerId, issuerId)).for('update'),
  );
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
  return firstOrNull(
    tx
      .update(fortnoxAuthorizations)
      .set({ usedAt: at })
      .where(and(eq(fortnoxAuthorizations.stateHash, stateHash), isNull(fortnoxAuthorizations.usedAt)))
      .returning(),
  );
}

export async function findAuthorization(db: Db | Tx, stateHash: string) {
  return firstOrNull(
    db.select().from(fortnoxAuthorizations).where(eq(fortnoxAuthorizations.stateHash, stateHash)),
  );
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
  return firstOrNull(
    tx
      .select({ id: recipients.id })
      .from(recipients)
      .where(
        and(
          eq(recipients.issuerId, issuerId),
          sql`regexp_replace(${recipients.organizationNumber}, '[^0-9]', '', 'g') = ${digits}`,
        ),
      ),
  );
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

/**
 * Queues the payments applied to invoices taken over from Fortnox, of issuers where a user has
 * limited_fortnox_bookkeeping: those of one imported file, or one assigned payment. Set-based (a BGMAX
 * file may hold 100,000 payments); a payment already queued is left as it is (the unique key).
 */
export async function queuePaymentsOf(
  tx: Tx,
  of: { fileId: string } | { paymentId: string },
  at: Date,
): Promise<number> {
  const which = 'fileId' in of ? sql`p.file_id = ${of.fileId}` : sql`p.id = ${of.paymentId}`;
  const result = await tx.execute(sql`
    insert into fortnox_payment_outbox
      (issuer_id, payment_id, invoice_id, document_number, amount_minor, currency, payment_date, created_at)
    select f.issuer_id, p.id, p.invoice_id, f.document_number, p.applied_minor, p.currency, p.payment_date, ${at.toISOString()}::timestamptz
    from payments p
    join fortnox_invoices f on f.invoice_id = p.invoice_id
    where ${which} and p.applied_minor > 0
      and exists (
        select 1 from user_abilities a join users u on u.id = a.user_id
        where u.issuer_id = f.issuer_id and u.active and a.ability = 'limited_fortnox_bookkeeping')
    on conflict (payment_id) do nothing
    returning id`);
  return rows(result).length;
}

/**
 * Claims a pending row for one try until `until`, counting the try before it is made (a later try then
 * knows this one may have reached Fortnox); null when another process holds it or it is done.
 */
export async function claimPayment(
  db: Db | Tx,
  id: string,
  now: Date,
  until: Date,
): Promise<OutboxRow | null> {
  return firstOrNull(
    db
      .update(fortnoxPaymentOutbox)
      .set({ attempts: sql`${fortnoxPaymentOutbox.attempts} + 1`, claimedUntil: until })
      .where(
        and(
          eq(fortnoxPaymentOutbox.id, id),
          eq(fortnoxPaymentOutbox.status, 'pending'),
          or(isNull(fortnoxPaymentOutbox.claimedUntil), lt(fortnoxPaymentOutbox.claimedUntil, now)),
        ),
      )
      .returning(),
  );
}

export async function paymentDone(db: Db | Tx, id: string, fortnoxNumber: string, at: Date): Promise<void> {
  await db
    .update(fortnoxPaymentOutbox)
    .set({ status: 'done', fortnoxPaymentNumber: fortnoxNumber, doneAt: at, lastError: null })
    .where(and(eq(fortnoxPaymentOutbox.id, id), eq(fortnoxPaymentOutbox.status, 'pending')));
}

/**
 * A try that failed: the error kept. A refusal lets the claim go, so the next run tries again; a try
 * without an answer (it may still reach Fortnox) keeps it until it lapses.
 */
export async function paymentFailed(db: Db | Tx, id: string, error: string, release: boolean): Promise<void> {
  await db
    .update(fortnoxPaymentOutbox)
    .set({ lastError: error, ...(release ? { claimedUntil: null } : {}) })
    .where(eq(fortnoxPaymentOutbox.id, id));
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
