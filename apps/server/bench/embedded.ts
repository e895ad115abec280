import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { openEmbedded } from '../src/db/client';
import { rows } from '../src/db/migrate';
import { DEMO_PASSWORD } from '../src/db/seed/demo';
import { loadSplit, percentile, type SplitResult, signIn, startServer, stopAndWait } from './support';

/** The demo data this many times: every invoice (with its rows) copied under new ids and numbers. */
const TIMES = 10;

const ms = (n: number) => (Number.isNaN(n) ? '-' : n < 10 ? n.toFixed(1) : n.toFixed(0));

/**
 * The embedded default (PGlite, no DATABASE_URL) with ten times the demo data: a new data folder is
 * seeded by a first start of the built server, then every invoice is copied nine times with its rows
 * (new ids and numbers, no OCR reference; the kept totals follow by their triggers), and the server
 * is started again on it. Measured for the `demo` user: the invoice list (first page of 50 sorted by
 * invoice date), the invoice detail (its invoices in turn) and the dashboard, at 32 and at 200
 * connections, the admitted answers (2xx) apart from those refused at once (503, lib/db-gate.ts).
 */
export async function embeddedCase(
  port: number,
  seconds: number,
  say: (line: string) => void,
): Promise<void> {
  const dataDir = process.env.BENCH_EMBEDDED_DIR || mkdtempSync(join(tmpdir(), 'portal-bench-embedded-'));
  try {
    let server = await startServer(undefined, port, { DATA_DIR: dataDir, SEED_DEMO: 'auto' });
    await stopAndWait(server);
    const database = await openEmbedded(dataDir);
    let invoices = 0;
    try {
      // A kept folder (BENCH_EMBEDDED_DIR) is multiplied once: the marker table says it was.
      await database.db.execute(sql`create table if not exists bench_multiplied (times int not null)`);
      const [done] = rows<{ times: number }>(
        await database.db.execute(sql`select times from bench_multiplied`),
      );
      if (!done) {
        await database.db.execute(sql`create temp table bench_copies as
          select i.id as old_id, gen_random_uuid() as new_id, k from invoices i, generate_series(2, ${TIMES}) k`);
        await database.db.execute(sql`insert into invoices
          select (jsonb_populate_record(null::invoices, to_jsonb(i) || jsonb_build_object(
            'id', c.new_id, 'invoice_number', i.invoice_number || '-' || c.k, 'ocr', null))).*
          from invoices i join bench_copies c on c.old_id = i.id`);
        await database.db.execute(sql`insert into invoice_rows
          select (jsonb_populate_record(null::invoice_rows, to_jsonb(r) || jsonb_build_object(
            'id', gen_random_uuid(), 'invoice_id', c.new_id))).*
          from invoice_rows r join bench_copies c on c.old_id = r.invoice_id`);
        await database.db.execute(sql`insert into bench_multiplied values (${TIMES})`);
        await database.db.execute(sql`analyze`);
      }
      [{ n: invoices } = { n: 0 }] = rows<{ n: number }>(
        await database.db.execute(sql`select count(*)::int as n from invoices`),
      );
    } finally {
      await database.close();
    }

    server = await startServer(undefined, port, { DATA_DIR: dataDir, SEED_DEMO: 'auto' });
    const results: SplitResult[] = [];
    try {
      const headers = await signIn(server.base, '/api/login/limited', 'demo', DEMO_PASSWORD);
      const first = (await (
        await fetch(`${server.base}/api/limited/invoices?pageSize=100&sort=invoiceDate&order=desc`, {
          headers,
        })
      ).json()) as { items: { invoiceID: string }[]; total: number };
      const ids = first.items.map((i) => i.invoiceID);
      const cases = [
        { name: 'bare route (GET /config.js, from memory)', path: '/config.js', headers: {} },
        {
          name: `invoice list (page of 50, sort invoice date; ${first.total.toLocaleString('en-US')} invoices)`,
          path: '/api/limited/invoices?sort=invoiceDate&order=desc&pageSize=50',
          headers,
        },
        {
          name: 'invoice detail',
          path: `/api/limited/invoices/${ids[0]}`,
          headers,
          pathOf: (k: number) => `/api/limited/invoices/${ids[k % ids.length]}`,
        },
        { name: 'dashboard', path: '/api/limited/dashboard', headers },
      ];
      for (const connections of [32, 200])
        for (const c of cases) {
          results.push(await loadSplit(server.base, { ...c, connections, seconds }));
          // What is still queued drains before the next case.
          await new Promise((r) => setTimeout(r, 1000));
        }
    } finally {
      await stopAndWait(server);
    }
    say(
      `\nEmbedded database (PGlite), ${TIMES} × the demo data (${invoices.toLocaleString('en-US')} invoices in all), ${seconds} s per case; latencies in ms; 503 = refused at once by the database gate:\n`,
    );
    say(
      '| connections | case | 2xx/s | 2xx p50 | 2xx p99 | 503 share | 503 p99 | other, errors | 2xx p99 / bare p99 |',
    );
    say('|---|---|---|---|---|---|---|---|---|');
    for (const r of results) {
      const bare = results.find((b) => b.connections === r.connections);
      const answers = r.admitted.length + r.refused.length + r.other;
      say(
        `| ${r.connections} | ${r.name} | ${Math.round(r.admittedPerSecond)} | ${ms(percentile(r.admitted, 50))} | ${ms(percentile(r.admitted, 99))} | ${answers ? ((100 * r.refused.length) / answers).toFixed(1) : '0.0'} % | ${ms(percentile(r.refused, 99))} | ${r.other}, ${r.errors} | ${bare ? (percentile(r.admitted, 99) / Math.max(percentile(bare.admitted, 99), 1)).toFixed(1) : '-'} |`,
      );
    }
  } finally {
    if (!process.env.BENCH_EMBEDDED_DIR) rmSync(dataDir, { recursive: true, force: true });
  }
}
