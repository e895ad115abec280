import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { BENCH_PASSWORD, BENCH_USER, generate } from './generate';

/**
 * `npm run bench`: builds nothing itself (the npm script builds first), fills PostgreSQL with the data
 * set of docs/BENCHMARKS.md, starts the built server on it, and measures the invoice list and detail
 * under 32 connections with autocannon, next to a bare route (/config.js, answered from memory).
 */
const URL_ = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_bench';
const PORT = Number(process.env.BENCH_PORT ?? 8383);
const DURATION = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = 32;
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const base = `http://127.0.0.1:${PORT}`;

async function main(): Promise<void> {
  const invoices = Math.round(1_000_000 * SCALE);
  if (process.env.BENCH_SKIP_GENERATE !== '1') {
    console.log(`Generating ${invoices.toLocaleString('en-US')} invoices in ${URL_} …`);
    const started = performance.now();
    await generate(
      {
        url: URL_,
        invoices,
        issuers: 1000,
        bigIssuerInvoices: Math.round(100_000 * SCALE),
        rowsPerInvoice: 5,
        recipientsPerIssuer: 20,
      },
      console.log,
    );
    console.log(`  total: ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }

  const server = spawn(process.execPath, [fileURLToPath(new URL('../dist/main.js', import.meta.url))], {
    env: {
      ...process.env,
      DATABASE_URL: URL_,
      SECRET_KEY: '11'.repeat(32),
      PORT: String(PORT),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/api/health`)).ok) break;
      } catch {}
      if (i > 120) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 250));
    }
    const login = await fetch(`${base}/api/login/limited`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: BENCH_USER, password: BENCH_PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const headers = { authorization: `Bearer ${token}` };
    const list = (await (
      await fetch(`${base}/api/limited/invoices?pageSize=100&sort=invoiceDate&order=desc`, { headers })
    ).json()) as {
      items: { invoiceID: string }[];
    };
    const ids = list.items.map((i) => i.invoiceID);

    const cases = [
      { name: 'bare route (GET /config.js, from memory)', path: '/config.js', headers: {} },
      {
        name: 'invoice list (page of 50, filter active + sort due date + search)',
        path: '/api/limited/invoices?filter=active&sort=dueDate&order=desc&search=Kund%201&pageSize=50&page=3',
        headers,
      },
      {
        name: 'invoice list (page of 50, all, sort invoice date)',
        path: '/api/limited/invoices?sort=invoiceDate&order=desc&pageSize=50',
        headers,
      },
      { name: 'invoice detail', path: `/api/limited/invoices/${ids[0]}`, headers, ids },
    ];
    const results: { name: string; p50: number; p99: number; rps: number; non2xx: number }[] = [];
    for (const c of cases) {
      let n = 0;
      const r = await autocannon({
        url: `${base}${c.path}`,
        connections: CONNECTIONS,
        duration: DURATION,
        headers: c.headers,
        ...(c.ids
          ? {
              requests: [
                {
                  setupRequest: (req: autocannon.Request) => ({
                    ...req,
                    path: `/api/limited/invoices/${c.ids[n++ % c.ids.length]}`,
                  }),
                },
              ],
            }
          : {}),
      });
      results.push({
        name: c.name,
        p50: r.latency.p50,
        p99: r.latency.p99,
        rps: r.requests.average,
        non2xx: r.non2xx,
      });
    }
    const bare = results[0];
    console.log(
      `\n${CONNECTIONS} connections, ${DURATION} s each, ${invoices.toLocaleString('en-US')} invoices:\n`,
    );
    console.log('| case | p50 ms | p99 ms | req/s | p99 / bare p99 | non-2xx |');
    console.log('|---|---|---|---|---|---|');
    for (const r of results)
      console.log(
        `| ${r.name} | ${r.p50} | ${r.p99} | ${Math.round(r.rps)} | ${bare ? (r.p99 / Math.max(bare.p99, 1)).toFixed(1) : '-'} | ${r.non2xx} |`,
      );
  } finally {
    server.kill('SIGTERM');
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
