import { and, eq, inArray, isNotNull, isNull, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { firstOrNull } from '../../db/first-row';
import { bankVerifications, issuers, messages, verifiedBankAccounts } from '../../db/schema';

export type BankVerificationRow = typeof bankVerifications.$inferSelect;
export type VerifiedAccountRow = typeof verifiedBankAccounts.$inferSelect;

export async function insertVerification(
  db: Db | Tx,
  row: typeof bankVerifications.$inferInsert,
): Promise<BankVerificationRow> {
  const [created] = await db.insert(bankVerifications).values(row).returning();
  if (!created) throw new Error('bank verification not created');
  return created;
}

export async function findVerificationByState(db: Db | Tx, stateHash: string) {
  return firstOrNull(db.select().from(bankVerifications).where(eq(bankVerifications.stateHash, stateHash)));
}

export async function findVerificationBySession(db: Db | Tx, provider: string, sessionId: string) {
  return firstOrNull(
    db
      .select()
      .from(bankVerifications)
      .where(
        and(eq(bankVerifications.provider, provider), eq(bankVerifications.providerSessionId, sessionId)),
      ),
  );
}

export async function findVerification(db: Db | Tx, id: string) {
  return firstOrNull(db.select().from(bankVerifications).where(eq(bankVerifications.id, id)));
}

/**
 * Moves a started attempt to its outcome; null when it had already left 'started' (the callback and
 * the webhook race, or a replay): the row is then unchanged.
 */
export async function closeVerification(
  tx: Tx,
  id: string,
  outcome: Pick<
    BankVerificationRow,
    'status' | 'reason' | 'completedBy' | 'reportId' | 'report' | 'completedAt'
  >,
): Promise<BankVerificationRow | null> {
  return moveFrom(tx, id, 'started', outcome);
}

/**
 * Moves an attempt that awaits two-factor ('confirming') to 'verified' or 'failed'; null when it had
 * left 'confirming' already (a second confirmation): the row is then unchanged.
 */
export async function closeConfirmation(
  tx: Tx,
  id: string,
  outcome: { status: 'verified' | 'failed'; reason: string | null },
): Promise<BankVerificationRow | null> {
  return moveFrom(tx, id, 'confirming', outcome);
}

/** Sets an attempt's `outcome` if it is still in status `from`; null (and the row unchanged) if not. */
async function moveFrom(
  tx: Tx,
  id: string,
  from: BankVerificationRow['status'],
  outcome: Partial<BankVerificationRow>,
): Promise<BankVerificationRow | null> {
  return firstOrNull(
    tx
      .update(bankVerifications)
      .set(outcome)
      .where(and(eq(bankVerifications.id, id), eq(bankVerifications.status, from)))
      .returning(),
  );
}

const isCurrent = and(isNull(verifiedBankAccounts.replacedAt), isNotNull(verifiedBankAccounts.confirmedAt));

/** The issuer's current verified account (the one payouts pay to), or null. */
export async function currentAccount(db: Db | Tx, issuerId: string): Promise<VerifiedAccountRow | null> {
  return firstOrNull(
    db
      .select()
      .from(verifiedBankAccounts)
      .where(and(eq(verifiedBankAccounts.issuerId, issuerId), isCurrent)),
  );
}

/** The current accounts of these issuers, by issuer id; an issuer without one is not in the map. */
export async function currentAccounts(
  db: Db | Tx,
  issuerIds: string[],
): Promise<Map<string, VerifiedAccountRow>> {
  if (issuerIds.length === 0) return new Map();
  const found = await db
    .select()
    .from(verifiedBankAccounts)
    .where(and(inArray(verifiedBankAccounts.issuerId, issuerIds), isCurrent));
  return new Map(found.map((r) => [r.issuerId, r]));
}

export async function accountOfVerification(db: Db | Tx, verificationId: string) {
  return firstOrNull(
    db.select().from(verifiedBankAccounts).where(eq(verifiedBankAccounts.verificationId, verificationId)),
  );
}

type NewAccount = Omit<typeof verifiedBankAccounts.$inferInsert, 'confirmedAt' | 'replacedAt'>;

/**
 * Makes `account` the issuer's current account: the one before is marked replaced, and the issuer's
 * `bank_account_verified` flag (read by /self for the banner) is set, all in the caller's transaction.
 */
export async function storeVerifiedAccount(tx: Tx, account: NewAccount): Promise<VerifiedAccountRow> {
  // The current account and any unconfirmed one waiting beside it are both replaced.
  const created = await replaceAccounts(tx, account, account.verifiedAt, undefined);
  await tx.update(issuers).set({ bankAccountVerified: true }).where(eq(issuers.id, account.issuerId));
  return created;
}

/**
 * Stores an account that would replace the current one, unconfirmed: payouts still go to the current
 * one. An unconfirmed account of an earlier attempt is given up (only the newest can be confirmed).
 */
export function storeUnconfirmedAccount(tx: Tx, account: NewAccount): Promise<VerifiedAccountRow> {
  return replaceAccounts(tx, account, null, isNull(verifiedBankAccounts.confirmedAt));
}

/**
 * Marks the issuer's accounts not replaced yet (of those, only the ones `which` picks) replaced when
 * `account` was verified, and stores `account`, confirmed at `confirmedAt` or waiting (null).
 */
async function replaceAccounts(
  tx: Tx,
  account: NewAccount,
  confirmedAt: Date | null,
  which: SQL | undefined,
): Promise<VerifiedAccountRow> {
  await tx
    .update(verifiedBankAccounts)
    .set({ replacedAt: account.verifiedAt })
    .where(
      and(
        eq(verifiedBankAccounts.issuerId, account.issuerId),
        isNull(verifiedBankAccounts.replacedAt),
        which,
      ),
    );
  const [created] = await tx
    .insert(verifiedBankAccounts)
    .values({ ...account, confirmedAt })
    .returning();
  if (!created) throw new Error('bank account not stored');
  return created;
}

/**
 * The unconfirmed account of a verification becomes the issuer's current one (the one before is
 * replaced); null when it is no longer waiting (given up, or confirmed already): nothing changes.
 */
export async function confirmAccount(
  tx: Tx,
  verificationId: string,
  at: Date,
): Promise<VerifiedAccountRow | null> {
  const waiting = and(
    eq(verifiedBankAccounts.verificationId, verificationId),
    isNull(verifiedBankAccounts.replacedAt),
    isNull(verifiedBankAccounts.confirmedAt),
  );
  const [pending] = await tx.select().from(verifiedBankAccounts).where(waiting).for('update');
  if (!pending) return null;
  await tx
    .update(verifiedBankAccounts)
    .set({ replacedAt: at })
    .where(and(eq(verifiedBankAccounts.issuerId, pending.issuerId), isCurrent));
  const [confirmed] = await tx
    .update(verifiedBankAccounts)
    .set({ confirmedAt: at })
    .where(eq(verifiedBankAccounts.id, pending.id))
    .returning();
  await tx.update(issuers).set({ bankAccountVerified: true }).where(eq(issuers.id, pending.issuerId));
  return confirmed ?? null;
}

/** Gives up the unconfirmed account of a verification (its confirmation expired). */
export async function giveUpAccount(tx: Tx, verificationId: string, at: Date): Promise<void> {
  await tx
    .update(verifiedBankAccounts)
    .set({ replacedAt: at })
    .where(
      and(
        eq(verifiedBankAccounts.verificationId, verificationId),
        isNull(verifiedBankAccounts.replacedAt),
        isNull(verifiedBankAccounts.confirmedAt),
      ),
    );
}

export async function insertMessage(tx: Tx, row: typeof messages.$inferInsert): Promise<void> {
  await tx.insert(messages).values(row);
}
