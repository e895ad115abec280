import { connect, type Socket } from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCleanClosingSocket, postgresClient, withoutStaleRows } from '../src/db/postgres-transactions';
import { TEST_DATABASE_URL } from './support/test-db';

/**
 * Issue #10: a backend ended while a pooled statement streams its rows leaves postgres.js 3.4.9's
 * row count standing on the connection, and the first statement after the reconnect got its rows
 * behind that many holes (`[<4 990 empty items>, row]`): Drizzle read `undefined` as the first row.
 * The backend is ended at a known point here: the statement has sent ~4 990 rows and sleeps.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** 10 000 rows of 1 kB, sleeping at row 5 000: the rows before it are on their way to the client. */
const CUT_OFF = `select g, repeat('x', 1000) as pad, case when g = 5000 then pg_sleep(60)::text end as s
                 from generate_series(1, 10000) g`;

describe.skipIf(!TEST_DATABASE_URL)('rows after a backend ended mid-result (PostgreSQL only)', () => {
  const url = TEST_DATABASE_URL ?? '';
  let admin: postgres.Sql;
  beforeAll(() => {
    admin = postgres(url, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await admin.end({ timeout: 5 });
  });

  /** The backend of the only connection of `sql`. */
  async function backendPid(sql: postgres.Sql): Promise<number> {
    const [row] = await sql.unsafe<{ pid: number }[]>('select pg_backend_pid() as pid');
    if (!row) throw new Error('no backend pid');
    return row.pid;
  }

  /** Runs CUT_OFF on the only connection of `sql`, ends its backend mid-result, and waits for the loss. */
  async function cutOff(sql: { unsafe(text: string): PromiseLike<unknown> }, pid: number): Promise<unknown> {
    const outcome = Promise.resolve(sql.unsafe(CUT_OFF)).then(
      () => 'resolved',
      (err: { code?: string }) => err.code,
    );
    for (let i = 0; i < 200; i++) {
      const [row] = await admin<{ wait: string | null }[]>`
        select wait_event as wait from pg_stat_activity where pid = ${pid}`;
      if (row?.wait === 'PgSleep') break;
      await sleep(25);
    }
    await sleep(300); // the client reads the rows already sent
    await admin`select pg_terminate_backend(${pid})`;
    return outcome;
  }

  it('postgres.js itself hands the next statement its rows behind holes (the defect repaired here)', async () => {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const pid = await backendPid(sql);
      expect(await cutOff(sql, pid)).toBe('CONNECTION_CLOSED');
      // The stale FATAL answer fails the statement the connection reopens for (resent by our client).
      await expect(sql`select 1 as one`).rejects.toMatchObject({ code: '57P01', severity: 'FATAL' });
      const rows = await sql`select 1 as one`;
      // When this fails, postgres.js no longer leaves the count behind: withoutStaleRows may go.
      expect(rows.length, 'the holes left by the cut-off statement').toBeGreaterThan(1);
      expect(0 in rows).toBe(false);
      expect(rows.at(-1)).toEqual({ one: 1 });
    } finally {
      await sql.end({ timeout: 5 });
    }
  }, 60_000);

  for (const prepare of [true, false]) {
    it(`our pooled statements get exactly their rows (prepare: ${prepare})`, async () => {
      const sql = postgresClient(url, { max: 1, onnotice: () => {} });
      try {
        const pid = await backendPid(sql);
        expect(await cutOff(sql, pid)).toBe('CONNECTION_CLOSED');
        const rows = await sql.unsafe('select $1::int as one, $2::text as two', [1, 'b'], { prepare });
        expect([...rows]).toEqual([{ one: 1, two: 'b' }]);
        expect(rows.count).toBe(1);
        const values = await sql.unsafe('select g from generate_series(1, 3) g', [], { prepare }).values();
        expect([...values]).toEqual([[1], [2], [3]]);
      } finally {
        await sql.end({ timeout: 5 });
      }
    }, 60_000);
  }

  it('the same as the first statement after the reconnect, in array mode (as Drizzle reads)', async () => {
    const sql = postgresClient(url, { max: 1, onnotice: () => {} });
    try {
      const pid = await backendPid(sql);
      expect(await cutOff(sql, pid)).toBe('CONNECTION_CLOSED');
      const values = await sql.unsafe('select g, g * 2 from generate_series(1, 3) g').values();
      expect([...values]).toEqual([
        [1, 2],
        [2, 4],
        [3, 6],
      ]);
    } finally {
      await sql.end({ timeout: 5 });
    }
  }, 60_000);
});

