import { getTableColumns, getTableName, is, SQL, sql } from 'drizzle-orm';
import { type PgColumn, PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client';

/** Rows per statement of `bulkInsert`: one array parameter per column, so no parameter limit applies. */
export const BULK_CHUNK = 10_000;

/** Matches what needs a backslash inside a quoted element of a PostgreSQL array literal. */
const NEEDS_ESCAPE = /["\\]/g;

/** A value as the text PostgreSQL reads for it: numbers as they are, objects as JSON (for jsonb). */
function valueText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (v instanceof Date) return v.toISOString();
  return JSON.stringify(v);
}

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
    else parts[i] = `"${valueText(v).replace(NEEDS_ESCAPE, '\\$&')}"`;
  }
  return `{${parts.join(',')}}`;
}

/**
 * A column that `bulkInsert` writes: its SQL name and type, the key of a row that holds its value, and
 * the value of a row that leaves the key out.
 */
interface BulkColumn {
  name: string;
  type: string;
  key: string;
  fallback: unknown;
}

type Row = Readonly<Record<string, unknown>>;

/** A row's value of a column, or the column's fallback when the row leaves it out. */
const cellOf = (row: Row | undefined, column: BulkColumn): unknown => row?.[column.key] ?? column.fallback;

/** Whether every row has the same primitive value (or null) in `column`: then it travels once. */
function sameInEveryRow(rows: readonly Row[], column: BulkColumn): boolean {
  const first = cellOf(rows[0], column) ?? null;
  if (first !== null && typeof first === 'object' && !(first instanceof Date)) return false;
  const key = first instanceof Date ? first.getTime() : first;
  for (let i = 1; i < rows.length; i++) {
    const v = cellOf(rows[i], column) ?? null;
    if ((v instanceof Date ? v.getTime() : v) !== key) return false;
  }
  return true;
}

/**
 * Inserts many rows with one statement per chunk: each column travels as one array parameter that
 * PostgreSQL unzips with `unnest`, and a column with the same value in every row of the chunk (the
 * file, the currency, the time of an import) as that one value. That is several times faster than a
 * multi-row VALUES of the query builder (no per-value parameters to build and bind) and about a third
 * faster than one JSON document unpacked with `jsonb_to_recordset` (no JSON to parse and look keys up
 * in; docs/BENCHMARKS.md). `columns` maps each column to its SQL type, and each row holds a column's
 * value under its name; table and column names come from code, never input.
 */
export async function bulkInsert(
  tx: Tx | Db,
  table: string,
  columns: Readonly<Record<string, string>>,
  rows: readonly Row[],
): Promise<void> {
  const written = Object.entries(columns).map(([name, type]) => ({ name, type, key: name, fallback: null }));
  await insertColumns(tx, table, written, rows);
}

/**
 * `bulkInsert` of a Drizzle table's rows as the query builder takes them (`$inferInsert`): `types`
 * names by their keys the columns written and gives each its SQL type; the SQL names come from the
 * table. A key a row leaves out is written as its column's default: a constant one as it is, a time's
 * (now()) as the time of this call, and null for a column without one.
 */
export async function bulkInsertRows<T extends PgTable>(
  tx: Tx | Db,
  table: T,
  types: { readonly [K in keyof T['$inferInsert']]?: string },
  rows: readonly T['$inferInsert'][],
): Promise<void> {
  const tableColumns: Record<string, PgColumn> = getTableColumns(table);
  const now = new Date();
  const written = Object.entries(types as Record<string, string>).map(([key, type]) => {
    const column = tableColumns[key];
    if (!column) throw new Error(`bulk insert: ${getTableName(table)} has no column ${key}`);
    return { name: column.name, type, key, fallback: defaultOf(column, now) };
  });
  await insertColumns(tx, getTableName(table), written, rows);
}

/** What a row that leaves `column` out is written with (`bulkInsertRows`). */
function defaultOf(column: PgColumn, now: Date): unknown {
  if (!column.hasDefault || column.default === undefined) return null;
  if (!is(column.default, SQL)) return column.default;
  return column.columnType === 'PgTimestamp' ? now : null;
}

async function insertColumns(
  tx: Tx | Db,
  table: string,
  columns: readonly BulkColumn[],
  rows: readonly Row[],
): Promise<void> {
  const list = sql.raw(columns.map((c) => c.name).join(', '));
  for (let i = 0; i < rows.length; i += BULK_CHUNK) {
    const chunk = rows.slice(i, i + BULK_CHUNK);
    const arrays: SQL[] = [];
    const unzipped: string[] = [];
    const selected = columns.map((column) => {
      const type = sql.raw(column.type);
      if (sameInEveryRow(chunk, column)) {
        const v = cellOf(chunk[0], column) ?? null;
        // Sent as text and cast by the server: postgres.js serializes a parameter by the type the
        // server describes, and its boolean serializer turns any string, even 'true', into false.
        return sql`${v === null ? null : valueText(v)}::text::${type}`;
      }
      arrays.push(sql`${arrayLiteral(chunk.map((row) => cellOf(row, column)))}::${type}[]`);
      unzipped.push(column.name);
      return sql.raw(`u.${column.name}`);
    });
    // With every column the same (one row, or identical rows) there is nothing to unzip but the count.
    if (unzipped.length === 0) {
      arrays.push(sql`${arrayLiteral(chunk.map(() => 0))}::int[]`);
      unzipped.push('n');
    }
    // Only bulk-sized statements are prepared: which columns travel as one value depends on the rows,
    // and every shape prepared stays on its connection.
    await (chunk.length >= PREPARE_FROM_ROWS ? executePrepared : execute)(
      tx,
      sql`insert into ${sql.raw(table)} (${list})
          select ${sql.join(selected, sql`, `)}
          from unnest(${sql.join(arrays, sql`, `)}) as u(${sql.raw(unzipped.join(', '))})`,
    );
  }
}

const dialect = new PgDialect();

/** Rows from which `bulkInsert` prepares its statement (an import's batches; not a single journal). */
const PREPARE_FROM_ROWS = 1_000;

async function execute(tx: Tx | Db, query: SQL): Promise<void> {
  await tx.execute(query);
}

/**
 * Runs a statement that returns no rows as a prepared statement, so that statements issued together
 * travel together. Drizzle's `execute` sends an unnamed statement with parameters, which postgres.js
 * first has the server describe, and it binds the parameters only once that answer is back: two round
 * trips per statement, and the connection takes no other statement meanwhile, so the server waits
 * on Node twice for every statement of a bulk write. A prepared statement is described once per
 * connection (postgres.js keeps it by its text); after that each use is one message, queued behind the
 * statements before it without waiting. On PGlite, in the same process, it is the same as `execute`.
 * Named statements need a connection of their own for the session: PostgreSQL itself or a pooler in
 * session mode, not one in transaction mode (README, DATABASE_URL).
 */
export async function executePrepared(tx: Tx | Db, query: SQL): Promise<void> {
  // Any name makes drizzle ask postgres.js to prepare; postgres.js names the statement itself.
  await tx._.session.prepareQuery(dialect.sqlToQuery(query), undefined, 'portal_bulk', false).execute();
}
