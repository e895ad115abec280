import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_PASSWORD } from '../src/db/seed/demo';
import { loadSplit, signIn, startServer } from './support';

/**
 * `npm run bench:embedded-overload` (docs/BENCHMARKS.md, "The embedded database under overload"):
 * starts the built server (`npm run build` first) on the embedded database in a new folder with the
 * demo data, signs in as `demo`, and loads it with 32, 200 and 400 connections: the bare route
 * (`GET /config.js`, from memory), `GET /api/self` and the dashboard. For each: answers per second,
 * the latency of the admitted requests (2xx) apart from the refused ones (503), the share of 503, and
 * the latency of `GET /api/health` asked every 100 ms alongside the load by a client of its own.
 * `BENCH_SECONDS` sets each case's duration (10 s); `BENCH_CONNECTIONS` the levels (`32,200,400`);
 * `BENCH_DATA_DIR` a data folder to use and keep (the first start migrates and seeds: minutes);
 * every other variable of the environment (DB_QUEUE_LIMIT, ...) reaches the server.
 */
const PORT = Number(process.env.BENCH_PORT ?? 8384);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const LEVELS = (process.env.BENCH_CONNECTIONS ?? '32,200,400').split(',').map(Number);

interface Row {
  connections: number;
  name: string;
  answersPerSecond: number;
  admittedPerSecond: number;
  refusedShare: number;
  admitted: number[];
  refused: number[];
  other: number;
  errors: number;
  health: number[];
  healthFailed: number;
}

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const ms = (n: number) => (Number.isNaN(n) ? '-' : n < 10 ? n.toFixed(1) : n.toFixed(0));

/** Asks `/api/health` every 100 ms (each ask on its own, never waiting for the one before). */
function healthProber(base: string): { stop(): Promise<{ times: number[]; failed: number }> } {
  const times: number[] = [];
  let failed = 0;
  const pending = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const started = performance.now();
    const p = fetch(`${base}/api/health`, { signal: AbortSignal.timeout(30_000) })
      .then(async (res) => {
        await res.arrayBuffer();
        times.push(performance.now() - started);
        if (res.status !== 200) failed++;
      })
      .catch(() => {
        failed++;
      })
      .finally(() => pending.delete(p));
    pending.add(p);
  }, 100);
  return {
    stop: async () => {
      clearInterval(timer);
      await Promise.all(pending);
      return { times: times.sort((a, b) => a - b), failed };
    },
  };
}

async function loadCase(
  base: string,
  c: { name: string; path: string; headers: Record<string, string>; connections: number },
): Promise<Row> {
  const prober = healthProber(base);
  const split = await loadSplit(base, { ...c, seconds: SECONDS });
  const health = await prober.stop();
  const answers = split.admitted.length + split.refused.length + split.other;
  return {
    connections: c.connections,
    name: c.name,
    answersPerSecond: answers / SECONDS,
    admittedPerSecond: split.admittedPerSecond,
    refusedShare: answers ? split.refused.length / answers : 0,
    admitted: split.admitted,
    refused: split.refused,
    other: split.other,
    errors: split.errors,
    health: health.times,
    healthFailed: health.failed,
  };
}

async function main(): Promise<void> {
  const dataDir = process.env.BENCH_DATA_DIR || mkdtempSync(join(tmpdir(), 'portal-overload-'));
  const server = await startServer(undefined, PORT, { DATA_DIR: dataDir, SEED_DEMO: 'auto' });
  const rows: Row[] = [];
  try {
    const headers = await signIn(server.base, '/api/login/limited', 'demo', DEMO_PASSWORD);
    const cases = [
      { name: 'bare route (GET /config.js)', path: '/config.js', headers: {} },
      { name: 'GET /api/self', path: '/api/self', headers },
      { name: 'dashboard', path: '/api/limited/dashboard', headers },
    ];
    for (const connections of LEVELS)
      for (const c of cases) {
        const row = await loadCase(server.base, { ...c, connections });
        rows.push(row);
        console.log(
          `${connections} ${c.name}: ${Math.round(row.answersPerSecond)} answers/s, 503 ${(row.refusedShare * 100).toFixed(1)} %`,
        );
        // Let what is still queued drain before the next case.
        await new Promise((r) => setTimeout(r, 2000));
      }
  } finally {
    server.stop();
    await new Promise((r) => setTimeout(r, 1000));
    if (!process.env.BENCH_DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
  }
  const env = ['DB_CONCURRENCY', 'DB_QUEUE_LIMIT', 'DB_QUEUE_WAIT_MS']
    .filter((k) => process.env[k])
    .map((k) => `${k}=${process.env[k]}`);
  console.log(
    `\nEmbedded database, demo data, ${SECONDS} s per case${env.length ? `, ${env.join(' ')}` : ''}; load average at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; latencies in ms:\n`,
  );
  console.log(
    '| connections | case | answers/s | 2xx/s | 503 share | 2xx p50 | 2xx p99 | 2xx max | 503 p99 | other, errors | health p50 | health p99 | health max |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.connections} | ${r.name} | ${Math.round(r.answersPerSecond)} | ${Math.round(r.admittedPerSecond)} | ${(r.refusedShare * 100).toFixed(1)} % | ${ms(pct(r.admitted, 50))} | ${ms(pct(r.admitted, 99))} | ${ms(pct(r.admitted, 100))} | ${ms(pct(r.refused, 99))} | ${r.other}, ${r.errors} | ${ms(pct(r.health, 50))} | ${ms(pct(r.health, 99))} | ${ms(pct(r.health, 100))}${r.healthFailed ? ` (${r.healthFailed} not 200)` : ''} |`,
    );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
