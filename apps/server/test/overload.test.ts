import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app';
import { type Db, lookupsOf, openEmbedded, openPostgres } from '../src/db/client';
import { loginFailures } from '../src/db/schema';
import { createDbGate } from '../src/lib/db-gate';
import { createHealthCheck, HEALTH_CHECK_DEFAULTS } from '../src/lib/health';
import { bearer, createTestApp, type TestApp } from './support/test-app';
import { TEST_DATABASE_URL } from './support/test-db';

/** A promise and the function that settles it. */
function latch(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Waits (without a clock) until `n` of the given requests have their answer. */
async function untilAnswered(requests: Promise<unknown>[], n: number): Promise<void> {
  let done = 0;
  const counted = requests.map((r) => r.then(() => done++));
  for (let spins = 0; done < n; spins++) {
    if (spins > 10_000) throw new Error(`only ${done} of ${n} answered`);
    await Promise.race([...counted, new Promise((r) => setTimeout(r, 5))]);
  }
}

describe('the gate of the embedded database', () => {
  it('lets `concurrency` in, queues up to `queueLimit` in order, refuses the rest at once', async () => {
    const gate = createDbGate({ concurrency: 2, queueLimit: 2, maxWaitMs: 60_000 });
    const tickets = Array.from({ length: 6 }, () => gate.enter());
    const settled: (boolean | 'waiting')[] = tickets.map(() => 'waiting');
    tickets.forEach((t, i) => {
      t.admitted.then((ok) => {
        settled[i] = ok;
      });
    });
    await new Promise((r) => setImmediate(r));
    expect(settled).toEqual([true, true, 'waiting', 'waiting', false, false]);
    expect([gate.atWork(), gate.waiting()]).toEqual([2, 2]);

    tickets[1]?.leave();
    tickets[1]?.leave(); // twice frees one place only
    await new Promise((r) => setImmediate(r));
    expect(settled).toEqual([true, true, true, 'waiting', false, false]);
    expect([gate.atWork(), gate.waiting()]).toEqual([2, 1]);

    // A waiter whose client went away gives its place in the queue to the next one.
    tickets[3]?.cancel();
    await new Promise((r) => setImmediate(r));
    expect(settled[3]).toBe(false);
    expect(gate.waiting()).toBe(0);
    for (const t of tickets) t.leave();
    expect([gate.atWork(), gate.waiting()]).toEqual([0, 0]);
  });

  it('refuses a request that waited its longest, and only then', async () => {
    vi.useFakeTimers();
    try {
      const gate = createDbGate({ concurrency: 1, queueLimit: 5, maxWaitMs: 500 });
      const first = gate.enter();
      const second = gate.enter();
      let answer: boolean | undefined;
      second.admitted.then((ok) => {
        answer = ok;
      });
      await vi.advanceTimersByTimeAsync(499);
      expect(answer).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(answer).toBe(false);
      expect(gate.waiting()).toBe(0);
      first.leave();
      expect(gate.atWork()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the health of the database, asked without queueing for it', () => {
  it('is ok when the probe answers, busy while the database is held by admitted work, unavailable when closed', async () => {
    const database = await openEmbedded(undefined);
    let closed = false;
    const held = latch();
    try {
      let now = 1_000_000;
      const clock = () => now;
      const gate = createDbGate({ concurrency: 1, queueLimit: 0, maxWaitMs: 1000 }, clock);
      const check = createHealthCheck(database.db, gate, HEALTH_CHECK_DEFAULTS, clock);
      expect(await check()).toBe('ok');

      // An admitted request holds the one connection in a transaction: the probe cannot answer.
      const ticket = gate.enter();
      expect(await ticket.admitted).toBe(true);
      const inside = latch();
      const work = database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        inside.open();
        await held.promise;
      });
      await inside.promise;
      expect(await check()).toBe('busy');
      // Long after the last answer the admitted work still counts, until it has been at it too long.
      now += HEALTH_CHECK_DEFAULTS.staleMs;
      expect(await check()).toBe('busy');
      now += HEALTH_CHECK_DEFAULTS.stuckMs;
      expect(await check()).toBe('unavailable');
      held.open();
      await work;
      ticket.leave();
      expect(await check()).toBe('ok');

      await database.close();
      closed = true;
      expect(await check()).toBe('unavailable');
    } finally {
      held.open();
      if (!closed) await database.close();
    }
  });
});

describe('the health of a server just started', () => {
  it('is busy while its first probe is out, for `staleMs`, and unavailable after that', async () => {
    const database = await openEmbedded(undefined);
    const held = latch();
    try {
      let now = 1_000_000;
      const check = createHealthCheck(database.db, undefined, HEALTH_CHECK_DEFAULTS, () => now);
      // The one connection is held before the first probe: nothing has answered yet.
      const inside = latch();
      const work = database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        inside.open();
        await held.promise;
      });
      await inside.promise;
      expect(await check()).toBe('busy');
      now += HEALTH_CHECK_DEFAULTS.staleMs;
      expect(await check()).toBe('unavailable');
      held.open();
      await work;
      expect(await check()).toBe('ok');
    } finally {
      held.open();
      await database.close();
    }
  });
});

/** One test app (and database) for this file: making one takes long on a busy machine. */
const LIMITS = { concurrency: 2, queueLimit: 4, maxWaitMs: 60_000 };
let t: TestApp;
let holdInApp: () => Promise<void> = async () => {};
let crowdedInApp: () => Promise<void> = async () => {};
beforeAll(async () => {
  t = await createTestApp({
    dbGate: LIMITS,
    extend: (app) => {
      app.get('/api/test/hold', async () => {
        await holdInApp();
        return { held: true };
      });
      app.get('/api/test/crowded', async () => {
        await crowdedInApp();
        return { crowded: false };
      });
    },
  });
}, 600_000);
afterAll(() => t?.close());

describe('an app over the database under more requests than it can serve', () => {
  let token: string;
  /** The holding route waits for this inside a transaction: the database is busy until it opens. */
  let held = latch();
  let entered = 0;
  beforeAll(async () => {
    holdInApp = async () => {
      entered++;
      await t.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await held.promise;
      });
    };
    token = await t.login('demo');
  });
  afterEach(() => {
    held.open();
    held = latch();
    entered = 0;
  });

  it('refuses the surplus at once with 503 + Retry-After, answers health meanwhile, and serves every admitted one', async () => {
    const holders = [t.app.inject({ url: '/api/test/hold' }), t.app.inject({ url: '/api/test/hold' })];
    for (let spins = 0; entered < LIMITS.concurrency; spins++) {
      if (spins > 1000) throw new Error('the holding requests did not start');
      await new Promise((r) => setTimeout(r, 5));
    }
    // Two at the database, four may wait: of 40 more, 36 are refused without waiting.
    const calls: Promise<LightMyRequestResponse>[] = [];
    for (let i = 0; i < 40; i++)
      calls.push(
        t.app.inject({ url: i % 2 ? '/api/self' : '/api/limited/dashboard', headers: bearer(token) }),
      );
    const answered: LightMyRequestResponse[] = [];
    for (const c of calls) c.then((res) => answered.push(res));
    await untilAnswered(calls, 36);
    expect(answered).toHaveLength(36);
    for (const res of answered) {
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json()).toEqual({ code: 'server.unavailable', retryAfterSeconds: 1 });
    }

    // Health does not queue: it answers while the database is held, and says so.
    const health = await t.app.inject({ url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({
      status: 'ok',
      database: TEST_DATABASE_URL ? expect.stringMatching(/^(ok|busy)$/) : 'busy',
    });
    // Nor do the web app's settings, which never touch the database.
    expect((await t.app.inject({ url: '/config.js' })).statusCode).toBe(200);
    expect(answered).toHaveLength(36);

    held.open();
    for (const res of await Promise.all(holders)) expect(res.statusCode).toBe(200);
    const all = await Promise.all(calls);
    const admitted = all.filter((res) => res.statusCode !== 503);
    expect(admitted).toHaveLength(LIMITS.queueLimit);
    for (const res of admitted) expect(res.statusCode).toBe(200);

    // Every place was given back: as many as the gate holds are served again at once.
    const again = await Promise.all(
      Array.from({ length: LIMITS.concurrency + LIMITS.queueLimit }, () =>
        t.app.inject({ url: '/api/self', headers: bearer(token) }),
      ),
    );
    expect(again.map((r) => r.statusCode)).toEqual(again.map(() => 200));
    expect((await t.app.inject({ url: '/api/health' })).json()).toEqual({ status: 'ok', database: 'ok' });
  });
});

