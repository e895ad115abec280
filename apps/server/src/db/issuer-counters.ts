import { sql } from 'drizzle-orm';
import { ApiError } from '../lib/errors';
import type { Tx } from './client';
import { issuerCounters } from './schema';

/**
 * The issuer's next value of its counter `name` (1 the first time): made or counted up in one
 * statement, whose row lock keeps two transactions from getting the same value.
 */
export async function nextCounterValue(tx: Tx, issuerId: string, name: 'loan' | 'ocr'): Promise<number> {
  const [row] = await tx
    .insert(issuerCounters)
    .values({ issuerId, name, value: 1 })
    .onConflictDoUpdate({
      target: [issuerCounters.issuerId, issuerCounters.name],
      set: { value: sql`${issuerCounters.value} + 1` },
    })
    .returning({ value: issuerCounters.value });
  if (!row) throw new ApiError('server.internal');
  return row.value;
}
