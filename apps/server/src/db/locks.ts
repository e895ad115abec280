import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from './client';

/**
 * The row of `table` whose id is `id`, locked until the transaction ends (FOR UPDATE), so what is read
 * of it stays true while it is changed; undefined when there is none.
 */
export async function lockById<T extends PgTable & { id: PgColumn }>(
  tx: Tx,
  table: T,
  id: string,
): Promise<T['$inferSelect'] | undefined> {
  const [row] = await tx
    .select()
    .from(table as PgTable)
    .where(eq(table.id, id))
    .for('update')
    .limit(1);
  return row as T['$inferSelect'] | undefined;
}