describe('a request that waits too long for the database', () => {
  let app: FastifyInstance;
  const held = latch();
  let entered = false;
  beforeAll(async () => {
    // A second app over the same database, with a short wait.
    app = await buildApp({ ctx: t.app.ctx, dbGate: { concurrency: 1, queueLimit: 10, maxWaitMs: 50 } });
    app.get('/api/test/hold', async () => {
      entered = true;
      await held.promise;
      return { held: true };
    });
    await app.ready();
  });
  afterAll(async () => {
    held.open();
    await app?.close();
  });

  it('is refused with 503 before it touches the database, while the place is still taken', async () => {
    const holder = app.inject({ url: '/api/test/hold' });
    for (let spins = 0; !entered; spins++) {
      if (spins > 1000) throw new Error('the holding request did not start');
      await new Promise((r) => setTimeout(r, 5));
    }
    const login = await app.inject({
      method: 'POST',
      url: '/api/login/limited',
      payload: { username: 'demo', password: 'wrong' },
    });
    expect(login.statusCode).toBe(503);
    expect(login.headers['retry-after']).toBe('1');
    expect(login.json()).toEqual({ code: 'server.unavailable', retryAfterSeconds: 1 });
    // It was refused before it reached the database: no failed sign-in was counted.
    expect(await t.db.$count(loginFailures)).toBe(0);
    held.open();
    expect((await holder).statusCode).toBe(200);
    // With the place free, the same wrong password is judged (and counted).
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/api/login/limited',
          payload: { username: 'demo', password: 'wrong' },
        })
      ).statusCode,
    ).toBe(401);
    expect(await t.db.$count(loginFailures)).toBeGreaterThan(0);
  });
});

