import type { ErrorCode } from '@portal/contracts';
import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { ApiError } from '../lib/errors';
import type { Tx } from './client';

/** The row of `table` that `which` picks, locked until the transaction ends (FOR UPDATE); undefined when none. */
async function lockedRow<T extends PgTable>(tx: Tx, table: T, which: SQL | undefined) {
  const [row] = await tx
    .select()
    .from(table as PgTable)
    .where(which)
    .for('update')
    .limit(1);
  return row as T['$inferSelect'] | undefined;
}

/**
 * The row of `table` whose id is `id`, locked until the transaction ends (FOR UPDATE), so what is read
 * of it stays true while it is changed; undefined when there is none.
 */
export function lockById<T extends PgTable & { id: PgColumn }>(
  tx: Tx,
  table: T,
  id: string,
): Promise<T['$inferSelect'] | undefined> {
  return lockedRow(tx, table, eq(table.id, id));
}

/**
 * The issuer's row of `table` whose id is `id`, locked until the transaction ends (FOR UPDATE); none,
 * or another issuer's, answers `notFound` (404).
 */
export async function lockOwnById<T extends PgTable & { id: PgColumn; issuerId: PgColumn }>(
  tx: Tx,
  table: T,
  issuerId: string,
  id: string,
  notFound: ErrorCode,
): Promise<T['$inferSelect']> {
  const row = await lockedRow(tx, table, and(eq(table.issuerId, issuerId), eq(table.id, id)));
  if (!row) throw new ApiError(notFound);
  return row;
}
