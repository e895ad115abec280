import type { SQL } from 'drizzle-orm';
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
  // Any name makes drizzle ask postgres.js to prepare; postgres.js names the statement itself.
  return rows<T>(
    await db._.session.prepareQuery(dialect.sqlToQuery(query), undefined, 'portal_read', false).execute(),
  );
}
