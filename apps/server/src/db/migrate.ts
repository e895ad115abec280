import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { serverRoot } from '../config';
import type { Db } from './client';

/** Any constant; every server takes the same PostgreSQL advisory lock while it migrates. */
const MIGRATION_LOCK_ID = 727_001;

interface Journal {
  entries: { idx: number; tag: string }[];
}

export function migrationsDir(): string {
  return join(serverRoot(), 'migrations');
}

/**
 * Applies the committed drizzle-kit migrations in order, in one transaction, under an advisory lock:
 * when several servers start at once, one migrates and the others wait and then find nothing to do.
 * Returns the names applied now.
 */
export async function migrate(db: Db, dir = migrationsDir()): Promise<string[]> {
  const journal = JSON.parse(readFileSync(join(dir, 'meta', '_journal.json'), 'utf8')) as Journal;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
    await tx.execute(sql`create table if not exists schema_migrations (
      name text primary key,
      applied_at timestamptz not null default now()
    )`);
    const done = await tx.execute<{ name: string }>(sql`select name from schema_migrations`);
    const applied = new Set(rows<{ name: string }>(done).map((r) => r.name));
    const now: string[] = [];
    for (const entry of [...journal.entries].sort((a, b) => a.idx - b.idx)) {
      if (applied.has(entry.tag)) continue;
      const text = readFileSync(join(dir, `${entry.tag}.sql`), 'utf8');
      for (const statement of text.split('--> statement-breakpoint')) {
        if (statement.trim()) await tx.execute(sql.raw(statement));
      }
      await tx.execute(sql`insert into schema_migrations (name) values (${entry.tag})`);
      now.push(entry.tag);
    }
    return now;
  });
}

/** Rows of `db.execute`, whose shape differs between the PGlite and postgres-js drivers. */
export function rows<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
