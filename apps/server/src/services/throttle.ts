import { createHash } from 'node:crypto';
import { and, count, eq, gt, inArray, lt, min, sql } from 'drizzle-orm';
import type { ThrottleLimits } from '../context';
import type { Db } from '../db/client';
import { loginFailures } from '../db/schema';

/**
 * Whose usernames: customer users (`u:`) and operators (`o:`) are counted apart, so failures against
 * an operator name never lock out a customer of the same name. The IP key is shared: guessing is
 * guessing, whichever door it knocks on.
 */
export type ThrottleRealm = 'customer' | 'operator';

export const usernameKey = (username: string, realm: ThrottleRealm = 'customer') =>
  `${realm === 'operator' ? 'o' : 'u'}:${username.trim().toLowerCase()}`;
export const ipKey = (ip: string) => `ip:${ip}`;

/** One counter of attempts: its key (`u:…`, `ip:…`, `pw:…`) and how many it allows in the window. */
export interface ThrottleCounter {
  key: string;
  limit: number;
}

/** What `claimAttempt` decided: a wait in seconds (nothing counted), or the rows that count this try. */
export type AttemptClaim = { wait: number; ids: [] } | { wait: 0; ids: string[] };

/** Class id of the advisory locks of the throttle (any constant; the migration lock uses one argument). */
const THROTTLE_LOCK_CLASS = 727_002;

/** The advisory lock of a key: the first four bytes of its SHA-256, as a signed 32-bit integer. */
const lockIdOf = (key: string) => createHash('sha256').update(key).digest().readInt32BE(0);

/**
 * Counts one attempt against every counter before the caller does any work, or refuses with the
 * seconds to wait. Lock, count and insert are one transaction under an advisory lock per key (taken
 * in ascending order, so two claims may queue but never deadlock), so twenty guesses arriving at once get at
 * most `limit` rows between them: the rest are refused and not counted. The caller then checks the
 * password (or code, or link) and on success gives the attempt back (`refundAttempt`, `clearFailures`).
 * Checked before any password hashing, so a flood of guesses costs the server a query, not an argon2
 * hash each.
 */
export async function claimAttempt(
  db: Db,
  counters: ThrottleCounter[],
  windowMinutes: number,
  now: Date,
): Promise<AttemptClaim> {
  const since = new Date(now.getTime() - windowMinutes * 60_000);
  const keys = counters.map((c) => c.key);
  return db.transaction(async (tx): Promise<AttemptClaim> => {
    for (const id of [...new Set(keys.map(lockIdOf))].sort((a, b) => a - b))
      await tx.execute(sql`select pg_advisory_xact_lock(${THROTTLE_LOCK_CLASS}::int, ${id}::int)`);
    const found = await tx
      .select({ key: loginFailures.key, n: count(), oldest: min(loginFailures.at) })
      .from(loginFailures)
      .where(and(inArray(loginFailures.key, keys), gt(loginFailures.at, since)))
      .groupBy(loginFailures.key);
    let wait = 0;
    for (const row of found) {
      const limit = counters.find((c) => c.key === row.key)?.limit ?? Number.POSITIVE_INFINITY;
      if (row.n >= limit && row.oldest) {
        const freeAt = new Date(row.oldest).getTime() + windowMinutes * 60_000;
        wait = Math.max(wait, Math.ceil((freeAt - now.getTime()) / 1000), 1);
      }
    }
    if (wait > 0) return { wait, ids: [] };
    const inserted = await tx
      .insert(loginFailures)
      .values(keys.map((key) => ({ key, at: now })))
      .returning({ id: loginFailures.id });
    return { wait: 0, ids: inserted.map((r) => r.id) };
  });
}

/** Gives back the rows of a claim whose attempt succeeded (or was not a guess at all). */
export async function refundAttempt(db: Db, claim: AttemptClaim): Promise<void> {
  if (claim.ids.length) await db.delete(loginFailures).where(inArray(loginFailures.id, claim.ids));
}

/** The counters of a sign-in: the username of its realm and the client address. */
export const signInCounters = (
  limits: ThrottleLimits,
  username: string,
  ip: string,
  realm: ThrottleRealm = 'customer',
): ThrottleCounter[] => [
  { key: usernameKey(username, realm), limit: limits.perUsername },
  { key: ipKey(ip), limit: limits.perIp },
];

/** Counts a sign-in attempt (see `claimAttempt`) against its username and address. */
export function claimSignIn(
  db: Db,
  limits: ThrottleLimits,
  username: string,
  ip: string,
  now: Date,
  realm: ThrottleRealm = 'customer',
): Promise<AttemptClaim> {
  return claimAttempt(db, signInCounters(limits, username, ip, realm), limits.windowMinutes, now);
}

export type AccountCheck = 'password' | 'two_factor';
const accountCheckKey = (check: AccountCheck, userId: string) =>
  `${check === 'password' ? 'pw' : '2fa'}:${userId}`;

/**
 * Checks a signed-in user repeats to change the account: the old password of a password change
 * (`pw:`) and the code that turns two-factor off (`2fa:`). Counted per user, with the username's limit,
 * so a stolen session cannot guess either faster than the sign-in allows.
 */
export function claimAccountCheck(
  db: Db,
  limits: ThrottleLimits,
  check: AccountCheck,
  userId: string,
  now: Date,
): Promise<AttemptClaim> {
  const key = accountCheckKey(check, userId);
  return claimAttempt(db, [{ key, limit: limits.perUsername }], limits.windowMinutes, now);
}

/** A right answer starts the user's count of that check again. */
export async function clearAccountChecks(db: Db, check: AccountCheck, userId: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.key, accountCheckKey(check, userId)));
}

/** Uses of reset links from one address (`reset-ip:`), with the address limit of the sign-in. */
export function claimResetLinkUse(
  db: Db,
  limits: ThrottleLimits,
  ip: string,
  now: Date,
): Promise<AttemptClaim> {
  return claimAttempt(db, [{ key: `reset-ip:${ip}`, limit: limits.perIp }], limits.windowMinutes, now);
}

/** A successful sign-in clears the username's failures; old rows of any key are pruned as we go. */
export async function clearFailures(
  db: Db,
  username: string,
  limits: ThrottleLimits,
  now: Date,
  realm: ThrottleRealm = 'customer',
): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.key, usernameKey(username, realm)));
  await db
    .delete(loginFailures)
    .where(lt(loginFailures.at, new Date(now.getTime() - limits.windowMinutes * 60_000)));
}
