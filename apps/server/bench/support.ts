import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

/**
 * The built server (`npm run build` first) listening on 127.0.0.1: on a PostgreSQL database, or with
 * `databaseUrl` undefined on the embedded one (give DATA_DIR in `env`).
 */
export interface BenchServer {
  base: string;
  pid: number;
  stop(): void;
}

/**
 * The node flags of `npm start` (this package's start script), so the bench runs the server as it is run:
 * `--max-semi-space-size=64` lets a request's or an import batch's objects die young instead of being
 * promoted (docs/BENCHMARKS.md, "The young generation").
 */
const START_FLAGS = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    scripts: { start: string };
  }
).scripts.start
  .split(' ')
  .filter((word) => word.startsWith('--'));

export async function startServer(
  databaseUrl: string | undefined,
  port: number,
  env: Record<string, string> = {},
): Promise<BenchServer> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...START_FLAGS,
      ...(process.env.SERVER_ARGS ? process.env.SERVER_ARGS.split(' ') : []),
      // SERVER_MAIN: another build's main.js (the figures before a change, on the same data and load).
      process.env.SERVER_MAIN ?? fileURLToPath(new URL('../dist/main.js', import.meta.url)),
    ],
    {
      env: {
        ...process.env,
        // Empty is unset for the server's configuration.
        DATABASE_URL: databaseUrl ?? '',
        SECRET_KEY: '11'.repeat(32),
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        // The daily job would work through the generated overdue invoices while the cases run, and
        // the figures would measure it instead of the requests.
        DAILY_JOB: 'off',
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  // The embedded database migrates and seeds on its first start: minutes on a busy machine.
  const giveUpAt = Date.now() + (databaseUrl ? 60_000 : 300_000);
  for (;;) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {}
    if (Date.now() > giveUpAt) {
      child.kill();
      throw new Error('the server did not start');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { base, pid: child.pid ?? 0, stop: () => child.kill('SIGTERM') };
}

/** Signs in at a login route (customer or back office) and returns the bearer header. */
export async function signIn(
  base: string,
  path: string,
  username: string,
  password: string,
): Promise<{ authorization: string }> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw new Error(`sign-in at ${path} answered ${res.status}: ${await res.text()}`);
  const { token } = (await res.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}

export interface LoadResult {
  name: string;
  p50: number;
  p99: number;
  rps: number;
  non2xx: number;
}

/** A load to put on the server: `connections` clients asking one path, or the paths `pathOf` gives in turn. */
export interface LoadCase {
  name: string;
  path: string;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
  pathOf?: (n: number) => string;
}

function autocannonOptions(base: string, c: LoadCase): autocannon.Options {
  let n = 0;
  const { pathOf } = c;
  return {
    url: `${base}${c.path}`,
    connections: c.connections,
    duration: c.seconds,
    headers: c.headers,
    ...(pathOf
      ? { requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: pathOf(n++) }) }] }
      : {}),
  };
}

/** `connections` clients asking one path (or the paths `pathOf` gives in turn) for `seconds`. */
export async function load(base: string, c: LoadCase): Promise<LoadResult> {
  const r = await autocannon(autocannonOptions(base, c));
  return { name: c.name, p50: r.latency.p50, p99: r.latency.p99, rps: r.requests.average, non2xx: r.non2xx };
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.replace(/\D/g, '') ?? 0) / 1024;
}

/**
 * Samples a process's resident memory every 20 ms from now: `peakMb()` samples once more and gives the
 * highest seen, `stop()` ends the sampling and gives the highest seen.
 */
export function sampleRss(pid: number) {
  const beforeMb = rssMb(pid);
  let peak = beforeMb;
  const peakMb = () => {
    peak = Math.max(peak, rssMb(pid));
    return peak;
  };
  const timer = setInterval(peakMb, 20);
  const stop = () => {
    clearInterval(timer);
    return peak;
  };
  return { beforeMb, peakMb, stop };
}

/**
 * One request read to its end, alone: time to the first byte of the body, total time, and the
 * growth of the server's resident memory (sampled every 20 ms) while it ran.
 */
export async function timedRequest(
  url: string,
  init: RequestInit,
  serverPid: number,
): Promise<{
  status: number;
  firstByteMs: number;
  totalMs: number;
  body: Buffer;
  rssGrowthMb: number;
  headers: Headers;
}> {
  const rss = sampleRss(serverPid);
  const started = performance.now();
  try {
    const res = await fetch(url, init);
    const reader = res.body?.getReader();
    if (!reader) throw new Error('no body');
    let firstByteMs = 0;
    const chunks: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!firstByteMs) firstByteMs = performance.now() - started;
      chunks.push(value);
    }
    const totalMs = performance.now() - started;
    const peakMb = rss.peakMb();
    return {
      status: res.status,
      firstByteMs,
      totalMs,
      body: Buffer.concat(chunks),
      rssGrowthMb: peakMb - rss.beforeMb,
      headers: res.headers,
    };
  } finally {
    rss.stop();
  }
}

/** The median time of `n` single requests to the bare route, one at a time. */
export async function bareMedianMs(base: string, serverPid: number, n = 21): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push((await timedRequest(`${base}/config.js`, {}, serverPid)).totalMs);
  times.sort((a, b) => a - b);
  return times[Math.floor(n / 2)] ?? 0;
}

/** Answers of a load split by kind: latencies (ms) of the admitted (2xx) and the refused (503). */
export interface SplitResult {
  name: string;
  connections: number;
  admittedPerSecond: number;
  admitted: number[];
  refused: number[];
  other: number;
  errors: number;
}

/** The value at percentile `p` of sorted latencies (NaN when there are none). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/**
 * Like `load`, keeping each answer's latency by its status: what the embedded database admits and
 * what it refuses at once (503) under more connections than it takes (lib/db-gate.ts).
 */
export async function loadSplit(base: string, c: LoadCase): Promise<SplitResult> {
  const admitted: number[] = [];
  const refused: number[] = [];
  let other = 0;
  const r = await autocannon({
    ...autocannonOptions(base, c),
    timeout: 30,
    setupClient: (client) => {
      client.on('response', (status: number, _bytes: number, time: number) => {
        if (status >= 200 && status < 300) admitted.push(time);
        else if (status === 503) refused.push(time);
        else other++;
      });
    },
  });
  return {
    name: c.name,
    connections: c.connections,
    admittedPerSecond: admitted.length / c.seconds,
    admitted: admitted.sort((a, b) => a - b),
    refused: refused.sort((a, b) => a - b),
    other,
    errors: r.errors + r.timeouts,
  };
}

/** Stops a bench server and waits until its process is gone (an embedded data folder is free again). */
export async function stopAndWait(server: BenchServer): Promise<void> {
  server.stop();
  for (let i = 0; i < 200; i++) {
    try {
      process.kill(server.pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server ${server.pid} did not stop`);
}
