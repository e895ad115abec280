import { createHash } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
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
  /** Embedded only: an archive of the whole data folder (loadable again through openEmbedded's `from`). */
  dump?(): Promise<Blob>;
}

export class DataDirLockedError extends Error {}

/**
 * PGlite keeps one connection in one process. Two processes on one folder silently lose committed
 * data, so the folder is locked; a second process refuses to start.
 *
 * On Linux the lock is a Unix socket bound in the abstract namespace under a name made from the
 * folder's real path. The kernel frees the name when the holder's descriptors close, which happens
 * as it dies, even by kill -9 and before its parent has reaped it; nothing is left behind on disk
 * that a later start would have to judge. The pid file `portal.lock` is then only information: the
 * message of a refused start names the holder. Elsewhere the pid file is the lock, and one left by
 * a process that no longer runs is taken over.
 */
const LOCK_RETRY_MS = 2000;

async function lockDataDir(dataDir: string): Promise<() => void> {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = join(dataDir, 'portal.lock');
  if (process.platform !== 'linux') return lockWithPidFile(dataDir, lockFile);
  const name = `\0portal-data-dir-${createHash('sha256').update(realpathSync(dataDir)).digest('hex').slice(0, 40)}`;
  const server = createServer((socket) => socket.destroy());
  const bind = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ path: name, exclusive: true }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  // A holder that is dying frees the name when the last of its threads has exited: a start right
  // at that moment tries again for a little while before it refuses.
  const giveUpAt = Date.now() + LOCK_RETRY_MS;
  for (;;) {
    try {
      await bind();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      if (Date.now() >= giveUpAt) throw new DataDirLockedError(inUseMessage(dataDir, readPid(lockFile)));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  // The lock must not keep the process alive by itself.
  server.unref();
  writeFileSync(lockFile, String(process.pid));
  return () => {
    if (readPid(lockFile) === process.pid) rmSync(lockFile, { force: true });
    server.close();
  };
}

function readPid(lockFile: string): number | null {
  try {
    return Number(readFileSync(lockFile, 'utf8').trim()) || null;
  } catch {
    return null;
  }
}

function inUseMessage(dataDir: string, pid: number | null): string {
  return (
    `The data folder ${dataDir} is in use by another server process${pid ? ` (pid ${pid})` : ''}. ` +
    'The embedded database allows one process per folder: stop that process, or give this one ' +
    'its own DATA_DIR, or use DATABASE_URL for several servers.'
  );
}

function lockWithPidFile(dataDir: string, lockFile: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = readPid(lockFile);
      if (pid && pid !== process.pid && isRunning(pid))
        throw new DataDirLockedError(inUseMessage(dataDir, pid));
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

/** One turn of the event loop: timers, and reading what has arrived on the sockets. */
const turnOfTheLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The longest the embedded database works before it gives the event loop a turn. */
const LOOP_TURN_EVERY_MS = 10;

/**
 * PGlite runs each query synchronously on this thread, and the promises of a request's queries resolve
 * one another without ever giving the event loop a turn: while one request works, no other is even
 * read, so no bound of the application sees the crowd (it waits in the kernel's backlog) and the health
 * check waits behind it. So a query first gives the loop a turn when the database has been at work for
 * `LOOP_TURN_EVERY_MS` since the last one: arrived requests are read and admitted, queued or refused
 * (lib/db-gate.ts), and health answers, while the admitted requests do not wait a turn at every query.
 *
 * Queries reach PGlite in the order they were called, as on a PostgreSQL connection: while one waits
 * for its turn, every later one waits behind it for the same turn, even one that would not have to
 * wait by itself. A transaction's statements rely on that order (an import reads which payments an
 * earlier batch wrote after sending that batch's insert); a query that slipped past a waiting one
 * would read the database before the write it was called after.
 */
function yieldingBeforeQueries<T extends PGlite | Transaction>(
  target: T,
  turns: LoopTurns = { last: performance.now(), pending: null },
): T {
  /** The turn to wait for before the query goes on, or null to go on at once. */
  const turnBeforeQuery = (): Promise<void> | null => {
    if (turns.pending) return turns.pending;
    if (performance.now() - turns.last < LOOP_TURN_EVERY_MS) return null;
    // Cleared before the waiting queries go on (this callback runs before their continuations).
    turns.pending = turnOfTheLoop().then(() => {
      turns.last = performance.now();
      turns.pending = null;
    });
    return turns.pending;
  };
  return new Proxy(target, {
    get(obj, prop) {
      const value = Reflect.get(obj, prop);
      if (prop === 'query' || prop === 'exec')
        return async (...args: unknown[]) => {
          const turn = turnBeforeQuery();
          if (turn) await turn;
          return (value as (...a: unknown[]) => Promise<unknown>).apply(obj, args);
        };
      if (prop === 'transaction')
        return (fn: (tx: Transaction) => Promise<unknown>, ...rest: unknown[]) =>
          (value as (...a: unknown[]) => Promise<unknown>).call(
            obj,
            (tx: Transaction) => fn(yieldingBeforeQueries(tx, turns)),
            ...rest,
          );
      return typeof value === 'function' ? value.bind(obj) : value;
    },
  });
}

/** When the embedded database last gave the loop a turn, and the turn queries wait for now, if any. */
interface LoopTurns {
  last: number;
  pending: Promise<void> | null;
}

/** PGlite with its data in a folder, or in memory when `dataDir` is undefined (tests). */
export async function openEmbedded(
  dataDir: string | undefined,
  opts: { from?: Blob } = {},
): Promise<Database> {
  const unlock = dataDir ? await lockDataDir(dataDir) : () => {};
  try {
    // `from`: the archive of a data folder to start from (tests start from a seeded one).
    const client = dataDir
      ? new PGlite(join(dataDir, 'pg'), { loadDataDir: opts.from })
      : new PGlite({ loadDataDir: opts.from });
    await client.waitReady;
    const db = drizzlePglite(yieldingBeforeQueries(client), { schema }) as unknown as Db;
    return {
      db,
      kind: 'embedded',
      close: async () => {
        await client.close();
        unlock();
      },
      dump: () => client.dumpDataDir('none'),
    };
  } catch (err) {
    unlock();
    throw err;
  }
}

/** The most connections the pool of lookups by key opens, whatever the main pool's size. */
const LOOKUP_CONNECTIONS = 4;
/** The pool of lookups by key of each PostgreSQL database (`lookupsOf`). */
const lookupPools = new WeakMap<Db, Db>();

/**
 * Where to run a statement that finds rows by a key whose plan does not depend on its values (the
 * session of every request by its token, an invoice's detail by its id): on PostgreSQL a second pool
 * whose connections plan each prepared statement once (`force_generic_plan`), on PGlite and in a
 * transaction the database itself. The main pool plans every call for its values, which the lists
 * and sums need (a generic plan cannot tell a small issuer from the big one); for a lookup by key
 * that planning cost several times the statement's run (docs/BENCHMARKS.md, "Plans made once").
 * A statement run here must read by a unique key or a short index range whatever its values are.
 */
export function lookupsOf<D extends Db | Tx>(db: D): D {
  return (lookupPools.get(db as Db) as D | undefined) ?? db;
}

/** PostgreSQL through postgres.js, with transactions that survive a lost connection (issue #10). */
export async function openPostgres(url: string, max = 10): Promise<Database> {
  const client = postgresClient(url, { max, onnotice: () => {} });
  const db = drizzlePostgres(client, { schema }) as unknown as Db;
  // Connections are opened when a statement needs one: the lookups' pool costs nothing until used.
  // Its statements take a fraction of a millisecond, so a few connections serve it (2 instead of 10
  // did not change the bench's list): the server opens at most `max` + LOOKUP_CONNECTIONS.
  const lookupClient = postgresClient(url, {
    max: Math.min(max, LOOKUP_CONNECTIONS),
    onnotice: () => {},
    plans: 'generic',
  });
  lookupPools.set(db, drizzlePostgres(lookupClient, { schema }) as unknown as Db);
  return {
    db,
    kind: 'postgres',
    close: async () => {
      await Promise.all([client.end({ timeout: 5 }), lookupClient.end({ timeout: 5 })]);
    },
  };
}
