import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FILE_MAX_BYTES } from '@portal/contracts';
import { DEMO_PASSWORD } from '../src/db/seed/demo';
import { importLines } from '../test/support/import-lines';
import { xlsxFile } from '../test/support/xlsx-file';
import { sampleRss, signIn } from './support';

/**
 * `npm run bench:import-upload -w @portal/server` (docs/BENCHMARKS.md, "Large spreadsheet uploads"):
 * starts the built server (`npm run build` first; SERVER_MAIN=<path of another build's main.js> to
 * measure that one) on an embedded database with the demo data, posts UPLOADS (4) copies of a
 * 280,000-row xlsx of just under 10 MB to the import preview at once, and meanwhile asks /api/health
 * every 20 ms. Prints the health latencies, the server's peak resident memory and how the uploads were
 * answered.
 */
const ROWS = Number(process.env.BENCH_ROWS ?? 280_000);
const UPLOADS = Number(process.env.UPLOADS ?? 4);
const PORT = Number(process.env.BENCH_PORT ?? 8484);
const MAIN = process.env.SERVER_MAIN ?? fileURLToPath(new URL('../dist/main.js', import.meta.url));

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? 0;

async function main(): Promise<void> {
  const file = xlsxFile({
    rows: importLines(ROWS, { descriptions: 997 }),
    sharedStrings: true,
    compact: true,
  });
  if (file.length > FILE_MAX_BYTES)
    throw new Error(`the file is ${file.length} bytes, over the upload limit`);
  console.log(`file: ${ROWS.toLocaleString('en-US')} rows, ${(file.length / 1024 / 1024).toFixed(1)} MB`);
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-import-'));
  const child: ChildProcess = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      SECRET_KEY: '11'.repeat(32),
      PORT: String(PORT),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DAILY_JOB: 'off',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${PORT}`;
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/api/health`)).ok) break;
      } catch {}
      if (i > 1200) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 250));
    }
    const auth = await signIn(base, '/api/login/limited', 'demo', DEMO_PASSWORD);
    const pid = child.pid as number;
    const rss = sampleRss(pid);
    const started = performance.now();
    let done = false;
    const uploads = Promise.all(
      Array.from({ length: UPLOADS }, async () => {
        const res = await fetch(`${base}/api/limited/invoices/import/preview?format=xlsx`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/octet-stream' },
          body: file,
        });
        const body = await res.text();
        return { status: res.status, ms: performance.now() - started, body: body.slice(0, 120) };
      }),
    ).finally(() => {
      done = true;
    });
    const health: number[] = [];
    while (!done) {
      const t0 = performance.now();
      await (await fetch(`${base}/api/health`)).arrayBuffer();
      health.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 20));
    }
    const answers = await uploads;
    const rssPeak = rss.stop();
    for (const a of answers) console.log(`upload: ${a.status} after ${(a.ms / 1000).toFixed(2)} s ${a.body}`);
    console.log(
      `health: ${health.length} probes, p50 ${quantile(health, 0.5).toFixed(1)} ms, p99 ${quantile(health, 0.99).toFixed(1)} ms, max ${Math.max(...health).toFixed(1)} ms`,
    );
    console.log(`server RSS: ${rss.beforeMb.toFixed(0)} MB before, peak ${rssPeak.toFixed(0)} MB`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
