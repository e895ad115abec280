import { and, count, eq, gt, inArray, lt, min } from 'drizzle-orm';
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
  realm: ThrottleRealm = 'customer',
): Promise<number> {
  const since = new Date(now.getTime() - limits.windowMinutes * 60_000);
  const found = await db
    .select({ key: loginFailures.key, n: count(), oldest: min(loginFailures.at) })
    .from(loginFailures)
    .where(
      and(inArray(loginFailures.key, [usernameKey(username, realm), ipKey(ip)]), gt(loginFailures.at, since)),
    )
    .groupBy(loginFailures.key);
  let wait = 0;
  for (const row of found) {
    const limit = row.key.startsWith('ip:') ? limits.perIp : limits.perUsername;
    if (row.n >= limit && row.oldest) {
      const oldest = new Date(row.oldest);
      const freeAt = oldest.getTime() + limits.windowMinutes * 60_000;
      wait = Math.max(wait, Math.ceil((freeAt - now.getTime()) / 1000));
    }
  }
  return Math.max(wait, 0);
}

export async function recordFailure(
  db: Db,
  username: string,
  ip: string,
  now: Date,
  realm: ThrottleRealm = 'customer',
): Promise<void> {
  await db.insert(loginFailures).values([
    { key: usernameKey(username, realm), at: now },
    { key: ipKey(ip), at: now },
  ]);
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
