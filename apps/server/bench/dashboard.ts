import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { BENCH_PASSWORD, BENCH_USER, generate } from './generate';

/**
 * `npm run bench:dashboard`: the dashboard (GET /api/limited/dashboard) of one issuer with 100,000
 * invoices over 14 months in every state, on its own PostgreSQL database (`portal_bench_dash` by
 * default, so the 1M-invoice `portal_bench` is not needed), measured under 32 connections next to a
 * bare route and the invoice list filtered to an overdue bucket. Run `npm run build` first.
 */
const URL_ = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_bench_dash';
const PORT = Number(process.env.BENCH_PORT ?? 8384);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const INVOICES = 100_000;
const base = `http://127.0.0.1:${PORT}`;

async function main(): Promise<void> {
  if (process.env.BENCH_SKIP_GENERATE !== '1') {
    console.log(`Generating ${INVOICES.toLocaleString('en-US')} invoices of one issuer in ${URL_} …`);
    // A second, small issuer, so that the issuer filter has something to leave out.
    await generate(
      {
        url: URL_,
        invoices: INVOICES + 2_000,
        issuers: 2,
        bigIssuerInvoices: INVOICES,
        rowsPerInvoice: 1,
        recipientsPerIssuer: 40,
      },
      console.log,
    );
    // The generator uses states 1, 2, 3, 4, 6 and 9 in SEK: add the others and some EUR invoices (the
    // totals trigger is on again, so the kept totals follow).
    const sql = postgres(URL_, { max: 1, onnotice: () => {} });
    await sql.unsafe(`update invoices set state = (array[5, 7, 8, 10, 11])[1 + (invoice_number::int / 20) % 5]
                      where invoice_number::int % 20 = 7`);
    await sql.unsafe(`update invoices set currency = 'EUR' where invoice_number::int % 20 = 13`);
    await sql.unsafe('vacuum analyze invoices');
    await sql.end();
  }

  const server = spawn(process.execPath, [fileURLToPath(new URL('../dist/main.js', import.meta.url))], {
    env: {
      ...process.env,
      DATABASE_URL: URL_,
      SECRET_KEY: '11'.repeat(32),
      PORT: String(PORT),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // The daily job would work through the generated overdue invoices while the bench runs.
      DAILY_JOB: 'off',
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
    const sample = await (await fetch(`${base}/api/limited/dashboard`, { headers })).json();
    console.log('dashboard answer:', JSON.stringify(sample).slice(0, 400), '…');

    const cases = [
      { name: 'bare route (GET /config.js, from memory)', path: '/config.js', headers: {} },
      { name: 'dashboard (GET /api/limited/dashboard)', path: '/api/limited/dashboard', headers },
      {
        name: 'invoice list of an overdue bucket (30+)',
        path: '/api/limited/invoices?bucket=30%2B&sort=dueDate&pageSize=50',
        headers,
      },
    ];
    const results: { name: string; p50: number; p99: number; rps: number; non2xx: number }[] = [];
    for (const c of cases) {
      const r = await autocannon({
        url: `${base}${c.path}`,
        connections: CONNECTIONS,
        duration: DURATION,
        headers: c.headers,
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
      `\n${CONNECTIONS} connections, ${DURATION} s each, ${INVOICES.toLocaleString('en-US')} invoices:\n`,
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
