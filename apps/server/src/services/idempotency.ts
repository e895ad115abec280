import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { ApiError } from '../lib/errors';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

export function idempotencyKeyOf(headers: Record<string, unknown>): string | null {
  const value = headers[IDEMPOTENCY_HEADER];
  if (typeof value !== 'string' || value.length === 0) return null;
  if (!/^[A-Za-z0-9_-]{8,100}$/.test(value)) throw new ApiError('validation.invalid');
  return value;
}

function hashBody(operation: string, body: unknown): string {
  return createHash('sha256')
    .update(operation)
    .update(JSON.stringify(body ?? null))
    .digest('hex');
}

/**
 * Runs `work` once per (issuer, key): the answer is stored in the same transaction as the work, so a
 * retried or double-clicked request gets the first answer and never does the work twice. The same key
 * with another body is refused. Without a key the work simply runs.
 */
export async function once<T>(
  db: Db,
  issuerId: string,
  key: string | null,
  operation: string,
  body: unknown,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  if (!key) return db.transaction(work);
  const requestHash = hashBody(operation, body);
  return db.transaction(async (tx) => {
    // Serialises concurrent requests with one key: the second waits here and then finds the answer.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${issuerId}:${key}`}))`);
    const [seen] = await tx
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.issuerId, issuerId), eq(idempotencyKeys.key, key)));
    if (seen) {
      if (seen.requestHash !== requestHash || seen.operation !== operation)
        throw new ApiError('idempotency.key_reused');
      return seen.response as T;
    }
    const result = await work(tx);
    await tx.insert(idempotencyKeys).values({
      issuerId,
      key,
      operation,
      requestHash,
      statusCode: 200,
      response: result as object,
    });
    return result;
  });
}