/**
 * Issue #10: a statement pipelined on a busy connection between its socket's `error` and `close`
 * events. Plain postgres.js 3.4.9 never settles it: a request waiting for it hangs. Our client's socket reports every close as
 * clean, so the close fails the stranded statement as a lost connection (docs/SECURITY.md). The
 * socket is destroyed by hand, so the window is hit every time.
 */
describe.skipIf(!TEST_DATABASE_URL)('a statement sent between a socket error and its close', () => {
  // The body runs (to collect the tests) on the embedded database too, where there is no URL.
  const url = new URL(TEST_DATABASE_URL ?? 'postgres://127.0.0.1:5432/none');
  const settled = (p: PromiseLike<unknown>) =>
    Promise.race([
      Promise.resolve(p).then(
        () => 'resolved',
        (err: { code?: string }) => err.code ?? 'rejected',
      ),
      sleep(3000).then(() => 'pending'),
    ]);

  /** Destroys the socket under a running statement and sends one more in the window; the outcomes. */
  async function strand(openSocket: () => Socket) {
    let socket: Socket | undefined;
    // `socket` (a socket of our own) is an option of postgres.js that its types leave out.
    const options = {
      max: 1,
      onnotice: () => {},
      socket: () => {
        socket = openSocket();
        return socket;
      },
    };
    const sql = postgres(url.href, options);
    try {
      await sql`select 1`;
      const first = settled(sql`select pg_sleep(0.5)`);
      let inWindow: Promise<string> | undefined;
      await sleep(100);
      socket?.once('error', () => {
        inWindow = settled(sql`select 'b' as b`);
      });
      socket?.destroy(Object.assign(new Error('reset by the test'), { code: 'ECONNRESET' }));
      const firstOutcome = await first;
      await sleep(200);
      const windowOutcome = await inWindow;
      const next = await settled(sql`select 'd' as d`);
      return { firstOutcome, windowOutcome, next };
    } finally {
      await sql.end({ timeout: 1 });
    }
  }

  it('is failed as a lost connection by our socket, and the connection serves the next statement', async () => {
    const outcome = await strand(() =>
      openCleanClosingSocket({ host: [url.hostname], port: [Number(url.port || 5432)] }),
    );
    expect(outcome).toEqual({
      firstOutcome: 'ECONNRESET',
      windowOutcome: 'CONNECTION_CLOSED',
      next: 'resolved',
    });
  }, 20_000);

  it('never settles with a plain socket (the driver defect the socket works around)', async () => {
    const outcome = await strand(() => connect(Number(url.port || 5432), url.hostname));
    expect(outcome.firstOutcome).toBe('ECONNRESET');
    expect(outcome.windowOutcome).toBe('pending');
  }, 20_000);

  it('is what our client connects with', async () => {
    const sql = postgresClient(url.href, { max: 1, onnotice: () => {} });
    try {
      expect((sql.options as { socket?: unknown }).socket).toBe(openCleanClosingSocket);
      expect(await sql.unsafe('select 1 as one')).toEqual([{ one: 1 }]);
    } finally {
      await sql.end({ timeout: 1 });
    }
  });
});

describe('withoutStaleRows', () => {
  const result = (rows: unknown[], count: number | null, offset: number) => {
    const r: unknown[] & { count?: number | null } = [];
    rows.forEach((row, i) => {
      r[offset + i] = row;
    });
    r.count = count;
    return r;
  };

  it('leaves a sound result as it is, the same array', () => {
    const r = result([{ a: 1 }, { a: 2 }], 2, 0);
    expect(withoutStaleRows(r)).toBe(r);
    expect([...r]).toEqual([{ a: 1 }, { a: 2 }]);
    const empty = result([], 3, 0);
    expect(withoutStaleRows(empty)).toBe(empty);
  });

  it('takes the holes out in front of the rows, keeping the count on the result', () => {
    const r = result([{ a: 1 }, { a: 2 }], 2, 4990);
    const repaired = withoutStaleRows(r);
    expect(repaired).toBe(r);
    expect([...repaired]).toEqual([{ a: 1 }, { a: 2 }]);
    expect(repaired.count).toBe(2);
    // A command without a count (SHOW, EXPLAIN) is repaired as well.
    expect([...withoutStaleRows(result([['on']], null, 7))]).toEqual([['on']]);
  });

  it('refuses as a lost connection rows that disagree with the count or have holes between them', () => {
    expect(() => withoutStaleRows(result([{ a: 1 }], 2, 3))).toThrow(
      expect.objectContaining({ code: 'CONNECTION_CLOSED' }),
    );
    const gap = result([{ a: 1 }], null, 3);
    gap[6] = { a: 2 };
    expect(() => withoutStaleRows(gap)).toThrow(expect.objectContaining({ code: 'CONNECTION_CLOSED' }));
  });
});
