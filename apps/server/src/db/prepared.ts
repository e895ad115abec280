import type { Query, SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client';
import { rows } from './migrate';

const dialect = new PgDialect();

/**
 * The rows of a statement run as a prepared statement (db/bulk.ts `executePrepared` says why): on
 * PostgreSQL, postgres.js prepares each statement text once per connection and after that sends it
 * in one message, without waiting for the server to describe it first, and the server may reuse its
 * plan. For the hot reads (the invoice list and detail, the session of every request): each is then
 * one round trip instead of two, without planning on every call. On PGlite it is the same as
 * `execute`. The statement's text should take a bounded number of shapes: each shape stays prepared
 * on its connection.
 */
export async function selectPrepared<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  return executeQuery<T>(db, dialect.sqlToQuery(query), undefined);
}

async function executeQuery<T>(db: Db | Tx, query: Query, values: Record<string, unknown> | undefined) {
  // Any name makes drizzle ask postgres.js to prepare; postgres.js names the statement itself.
  return rows<T>(await db._.session.prepareQuery(query, undefined, 'portal_read', false).execute(values));
}

/** Statement texts kept at the most; a shape beyond them is built again when it comes back. */
const SHAPES_KEPT = 500;
const shapes = new Map<string, Query>();

/**
 * `selectPrepared` for a statement of many shapes whose values are placeholders
 * (`sql.placeholder(name)`): `build` runs once per `shape` (a key naming everything that changes the
 * text) and `values` fill the placeholders on every call. Building a large statement with drizzle
 * costs more of the server's CPU than PostgreSQL spends running it (a profile of the invoice list
 * under load: about a quarter of the server's time was drizzle's `sql` building), so the hot lists
 * build their text once. The texts are the same for every database, so they are kept once per process.
 */
export async function selectPreparedShape<T>(
  db: Db | Tx,
  shape: string,
  build: () => SQL,
  values: Record<string, unknown>,
): Promise<T[]> {
  let query = shapes.get(shape);
  if (!query) {
    query = dialect.sqlToQuery(build());
    if (shapes.size >= SHAPES_KEPT) shapes.delete(shapes.keys().next().value as string);
    shapes.set(shape, query);
  }
  return executeQuery<T>(db, query, values);
}

/**
 * A value made once per database and kept as long as the database object lives: for a prepared
 * query built with drizzle's query builder (`.prepare(name)`), which then costs nothing to build
 * on each call (see `selectPreparedShape`).
 */
export function perDatabase<D extends object, V>(make: (db: D) => V): (db: D) => V {
  const made = new WeakMap<D, V>();
  return (db) => {
    let value = made.get(db);
    if (value === undefined) {
      value = make(db);
      made.set(db, value);
    }
    return value;
  };
}
