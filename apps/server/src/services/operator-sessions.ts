import { eq } from 'drizzle-orm';
import type { OperatorContext } from '../context';
import type { Db, Tx } from '../db/client';
import { operatorSessions, operators } from '../db/schema';
import { liveSessionOf, newSessionRow, renewedExpiry } from './sessions';

/**
 * A new operator session, with the same idle and absolute limits as a customer session. The token is
 * returned once; only its SHA-256 is stored, in `operator_sessions`, never in `sessions`.
 */
export async function createOperatorSession(
  db: Db | Tx,
  operatorId: string,
  now: Date,
  client: { ip?: string; userAgent?: string } = {},
  kind: 'session' | 'two_factor_step' = 'session',
): Promise<string> {
  const { token, row } = newSessionRow(kind, now, client);
  await db.insert(operatorSessions).values({ ...row, operatorId });
  return token;
}

/** The operator of a bearer token, or null when it is unknown, expired, revoked or the operator inactive. */
export async function authenticateOperator(
  db: Db,
  token: string,
  now: Date,
): Promise<OperatorContext | null> {
  const [row] = await db
    .select({
      sessionId: operatorSessions.id,
      createdAt: operatorSessions.createdAt,
      lastUsedAt: operatorSessions.lastUsedAt,
      operatorId: operators.id,
      username: operators.username,
      name: operators.name,
      active: operators.active,
    })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(liveSessionOf(operatorSessions, token, now))
    .limit(1);
  if (!row?.active) return null;
  const expiresAt = renewedExpiry(now, row.createdAt, row.lastUsedAt);
  if (expiresAt)
    await db
      .update(operatorSessions)
      .set({ lastUsedAt: now, expiresAt })
      .where(eq(operatorSessions.id, row.sessionId));
  return { sessionId: row.sessionId, operatorId: row.operatorId, username: row.username, name: row.name };
}

export async function revokeOperatorSession(db: Db | Tx, sessionId: string, now: Date): Promise<void> {
  await db.update(operatorSessions).set({ revokedAt: now }).where(eq(operatorSessions.id, sessionId));
}
