import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ABILITIES } from '@portal/contracts';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../src/db/client';
import { migrate } from '../src/db/migrate';
import { issuers, operators, userAbilities, users } from '../src/db/schema';
import { DEMO_BYGG_ISSUER } from '../src/db/seed/demo-constants';
import { hashPassword } from '../src/lib/passwords';
import { incomingPaymentsFile } from '../src/modules/money/money.service';
import { VALID_RECIPIENT_BODY } from './support/route-samples';
import { createEmptyPostgresDatabase, TEST_DATABASE_URL } from './support/test-db';

/**
 * Issue #10: PostgreSQL connections ended under the server (`pg_terminate_backend`, as a failover or
 * an operator does) while it writes in bulk. The real server runs as a child process, so "the process
 * did not exit" is what is checked; the backends are killed at several points of a BGMAX import, an
 * invoice file import and plain load. Each request in flight must succeed (it finished first) or
 * answer 503 `server.unavailable` with Retry-After, nothing may be half-written, and the next requests
 * must succeed on new connections.
 */

const SECRET_KEY = '11'.repeat(32);
const PASSWORD = 'Connection-loss-1';
const BANKGIRO = '5050109';
/** Fractions of an undisturbed import's duration at which the backends are killed, one try each. */
const KILL_AT = [0.05, 0.25, 0.45, 0.65, 0.85];

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!TEST_DATABASE_URL)(
  'lost PostgreSQL connections during bulk writes and load (needs TEST_DATABASE_URL; skipped on PGlite)',
  () => {
    let drop: () => Promise<void> = async () => {};
    let admin: postgres.Sql;
    let child: ChildProcess;
    let exited: string | null = null;
    let output = '';
    let base = '';
    let operator = '';
    let demo = '';

    beforeAll(async () => {
      const created = await createEmptyPostgresDatabase(TEST_DATABASE_URL ?? '');
      drop = created.drop;
      const database = await openPostgres(created.url, 2);
      try {
        await migrate(database.db);
        // One issuer with its collection bankgiro, a user of it with every ability, and an operator:
        // the demo seed would take a minute here.
        const passwordHash = await hashPassword(PASSWORD);
        const [issuer] = await database.db
          .insert(issuers)
          .values({
            ...DEMO_BYGG_ISSUER,
            name: 'Bulk Bygg AB',
            email: 'ekonomi@bulkbygg.se',
            collectionBankgiro: BANKGIRO,
          })
          .returning({ id: issuers.id });
        const [user] = await database.db
          .insert(users)
          .values({
            issuerId: issuer?.id ?? '',
            username: 'bulk',
            firstName: 'Bo',
            lastName: 'Bulk',
            email: 'bo@bulkbygg.se',
            passwordHash,
            lastPasswordChange: new Date(),
          })
          .returning({ id: users.id });
        await database.db
          .insert(userAbilities)
          .values(ABILITIES.map((ability) => ({ userId: user?.id ?? '', ability })));
        await database.db
          .insert(operators)
          .values({ username: 'bulk-operator', name: 'Olle', email: 'olle@portal.test', passwordHash });
      } finally {
        await database.close();
      }
      admin = postgres(created.url, { max: 1, onnotice: () => {} });

      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      child = spawn(
        process.execPath,
        ['--import', 'tsx', fileURLToPath(new URL('../src/main.ts', import.meta.url))],
        {
          cwd: fileURLToPath(new URL('..', import.meta.url)),
          env: {
            ...process.env,
            DATABASE_URL: created.url,
            SECRET_KEY,
            PORT: String(port),
            HOST: '127.0.0.1',
            LOG_LEVEL: 'warn',
            DAILY_JOB: 'off',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const keep = (d: Buffer) => {
        output = (output + d.toString()).slice(-20_000);
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      child.on('exit', (code, signal) => {
        exited = `exit code ${code}, signal ${signal}`;
      });
      for (let i = 0; ; i++) {
        try {
          if ((await fetch(`${base}/api/health`)).ok) break;
        } catch {}
        if (exited || i > 200) throw new Error(`the server did not start (${exited}): ${output}`);
        await sleep(100);
      }
      operator = await signIn('/api/backoffice/login', 'bulk-operator');
      demo = await signIn('/api/login/limited', 'bulk');
    }, 120_000);

    afterAll(async () => {
      if (child && !exited) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await gone;
        clearTimeout(timer);
      }
      await admin?.end({ timeout: 5 });
      await drop();
    });

    async function signIn(path: string, username: string): Promise<string> {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: PASSWORD }),
      });
      const body = (await res.json()) as { token?: string };
      if (!body.token) throw new Error(`sign-in of ${username} answered ${res.status}`);
      return `Bearer ${body.token}`;
    }

    let killed: number[] = [];

    /** Ends every backend of the server's database but this connection's own. */
    async function killBackends(): Promise<void> {
      const ended = await admin<{ pid: number }[]>`
        select pid from (select pid, pg_terminate_backend(pid) as ended from pg_stat_activity
                         where datname = current_database() and pid <> pg_backend_pid()) k where ended`;
      killed = killed.concat(ended.map((k) => k.pid));
    }

    /**
     * Waits until the killed backends are gone (on a busy machine a backend takes a while to act on
     * the signal) and the server has had a moment to see their sockets close: "the next request" is
     * one sent after the database has ended them, not one racing the kill.
     */
    async function settled(): Promise<void> {
      for (let i = 0; i < 100; i++) {
        const [left] = await admin<{ n: number }[]>`
          select count(*)::int as n from pg_stat_activity where pid = any(${killed}::int[])`;
        if (!left?.n) break;
        await sleep(50);
      }
      killed = [];
      await sleep(200);
    }

    async function count(table: 'payments' | 'payment_files' | 'invoices'): Promise<number> {
      const [row] = await admin.unsafe<{ n: string }[]>(`select count(*)::text as n from ${table}`);
      return Number(row?.n);
    }

    function expectAlive(): void {
      expect(exited, `the server process ended: ${output}`).toBeNull();
    }

    /** Sends a request; a failure to get any answer (the server gone) comes back as the error. */
    const send = (path: string, init: RequestInit = {}) =>
      fetch(`${base}${path}`, init).then(
        (res) => res,
        (err: Error) => err,
      );

    /** A request in flight when the connections went: done, or 503 with Retry-After and the code. */
    async function expectDoneOrUnavailable(res: Response | Error): Promise<'done' | 'refused'> {
      if (res instanceof Error) throw new Error(`no answer (${res.message}); server: ${exited}\n${output}`);
      const body = await res.text();
      if (res.status === 200) return 'done';
      expect(res.status, body).toBe(503);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(JSON.parse(body)).toMatchObject({ code: 'server.unavailable' });
      return 'refused';
    }

    /** The next requests after a kill: health, a list, and the caller's own data, all answered. */
    async function expectServing(): Promise<void> {
      await settled();
      expectAlive();
      for (const [path, authorization] of [
        ['/api/health', ''],
        ['/api/limited/invoices?pageSize=5', demo],
        ['/api/backoffice/payments/unmatched', operator],
      ] as const) {
        const res = await fetch(`${base}${path}`, { headers: authorization ? { authorization } : {} });
        expect(res.status, `${path}: ${await res.text()}\n${output}`).toBe(200);
      }
    }

    /**
     * An import with the connections killed part way: an undisturbed `post(0)` sets the scale of the
     * kill times, then each `post(i + 1)` loses its backends at KILL_AT[i] of that time. After each,
     * `expectWritten` checks the stored rows against `measure()` taken before (all the import's rows
     * when it was done, none when refused) and the server serves again; at least one was refused.
     */
    async function importUnderKills<T>(
      post: (n: number) => Promise<Response | Error>,
      measure: () => Promise<T>,
      expectWritten: (outcome: 'done' | 'refused', before: T) => Promise<void>,
    ): Promise<void> {
      const started = performance.now();
      expect(await expectDoneOrUnavailable(await post(0))).toBe('done');
      const took = performance.now() - started;

      const outcomes: string[] = [];
      for (const [i, at] of KILL_AT.entries()) {
        const before = await measure();
        const answer = post(i + 1);
        await sleep(took * at);
        await killBackends();
        const outcome = await expectDoneOrUnavailable(await answer);
        outcomes.push(outcome);
        await expectWritten(outcome, before);
        await expectServing();
      }
      expect(outcomes, `undisturbed import took ${Math.round(took)} ms`).toContain('refused');
    }

    it('a BGMAX import: the kill fails it with 503 and writes nothing, or it had finished', async () => {
      const N = 10_000;
      const file = (n: number) =>
        Buffer.from(
          incomingPaymentsFile({
            paymentDate: '2026-03-10',
            deposits: [
              {
                bankgiro: BANKGIRO,
                payments: Array.from({ length: N }, (_, k) => ({
                  reference: String(700_000_000 + n * N + k),
                  amountMinor: 10_000 + k,
                  name: `Okänd betalare ${k}`,
                })),
              },
            ],
            firstSerial: 1 + n * N,
            firstDeposit: 1 + n,
          }),
        );
      const post = (n: number) =>
        send(`/api/backoffice/payments/import?filename=day-${n}.bgmax`, {
          method: 'POST',
          headers: { authorization: operator, 'content-type': 'application/octet-stream' },
          body: file(n),
        });

      await importUnderKills(
        post,
        async () => ({ payments: await count('payments'), files: await count('payment_files') }),
        async (outcome, before) => {
          const grew = outcome === 'done' ? 1 : 0;
          expect(await count('payments')).toBe(before.payments + grew * N);
          expect(await count('payment_files')).toBe(before.files + grew);
        },
      );
    }, 120_000);

    it('an invoice file import: the kill fails it with 503 and writes nothing, or it had finished', async () => {
      const recipient = await fetch(`${base}/api/limited/recipients`, {
        method: 'POST',
        headers: { authorization: demo, 'content-type': 'application/json' },
        body: JSON.stringify({
          ...VALID_RECIPIENT_BODY,
          name: 'Massimport AB',
          organizationNumber: '559123-4561',
        }),
      });
      expect(recipient.status, await recipient.text()).toBe(200);
      const N = 200;
      const csv = (n: number) =>
        Buffer.from(
          [
            'invoiceNumber;recipientOrganizationNumber;invoiceDate;dueDate;service;currency;description;quantity;unit;unitPrice;vatPercent',
            ...Array.from(
              { length: N },
              (_, k) =>
                `K${n}-${k};559123-4561;2026-03-01;2026-03-31;factoring;SEK;Arbetstimme;8;h;650,00;25`,
            ),
          ].join('\r\n'),
        );
      const post = (n: number) =>
        send('/api/limited/invoices/import?format=csv', {
          method: 'POST',
          headers: { authorization: demo, 'content-type': 'text/csv' },
          body: csv(n),
        });

      await importUnderKills(
        post,
        () => count('invoices'),
        async (outcome, before) => {
          expect(await count('invoices')).toBe(before + (outcome === 'done' ? N : 0));
        },
      );
    }, 120_000);

    it('plain load of list requests: every answer is 200 or 503 with Retry-After, then all serve', async () => {
      const outcomes = { done: 0, refused: 0 };
      const failures: unknown[] = [];
      let stop = false;
      const client = async () => {
        while (!stop) {
          try {
            // A 401 here was a session lookup that read its row behind holes after a reconnect
            // (withoutStaleRows, test/postgres-stale-rows.test.ts): any answer but 200 or 503 fails.
            const res = await send('/api/limited/invoices?pageSize=50', { headers: { authorization: demo } });
            outcomes[await expectDoneOrUnavailable(res)]++;
          } catch (err) {
            failures.push(err);
            return;
          }
        }
      };
      const clients = Array.from({ length: 12 }, client);
      for (let i = 0; i < KILL_AT.length; i++) {
        await sleep(200);
        await killBackends();
      }
      await sleep(200);
      stop = true;
      await Promise.all(clients);
      expect(failures).toEqual([]);
      expect(outcomes.done).toBeGreaterThan(0);
      await expectServing();
    }, 120_000);
  },
);
