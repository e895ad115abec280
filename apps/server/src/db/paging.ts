import { count, type SQL } from 'drizzle-orm';
import type { PgSelect, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/** Which page of a list is asked for, counted from 1. */
export interface Paging {
  page: number;
  pageSize: number;
}

/**
 * One page of a list and how many rows match in all: `rows` (a dynamic select in the list's order) cut
 * to the page, and the count of `table`'s rows where `where`, read side by side.
 */
export async function pageWithTotal<Q extends PgSelect>(
  db: Db,
  rows: Q,
  table: PgTable,
  where: SQL | undefined,
  paging: Paging,
): Promise<{ rows: Awaited<Q>; total: number }> {
  const [found, [total]] = await Promise.all([
    rows.limit(paging.pageSize).offset((paging.page - 1) * paging.pageSize),
    db.select({ n: count() }).from(table).where(where),
  ]);
  return { rows: found as Awaited<Q>, total: total?.n ?? 0 };
}

/** `pageWithTotal` of `table`'s whole rows where `where`, in the `order` given. */
export async function pageOfRows<T extends PgTable>(
  db: Db,
  table: T,
  where: SQL | undefined,
  order: SQL[],
  paging: Paging,
): Promise<{ rows: T['$inferSelect'][]; total: number }> {
  const rows = db
    .select()
    .from(table as PgTable)
    .where(where)
    .orderBy(...order)
    .$dynamic();
  const page = await pageWithTotal(db, rows, table, where, paging);
  return { rows: page.rows as T['$inferSelect'][], total: page.total };
}
