import { and, count, eq, gt, inArray, lt, min } from 'drizzle-orm';
import type { ThrottleLimits } from '../context';
import type { Db } from '../db/client';
import { loginFailures } from '../db/schema';

export const usernameKey = (username: string) => `u:${username.trim().toLowerCase()}`;
export const ipKey = (ip: string) => `ip:${ip}`;

/**
 * Seconds until the caller may try again, or 0. Checked before any password hashing, so a flood of
 * guesses costs the server a query, not an argon2 hash each.
 */
export async function throttleWait(
  db: Db,
  limits: ThrottleLimits,
  username: string,
  ip: string,
  now: Date,
): Promise<number> {
  const since = new Date(now.getTime() - limits.windowMinutes * 60_000);
  const found = await db
    .select({ key: loginFailures.key, n: count(), oldest: min(loginFailures.at) })
    .from(loginFailures)
    .where(and(inArray(loginFailures.key, [usernameKey(username), ipKey(ip)]), gt(loginFailures.at, since)))
    .groupBy(loginFailures.key);
  let wait = 0;
  for (const row of found) {
    const limit = row.key.startsWith('u:') ? limits.perUsername : limits.perIp;
    if (row.n >= limit && row.oldest) {
      const oldest = new Date(row.oldest);
      const freeAt = oldest.getTime() + limits.windowMinutes * 60_000;
      wait = Math.max(wait, Math.ceil((freeAt - now.getTime()) / 1000));
    }
  }
  return Math.max(wait, 0);
}

export async function recordFailure(db: Db, username: string, ip: string, now: Date): Promise<void> {
  await db.insert(loginFailures).values([
    { key: usernameKey(username), at: now },
    { key: ipKey(ip), at: now },
  ]);
}

/** A successful sign-in clears the username's failures; old rows of any key are pruned as we go. */
export async function clearFailures(
  db: Db,
  username: string,
  limits: ThrottleLimits,
  now: Date,
): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.key, usernameKey(username)));
  await db
    .delete(loginFailures)
    .where(lt(loginFailures.at, new Date(now.getTime() - limits.windowMinutes * 60_000)));
}
