import { and, count, eq, gt, isNull, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { groups, passwordResets, users } from '../../db/schema';

/**
 * The queries of the auth module: login groups and password reset links (the sign-in steps' are
 * services/sign-in.ts's, shared with the back office).
 */

export async function findGroup(db: Db, groupId: string) {
  const [group] = await db.select().from(groups).where(eq(groups.id, groupId)).limit(1);
  return group;
}

/** How many reset links the user was sent after `since`. */
export async function countResetsSince(db: Db, userId: string, since: Date): Promise<number> {
  const [recent] = await db
    .select({ n: count() })
    .from(passwordResets)
    .where(and(eq(passwordResets.userId, userId), gt(passwordResets.createdAt, since)));
  return recent?.n ?? 0;
}

export async function insertPasswordReset(
  db: Db,
  values: { tokenHash: string; userId: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db.insert(passwordResets).values(values);
}

/** A reset link not used yet and not expired at `now`. */
function openLink(tokenHash: string, now: Date): SQL {
  return and(
    eq(passwordResets.tokenHash, tokenHash),
    isNull(passwordResets.usedAt),
    gt(passwordResets.expiresAt, now),
  ) as SQL;
}

/** Whether the open link of `tokenHash` exists (an index probe). */
export async function hasOpenReset(db: Db, tokenHash: string, now: Date): Promise<boolean> {
  const [found] = await db
    .select({ id: passwordResets.id })
    .from(passwordResets)
    .where(openLink(tokenHash, now))
    .limit(1);
  return found !== undefined;
}

/** The open link of `tokenHash`, locked until the transaction ends. */
export async function lockOpenReset(tx: Tx, tokenHash: string, now: Date) {
  const [reset] = await tx
    .select()
    .from(passwordResets)
    .where(openLink(tokenHash, now))
    .for('update')
    .limit(1);
  return reset;
}

/** Spends every open reset link of the user. */
export async function spendUserResets(tx: Tx, userId: string, now: Date): Promise<void> {
  await tx
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

export async function setPassword(tx: Tx, userId: string, passwordHash: string, now: Date): Promise<void> {
  await tx.update(users).set({ passwordHash, lastPasswordChange: now }).where(eq(users.id, userId));
}
