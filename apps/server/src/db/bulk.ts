import { sql } from 'drizzle-orm';
import type { Db, Tx } from './client';

/** Rows per statement of `bulkInsert`: one array parameter per column, so no parameter limit applies. */
export const BULK_CHUNK = 10_000;

/** Matches what needs a backslash inside a quoted element of a PostgreSQL array literal. */
const NEEDS_ESCAPE = /["\\]/g;

/**
 * One column of values as the text of a PostgreSQL array literal (`{1,NULL,"a \"b\""}`). Numbers go
 * bare, null and undefined as NULL, objects as their JSON (for jsonb), everything else as a quoted,
 * escaped string, so any text (a payer's name from a file) arrives exactly as it was.
 */
export function arrayLiteral(values: readonly unknown[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) parts[i] = 'NULL';
    else if (typeof v === 'number' || typeof v === 'bigint') parts[i] = String(v);
    else {
      const s = typeof v === 'string' ? v : v instanceof Date ? v.toISOString() : JSON.stringify(v);
      parts[i] = `"${s.replace(NEEDS_ESCAPE, '\\$&')}"`;
    }
  }
  return `{${parts.join(',')}}`;
}

/**
 * Inserts many rows with one statement per chunk: each column travels as one array parameter that
 * PostgreSQL unzips with `unnest`. That is several times faster than a multi-row VALUES of the query
 * builder (no per-value parameters to build and bind) and about a third faster than one JSON document
 * unpacked with `jsonb_to_recordset` (no JSON to parse and look keys up in; docs/BENCHMARKS.md).
 * `columns` maps each column to its SQL type; table and column names come from code, never input.
 */
export async function bulkInsert(
  tx: Tx | Db,
  table: string,
  columns: Readonly<Record<string, string>>,
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  const names = Object.keys(columns);
  const list = sql.raw(names.join(', '));
  for (let i = 0; i < rows.length; i += BULK_CHUNK) {
    const chunk = rows.slice(i, i + BULK_CHUNK);
    const arrays = names.map(
      (name) => sql`${arrayLiteral(chunk.map((row) => row[name]))}::${sql.raw(columns[name] as string)}[]`,
    );
    await tx.execute(
      sql`insert into ${sql.raw(table)} (${list}) select * from unnest(${sql.join(arrays, sql`, `)})`,
    );
  }
}
