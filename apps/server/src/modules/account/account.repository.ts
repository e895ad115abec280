import { and, eq, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { lockById } from '../../db/locks';
import { issuers, passwordResets, users } from '../../db/schema';

/** The queries of the account module: the signed-in user's own row and the issuer's details. */

export type UserRow = typeof users.$inferSelect;

export async function setPassword(tx: Tx, userId: string, passwordHash: string, now: Date): Promise<void> {
  await tx.update(users).set({ passwordHash, lastPasswordChange: now }).where(eq(users.id, userId));
}

/** Spends the user's open reset links. */
export async function spendPasswordResets(tx: Tx, userId: string, now: Date): Promise<void> {
  await tx
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

export async function updateIssuer(
  tx: Tx,
  issuerId: string,
  values: Pick<
    typeof issuers.$inferInsert,
    'name' | 'email' | 'vat' | 'telephone' | 'address1' | 'city' | 'zipcode'
  >,
) {
  const [row] = await tx.update(issuers).set(values).where(eq(issuers.id, issuerId)).returning();
  return row;
}

export async function setTwoFactorSecrets(
  db: Db | Tx,
  userId: string,
  values: Pick<typeof users.$inferInsert, 'totpSecret' | 'totpPendingSecret' | 'totpLastStep'>,
): Promise<void> {
  await db.update(users).set(values).where(eq(users.id, userId));
}

/** The user's row, locked until the transaction ends. */
export function lockUser(tx: Tx, userId: string): Promise<UserRow | undefined> {
  return lockById(tx, users, userId);
}
