import { Socket } from 'node:net';
import postgres from 'postgres';

/**
 * Error codes of a connection to PostgreSQL that is gone or going: postgres.js's own, the socket's,
 * the SQLSTATEs of a terminated backend (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot
 * connect now), and 53300 (too many connections: the server or the role has no room for a new
 * connection now; nothing ran). Class 08 (connection exception) is matched by its prefix.
 */
const LOST_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

/**
 * Whether an error (or an error it wraps, as Drizzle's `DrizzleQueryError` wraps the driver's) says
 * the database connection was lost: the statement did not run or its transaction rolled back, and
 * the same request may succeed a moment later on a new connection.
 */
export function isConnectionLost(err: unknown): boolean {
  let e = err;
  for (let depth = 0; depth < 5 && e !== null && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (LOST_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Whether a statement failed without having run: postgres.js 3.4.9 hands a backend's FATAL
 * termination (57P01-57P03) only to a statement that was never sent. The statement in flight when a
 * backend ends fails with CONNECTION_CLOSED; the FATAL answer stays behind on the connection object and
 * fails the first statement after its reconnect (issue #10), and a FATAL during a connection's startup
 * fails the statement waiting for it. Either way, sending it again is safe.
 */
function neverRan(err: unknown): boolean {
  return (
    err instanceof postgres.PostgresError &&
    err.severity === 'FATAL' &&
    (err.code === '57P01' || err.code === '57P02' || err.code === '57P03')
  );
}

/** Sends of a statement that fails without having run (at most one per pooled connection). */
const NEVER_RAN_TRIES = 10;

async function retryingNeverRan<T>(send: () => PromiseLike<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      if (attempt >= NEVER_RAN_TRIES || !neverRan(err)) throw err;
    }
  }
}

/**
 * The rows of a statement without the holes a lost connection left in front of them (issue #10).
 *
 * postgres.js 3.4.9 counts the rows of the statement in flight in a variable of the connection
 * (`rows` in its connection.js: a DataRow stores its row at `result[rows++]`, CommandComplete sets it
 * back to 0). When the backend ends in the middle of a result, the count is not reset: the socket's
 * `closed` handler clears the input buffers, but not `rows`, nor the statement in flight and its
 * FATAL answer. On the reconnect that stale FATAL fails the statement the connection was opened for,
 * which also skips the array-type fetch that would otherwise have absorbed the stale count, and the
 * connection goes back to the pool with it. The next statement on that connection then stores its
 * rows from index `rows` on: `[<4 990 empty items>, row]`. The rows themselves are right and in
 * order; only the holes in front of them are wrong, so Drizzle found `undefined` for the first row
 * (the session lookup found no session and the request answered 401). A hole at index 0 cannot
 * happen otherwise (every DataRow stores a row), so the check costs nothing on a sound result.
 *
 * The holes are taken out in place (the driver's `count`, `command` and `columns` stay on the
 * result). Where the driver's count of the command disagrees with what is left, the result is not
 * trusted and the statement fails as on a lost connection (503) rather than answer wrong rows.
 */
export function withoutStaleRows<T>(rows: T): T {
  if (!Array.isArray(rows) || rows.length === 0 || 0 in rows) return rows;
  let first = 1;
  while (first < rows.length && !(first in rows)) first++;
  rows.splice(0, first);
  const count = (rows as { count?: unknown }).count;
  let sound = typeof count !== 'number' || count === rows.length;
  for (let i = 0; sound && i < rows.length; i++) sound = i in rows;
  if (!sound) {
    throw Object.assign(new Error('CONNECTION_CLOSED (rows out of place after a reconnect)'), {
      code: 'CONNECTION_CLOSED',
    });
  }
  return rows;
}

/**
 * A pooled statement as Drizzle uses it (awaited, or `.values()` first), sent again while it never
 * ran, its rows freed of the holes a lost connection leaves (`withoutStaleRows`).
 */
function pooled(sql: postgres.Sql, text: string, params: unknown[], options: { prepare?: boolean }) {
  let values = false;
  let outcome: Promise<unknown> | undefined;
  const send = () => {
    const statement = sql.unsafe(text, params as postgres.ParameterOrJSON<never>[], options);
    return (values ? statement.values() : statement).then(withoutStaleRows);
  };
  const statement = {
    values() {
      values = true;
      return statement;
    },
    // biome-ignore lint/suspicious/noThenProperty: Drizzle awaits the statement.
    then<A, B>(
      onDone?: (rows: unknown) => A | PromiseLike<A>,
      onFailed?: (err: unknown) => B | PromiseLike<B>,
    ) {
      outcome ??= retryingNeverRan<unknown>(send);
      return outcome.then(onDone, onFailed);
    },
  };
  return statement;
}

/** What Drizzle's postgres-js session uses of a client: statements and (nested) transactions. */
interface TxClient {
  unsafe(text: string, params?: unknown[], options?: { prepare?: boolean }): PromiseLike<unknown>;
  savepoint<T>(fn: (client: TxClient) => Promise<T>): Promise<T>;
}

/** postgres.js's connection object as it hands it to a statement's `onexecute` (not in its types). */
interface DriverConnection {
  id: number;
}

/** A statement that is not sent: it fails at once, and Drizzle may still ask for its `values()`. */
function refused(err: Error): PromiseLike<unknown> {
  const failed = Promise.reject(err);
  failed.catch(() => {});
  return Object.assign(failed, { values: () => failed });
}

function connectionClosed(): Error {
  return Object.assign(new Error('write CONNECTION_CLOSED (the transaction lost its connection)'), {
    code: 'CONNECTION_CLOSED',
  });
}

/**
 * A socket whose `close` event never says "had an error", for postgres.js (its `socket` option).
 *
 * Why (issue #10): postgres.js 3.4.9 fails a connection's queued statements when its socket closes
 * cleanly, but not after a socket error, on the ground that the error handler already failed them.
 * A statement issued between the `error` and the `close` (from a microtask of the error's
 * rejections, when the pool is busy) is queued behind the dead one after that handler ran; nothing
 * fails it, it stays in the queue across the reconnect, and the connection then waits for the answer
 * to a statement it never sent: the statement never settles and the connection never comes back to
 * the pool. Reporting every close as clean makes the close fail whatever is still queued with
 * CONNECTION_CLOSED (a lost connection, 503); the statements the error handler failed already are not
 * touched twice (a settled promise stays settled). The only other use of the flag is the reconnect
 * back-off's retry count, which then stays at its first step (a few milliseconds).
 *
 * The socket is connected here (postgres.js connects only sockets it makes itself), to the first
 * host of the URL, or to its Unix socket path: one host, as `DATABASE_URL` names.
 */
export class CleanClosingSocket extends Socket {
  override emit(event: string | symbol, ...args: unknown[]): boolean {
    return event === 'close' ? super.emit('close', false) : super.emit(event, ...args);
  }
}

/** The `socket` option of postgres.js: a CleanClosingSocket connecting to the client's database. */
export function openCleanClosingSocket(options: { host: string[]; port: number[]; path?: string | false }) {
  const socket = new CleanClosingSocket();
  if (options.path) socket.connect(options.path);
  else socket.connect(options.port[0] ?? 5432, options.host[0] ?? 'localhost');
  return socket;
}

/**
 * A postgres.js client whose transactions never write to a connection that is gone, for Drizzle.
 *
 * Why (issue #10): postgres.js 3.4.9 sets a connection's socket to null when the socket closes, but
 * a transaction keeps the connection and goes on writing to it: `sql.begin` sends its own ROLLBACK
 * after the statement that failed with CONNECTION_CLOSED, and a bulk write has further statements
 * queued. The write is deferred to a `setImmediate`, where `socket.write` throws `TypeError: Cannot
 * read properties of null (reading 'write')` outside any promise, and the process exits
 * (porsager/postgres#1154, #1208; the guard of PR #1168/#1209 is not released). With `sql.begin` the
 * fatal write is the driver's own, so no caller can avoid it. Pooled statements are not affected: a
 * closed connection leaves the pool's queues and reconnects before its next statement.
 *
 * So transactions are run here, over `sql.reserve()`, with the same BEGIN / COMMIT / ROLLBACK,
 * savepoints and "a failed statement fails the transaction" rule as `sql.begin`, and one more: once
 * the transaction's connection is lost (the pool's `onclose` names it, or a statement fails with a
 * lost-connection error), nothing more is sent on it, not even ROLLBACK (PostgreSQL rolls back a
 * transaction whose session ended), the reservation is not handed back, and the transaction fails
 * at once with the loss even when statements still wait in the reservation's queue (the driver never
 * settles those). Statements issued after the transaction ended are refused as well, so a straggler
 * of a failed bulk write can never run outside its transaction on a connection back in the pool.
 * The id of the reserved connection is learnt from `onexecute`, the option `sql.begin` itself uses.
 *
 * One more defect of the same version: a connection whose backend ended during a statement keeps the
 * backend's FATAL answer and fails the first statement after its reconnect with it, so after an
 * outage each such connection would fail one more request. Pooled statements and reservations that
 * fail that way never ran, and are sent again (`neverRan`). Such a connection also keeps the row
 * count of the statement that was cut off, and the first statement it runs afterwards gets its rows
 * behind as many holes: pooled statements are freed of them (`withoutStaleRows`); a transaction's
 * first statement is its BEGIN, which has no rows and resets the count.
 */
export function postgresClient(
  url: string,
  options: { max: number; onnotice: () => void; plans?: 'custom' | 'generic' },
): postgres.Sql {
  const { plans = 'custom', ...rest } = options;
  const lostOn = new Map<number, () => void>();
  const sql = postgres(url, {
    ...rest,
    // Prepared statements (db/prepared.ts, db/bulk.ts) are planned for their parameters on every
    // call, as unprepared ones are: a generic plan of the invoice list does not know its LIMIT nor
    // its search pattern, and sorted all of an issuer's invoices (23 answers/s instead of 440).
    // `generic`: the pool of lookups by key (db/client.ts `lookupsOf`), planned once per connection.
    connection: { plan_cache_mode: plans === 'generic' ? 'force_generic_plan' : 'force_custom_plan' },
    onclose: (id) => lostOn.get(id)?.(),
    // `socket` is an option of postgres.js that its types leave out.
    ...({ socket: openCleanClosingSocket } as object),
  });

  async function begin<T>(fn: (client: TxClient) => Promise<T>): Promise<T> {
    const reserved = await retryingNeverRan(() => sql.reserve());
    let connectionId: number | undefined;
    let lost: Error | undefined;
    let ended = false;
    let signalLost: (err: Error) => void = () => {};
    const whenLost = new Promise<never>((_, reject) => {
      signalLost = reject;
    });
    whenLost.catch(() => {});
    const markLost = (err: Error) => {
      if (lost) return;
      lost = err;
      signalLost(err);
    };
    /** A statement of the transaction, or of the driver's connection loss the moment it is known. */
    const settled = <R>(statement: PromiseLike<R>) => Promise.race([statement, whenLost]);
    /** BEGIN, COMMIT and ROLLBACK: a socket error on them also marks the connection lost. */
    const control = (text: string, options?: postgres.UnsafeQueryOptions) => {
      const statement = reserved.unsafe(text, [], options);
      statement.catch((err: Error) => {
        if (isConnectionLost(err)) markLost(err);
      });
      return settled(statement);
    };

    let savepoints = 0;
    const scope = () => {
      const state: { firstError?: unknown } = {};
      const client: TxClient = {
        unsafe(text, params = [], opts = {}) {
          if (lost) return refused(lost);
          if (ended) return refused(new Error('statement after the end of its transaction'));
          const statement = reserved.unsafe(text, params as postgres.ParameterOrJSON<never>[], opts);
          // First in line for the outcome: the loss is known before the caller's code goes on.
          statement.catch((err: Error) => {
            if (isConnectionLost(err)) markLost(err);
            state.firstError ??= err;
          });
          return statement;
        },
        async savepoint(inner) {
          const name = `s${++savepoints}`;
          const child = scope();
          await settled(client.unsafe(`savepoint ${name}`));
          try {
            const result = await settled(inner(child.client));
            if (child.state.firstError) throw child.state.firstError;
            return result;
          } catch (err) {
            await settled(client.unsafe(`rollback to ${name}`));
            throw firstCause(err, child.state.firstError);
          }
        },
      };
      return { client, state };
    };

    const top = scope();
    try {
      await control('begin', {
        onexecute: (connection: DriverConnection) => {
          connectionId = connection.id;
          lostOn.set(connection.id, () => markLost(connectionClosed()));
          return true;
        },
      } as postgres.UnsafeQueryOptions);
      if (connectionId === undefined) throw new Error('postgres.js did not name the connection of BEGIN');
      const work = Promise.resolve().then(() => fn(top.client));
      work.catch(() => {});
      let result: T;
      try {
        result = await settled(work);
        if (top.state.firstError) throw top.state.firstError;
      } catch (err) {
        if (!lost) await control('rollback');
        throw firstCause(err, top.state.firstError);
      }
      await control('commit');
      return result;
    } catch (err) {
      throw lost ?? err;
    } finally {
      ended = true;
      if (connectionId !== undefined) lostOn.delete(connectionId);
      if (!lost) reserved.release();
    }
  }

  const unsafe = (text: string, params: unknown[] = [], options: { prepare?: boolean } = {}) =>
    pooled(sql, text, params, options);
  return { ...sql, unsafe, begin } as unknown as postgres.Sql;
}

/** As `sql.begin`: "current transaction is aborted" stands for the statement that aborted it. */
function firstCause(err: unknown, first: unknown): unknown {
  return err instanceof postgres.PostgresError && err.code === '25P02' && first ? first : err;
}

/**
 * Keeps a lost connection's rejection that postgres.js leaves unhandled from ending the process.
 * postgres.js 3.4.9 fetches the array types of every new connection from an async function that
 * nothing awaits (`fetchArrayTypes` in its connection.js): a backend ended during that fetch rejects
 * it with CONNECTION_CLOSED and no handler, and Node ends the process on an unhandled rejection. The
 * connection itself reconnects, and the statement that waited for it is retried or failed by the
 * driver, so such a rejection is only logged. Any other unhandled rejection still ends the process.
 */
export function keepUnhandledConnectionLoss(log: (err: unknown) => void): void {
  process.on('unhandledRejection', (reason) => {
    if (!isConnectionLost(reason)) throw reason;
    log(reason);
  });
}