/**
 * A login role of the test server allowed `limit` connections at once (PostgreSQL refuses each login
 * past it with 53300, as it does any login when max_connections is reached; superusers, as the tests'
 * own, are exempt), and the app's database opened as that role (a main pool of one connection); both
 * are closed and dropped afterwards.
 */
async function withLimitedRole(limit: number, use: (db: Db) => Promise<void>): Promise<void> {
  const role = `portal_crowded_${randomBytes(4).toString('hex')}`;
  const admin = postgres(TEST_DATABASE_URL ?? '', { max: 1, onnotice: () => {} });
  await admin.unsafe(`create role ${role} login connection limit ${limit}`);
  try {
    const url = new URL(TEST_DATABASE_URL ?? '');
    url.username = role;
    const database = await openPostgres(url.toString(), 1);
    try {
      await use(database.db);
    } finally {
      await database.close();
    }
  } finally {
    await admin.unsafe(`drop role ${role}`);
    await admin.end({ timeout: 5 });
  }
}

/** Health options that wait for the probe as long as a test may: only a failed probe is unavailable. */
const PATIENT = { ...HEALTH_CHECK_DEFAULTS, answerWithinMs: 10_000 };

describe('a PostgreSQL server with no room for another connection', () => {
  it.skipIf(!TEST_DATABASE_URL)(
    'answers 503 with Retry-After (53300 too many connections), as for a lost connection, and the server goes on',
    () =>
      withLimitedRole(0, async (crowded) => {
        try {
          crowdedInApp = async () => {
            await crowded.execute(sql`select 1`);
          };
          const res = await t.app.inject({ url: '/api/test/crowded' });
          expect(res.statusCode).toBe(503);
          expect(res.headers['retry-after']).toBe('2');
          expect(res.json()).toEqual({ code: 'server.unavailable', retryAfterSeconds: 2 });
          expect((await t.app.inject({ url: '/api/health' })).json()).toEqual({
            status: 'ok',
            database: 'ok',
          });
        } finally {
          crowdedInApp = async () => {};
        }
      }),
  );

  it.skipIf(!TEST_DATABASE_URL)(
    'is reported unavailable when the main pool has its connection but the pool of lookups by key cannot open one',
    () =>
      withLimitedRole(1, async (db) => {
        // The main pool takes the role's one connection and keeps it; every session lookup (the
        // lookups' pool) would now be refused, so every signed-in request would answer 503.
        await db.execute(sql`select 1`);
        await expect(lookupsOf(db).execute(sql`select 1`)).rejects.toMatchObject({
          cause: { code: '53300' },
        });
        // Time enough to answer: `unavailable` says the probe failed, not that it was late.
        expect(await createHealthCheck(db, undefined, PATIENT)()).toBe('unavailable');
        // With room for both pools the same check is ok.
        await withLimitedRole(2, async (roomy) => {
          expect(await createHealthCheck(roomy, undefined, PATIENT)()).toBe('ok');
        });
      }),
  );
});
