import {
  ABILITIES,
  type Ability,
  SESSION_ABSOLUTE_HOURS,
  SESSION_IDLE_MINUTES,
  TWO_FACTOR_STEP_MINUTES,
} from '@portal/contracts';
import { and, eq, gt, isNull, ne, type SQLWrapper, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { AuthContext } from '../context';
import { type Db, lookupsOf, type Tx } from '../db/client';
import { perDatabase } from '../db/prepared';
import { sessions, userAbilities, users } from '../db/schema';
import { hashToken, newToken } from '../lib/tokens';

const MINUTE = 60_000;
/** A session's expiry is pushed forward at most this often, so a busy session is not a write per call. */
const RENEW_AFTER_MS = MINUTE;

/**
 * A new bearer token and the columns its session row starts with, for customer and operator sessions
 * alike: only the token's SHA-256 is stored; a full session lives SESSION_IDLE_MINUTES, the step between
 * the password and the TOTP code TWO_FACTOR_STEP_MINUTES.
 */
export function newSessionRow(
  kind: 'session' | 'two_factor_step',
  now: Date,
  client: { ip?: string; userAgent?: string },
) {
  const token = newToken();
  const ttl = kind === 'session' ? SESSION_IDLE_MINUTES : TWO_FACTOR_STEP_MINUTES;
  const row = {
    tokenHash: hashToken(token),
    kind,
    createdAt: now,
    lastUsedAt: now,
    expiresAt: new Date(now.getTime() + ttl * MINUTE),
    ip: client.ip ?? null,
    userAgent: client.userAgent?.slice(0, 300) ?? null,
  };
  return { token, row };
}

/**
 * The session row of a token that is live: not revoked, not expired, and of `kind` (a full session, the
 * kind that opens the API, unless the sign-in step is asked for).
 */
export function liveSessionOf(
  table: SessionColumns,
  token: string,
  now: Date,
  kind: 'session' | 'two_factor_step' = 'session',
) {
  return liveSessionWhere(table, hashToken(token), now, kind);
}

type SessionColumns = {
  tokenHash: AnyPgColumn;
  kind: AnyPgColumn;
  revokedAt: AnyPgColumn;
  expiresAt: AnyPgColumn;
};

/** `liveSessionOf` by the token's hash, which may be a placeholder of a prepared query, as may `now`. */
function liveSessionWhere(
  table: SessionColumns,
  tokenHash: string | SQLWrapper,
  now: Date | SQLWrapper,
  kind: 'session' | 'two_factor_step',
) {
  return and(
    eq(table.tokenHash, tokenHash),
    eq(table.kind, kind),
    isNull(table.revokedAt),
    gt(table.expiresAt, now),
  );
}

export async function createSession(
  db: Db | Tx,
  userId: string,
  kind: 'session' | 'two_factor_step',
  now: Date,
  client: { ip?: string; userAgent?: string } = {},
): Promise<string> {
  const { token, row } = newSessionRow(kind, now, client);
  await db.insert(sessions).values({ ...row, userId });
  return token;
}

/**
 * The sliding expiry of a session used at `now`: the idle limit from now, never past the absolute limit
 * from its creation. Null while the last renewal is younger than RENEW_AFTER_MS, so that a busy client
 * does not write the session row on every call. Customer and operator sessions share this rule.
 */
export function renewedExpiry(now: Date, createdAt: Date, lastUsedAt: Date): Date | null {
  if (now.getTime() - lastUsedAt.getTime() <= RENEW_AFTER_MS) return null;
  const idle = new Date(now.getTime() + SESSION_IDLE_MINUTES * MINUTE);
  const absolute = new Date(createdAt.getTime() + SESSION_ABSOLUTE_HOURS * 60 * MINUTE);
  return idle < absolute ? idle : absolute;
}

/**
 * The query of `authenticate`, built once per database: every call of the API runs it, and building
 * it with drizzle each time cost more than running it (db/prepared.ts).
 */
const authenticateQuery = perDatabase((db: Db) =>
  // By the token's hash (unique): planned once per connection (db/client.ts `lookupsOf`).
  lookupsOf(db)
    .select({
      sessionId: sessions.id,
      createdAt: sessions.createdAt,
      lastUsedAt: sessions.lastUsedAt,
      userId: users.id,
      issuerId: users.issuerId,
      username: users.username,
      active: users.active,
      lastPasswordChange: users.lastPasswordChange,
      force2fa: users.force2fa,
      totpSecret: users.totpSecret,
      // The abilities come in the same round trip as the session: every call of the API pays for this query.
      abilities: sql<
        string[]
      >`array(select ${userAbilities.ability} from ${userAbilities} where ${userAbilities.userId} = ${users.id})`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(liveSessionWhere(sessions, sql.placeholder('tokenHash'), sql.placeholder('now'), 'session'))
    .limit(1)
    // Prepared (db/prepared.ts): one round trip per request on PostgreSQL, and no planning each time.
    .prepare('authenticate'),
);

/** The signed-in caller of a bearer token, or null when it is unknown, expired, revoked or not a session. */
export async function authenticate(db: Db, token: string, now: Date): Promise<AuthContext | null> {
  // A placeholder's value goes to the driver as it is: the time as ISO text, which both databases read.
  const [row] = await authenticateQuery(db).execute({ tokenHash: hashToken(token), now: now.toISOString() });
  if (!row?.active) return null;

  const expiresAt = renewedExpiry(now, row.createdAt, row.lastUsedAt);
  if (expiresAt)
    await db.update(sessions).set({ lastUsedAt: now, expiresAt }).where(eq(sessions.id, row.sessionId));
  return {
    sessionId: row.sessionId,
    userId: row.userId,
    issuerId: row.issuerId,
    username: row.username,
    abilities: knownAbilities(row.abilities),
    setupRequired: row.lastPasswordChange === null || (row.force2fa && row.totpSecret === null),
  };
}

const KNOWN_ABILITIES = new Set<string>(ABILITIES);

/** The keys the contracts know; anything else in the table is ignored. */
function knownAbilities(keys: readonly string[] | null): Ability[] {
  return (keys ?? []).filter((a): a is Ability => KNOWN_ABILITIES.has(a));
}

export async function abilitiesOf(db: Db | Tx, userId: string): Promise<Ability[]> {
  const found = await db
    .select({ ability: userAbilities.ability })
    .from(userAbilities)
    .where(eq(userAbilities.userId, userId));
  return knownAbilities(found.map((r) => r.ability));
}

export async function revokeSession(db: Db | Tx, sessionId: string, now: Date): Promise<void> {
  await db.update(sessions).set({ revokedAt: now }).where(eq(sessions.id, sessionId));
}

/** Ends every session (and pending 2FA step) of a user, except `keep` when given. */
export async function revokeUserSessions(
  db: Db | Tx,
  userId: string,
  now: Date,
  keep?: string,
): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keep ? ne(sessions.id, keep) : sql`true`),
    );
}
