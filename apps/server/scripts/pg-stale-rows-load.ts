/**
 * Load reproduction of issue #10's "401 under plain load" (see withoutStaleRows in
 * src/db/postgres-transactions.ts and test/postgres-stale-rows.test.ts for the mechanism).
 *
 *   npx tsx scripts/pg-stale-rows-load.ts [raw|ours] [kills=30] [every ms=500]
 *
 * BASE_URL (default postgres://postgres@127.0.0.1:5432/test) names a server and a database to create
 * a throwaway database from; only that database's backends are ended, and it is dropped at the end.
 * 20 workers run pooled statements with known results on a pool of 10 (every other one 200 rows of
 * 300 bytes, so a backend is often ended mid-result, the others `select 1`) while every backend is
 * ended every `every` ms. A result of the wrong length or with a hole at index 0 is counted as
 * wrong. With `raw` (postgres.js 3.4.9 as is) a few results in a run come back behind holes; with
 * `ours` (postgresClient) none should.
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { postgresClient } from '../src/db/postgres-transactions';

const base = process.env.BASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const mode = process.argv[2] === 'ours' ? 'ours' : 'raw';
const kills = Number(process.argv[3] ?? 30);
const every = Number(process.argv[4] ?? 500);

const name = `stale_rows_${randomBytes(4).toString('hex')}`;
const root = postgres(base, { max: 1, onnotice: () => {} });
await root.unsafe(`create database "${name}"`);
const url = new URL(base);
url.pathname = `/${name}`;

const admin = postgres(url.href, { max: 1, onnotice: () => {} });
const options = { max: 10, onnotice: () => {} };
const sql = mode === 'ours' ? postgresClient(url.href, options) : postgres(url.href, options);
// postgres.js's unawaited array-type fetch may reject on a lost connection (keepUnhandledConnectionLoss).
process.on('unhandledRejection', () => {});

const tally = { ok: 0, wrong: 0, holes: 0, failed: 0 };
const codes: Record<string, number> = {};
let stop = false;

async function worker(w: number): Promise<void> {
  const big = w % 2 === 0;
  const expected = big ? 200 : 1;
  while (!stop) {
    try {
      const rows = big
        ? await sql.unsafe(`select g, repeat('x', 300) as pad from generate_series(1, 200) g`)
        : await sql.unsafe('select 1 as one');
      if (rows.length === expected && 0 in rows) tally.ok++;
      else {
        tally.wrong++;
        if (!(0 in rows)) tally.holes++;
      }
    } catch (err) {
      tally.failed++;
      const code = String((err as { code?: unknown }).code);
      codes[code] = (codes[code] ?? 0) + 1;
    }
  }
}

const workers = Array.from({ length: 20 }, (_, w) => worker(w));
for (let i = 0; i < kills; i++) {
  await new Promise((r) => setTimeout(r, every));
  await admin`select pg_terminate_backend(pid) from pg_stat_activity
              where datname = current_database() and pid <> pg_backend_pid()`;
}
stop = true;
// A statement may wait for a connect timeout (30 s) after the last kill.
await Promise.all(workers);
console.log(mode, tally, codes);
await sql.end({ timeout: 5 });
await admin.end({ timeout: 5 });
await root.unsafe(`drop database "${name}" with (force)`);
await root.end({ timeout: 5 });
