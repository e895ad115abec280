import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { postgresClient } from './postgres-transactions';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  /** 'embedded' is PGlite in this process; 'postgres' a PostgreSQL server. */
  kind: 'embedded' | 'postgres';
  close(): Promise<void>;
}

export class DataDirLockedError extends Error {}

/**
 * PGlite keeps one connection in one process. Two processes on one folder silently lose committed
 * data, so the folder is locked with a pid file; a second process refuses to start. A lock left by a
 * process that no longer runs is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = join(dataDir, 'portal.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(lockFile, 'utf8').trim());
      if (pid && pid !== process.pid && isRunning(pid)) {
        throw new DataDirLockedError(
          `The data folder ${dataDir} is in use by another server process (pid ${pid}). ` +
            'The embedded database allows one process per folder: stop that process, or give this one ' +
            'its own DATA_DIR, or use DATABASE_URL for several servers.',
        );
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new DataDirLockedError(`could not lock ${dataDir}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** PGlite with its data in a folder, or in memory when `dataDir` is undefined (tests). */
export async function openEmbedded(dataDir: string | undefined): Promise<Database> {
  const unlock = dataDir ? lockDataDir(dataDir) : () => {};
  try {
    const client = dataDir ? new PGlite(join(dataDir, 'pg')) : new PGlite();
    await client.waitReady;
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    return {
      db,
      kind: 'embedded',
      close: async () => {
        await client.close();
        unlock();
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}

/** PostgreSQL through postgres.js, with transactions that survive a lost connection (issue #10). */
export async function openPostgres(url: string, max = 10): Promise<Database> {
  const client = postgresClient(url, { max, onnotice: () => {} });
  const db = drizzlePostgres(client, { schema }) as unknown as Db;
  return { db, kind: 'postgres', close: () => client.end({ timeout: 5 }) };
}
