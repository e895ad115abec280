import { sql } from 'drizzle-orm';
import type { Db, Tx } from './client';

/** Rows per statement of `bulkInsert`: one JSON parameter each, so no parameter limit applies. */
export const BULK_CHUNK = 10_000;

/**
 * Inserts many rows with one statement per chunk: the rows travel as one JSON parameter that
 * PostgreSQL unpacks with `jsonb_to_recordset`, which is several times faster than a multi-row VALUES
 * of the query builder for tens of thousands of rows (no per-value parameters to build and bind).
 * `columns` maps each column to its SQL type; table and column names come from code, never input.
 */
export async function bulkInsert(
  tx: Tx | Db,
  table: string,
  columns: Readonly<Record<string, string>>,
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  const names = Object.keys(columns);
  const list = names.join(', ');
  const shape = names.map((n) => `${n} ${columns[n]}`).join(', ');
  for (let i = 0; i < rows.length; i += BULK_CHUNK) {
    const chunk = rows.slice(i, i + BULK_CHUNK);
    await tx.execute(
      sql`insert into ${sql.raw(table)} (${sql.raw(list)})
          select ${sql.raw(list)} from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) as x(${sql.raw(shape)})`,
    );
  }
}
