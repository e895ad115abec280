import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import postgres from 'postgres';
import { BENCH_PASSWORD, BENCH_USER, generate } from './generate';

/**
 * `npx tsx bench/reports-export.ts` (after `npm run build`): the active invoices Excel export on its
 * own data set — one issuer with 100,000 active invoices (states 2 and 3) in its own PostgreSQL
 * database — measured against the built server: time to first byte, total time, bytes, and the
 * server's RSS growth while the file streams; next to a bare route. The file is read back once with
 * exceljs and its rows counted against the database.
 */
const URL_ = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_bench_reports';
const PORT = Number(process.env.BENCH_PORT ?? 8394);
const ACTIVE = Number(process.env.BENCH_ACTIVE ?? 100_000);
const RUNS = 3;
const base = `http://127.0.0.1:${PORT}`;

function rssKb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.replace(/\D/g, '') ?? 0);
}

async function timed(url: string, headers: Record<string, string>, pid: number) {
  const before = rssKb(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssKb(pid));
  }, 20);
  const started = performance.now();
  const res = await fetch(url, { headers });
  const reader = res.body?.getReader();
  if (!reader) throw new Error('no body');
  let firstByte = 0;
  let bytes = 0;
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!firstByte) firstByte = performance.now() - started;
    bytes += value.byteLength;
    chunks.push(value);
  }
  const total = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, rssKb(pid));
  return {
    status: res.status,
    disposition: res.headers.get('content-disposition'),
    firstByte,
    total,
    bytes,
    rssGrowthMb: (peak - before) / 1024,
    body: Buffer.concat(chunks),
  };
}

async function main(): Promise<void> {
  if (process.env.BENCH_SKIP_GENERATE !== '1') {
    console.log(`Generating one issuer with ${ACTIVE.toLocaleString('en-US')} active invoices in ${URL_} …`);
    // The bench generator, small: issuer 1 holds ACTIVE invoices, issuer 2 a thousand (tenancy).
    await generate(
      {
        url: URL_,
        invoices: ACTIVE + 1_000,
        issuers: 2,
        bigIssuerInvoices: ACTIVE,
        rowsPerInvoice: 1,
        recipientsPerIssuer: 20,
      },
      console.log,
    );
    const sql = postgres(URL_, { max: 1, onnotice: () => {} });
    // Every invoice of issuer 1 active: not paid, every fourth partly paid. In bulk without the
    // per-row totals trigger, then the totals added up again.
    await sql.unsafe('alter table invoices disable trigger invoices_state_totals');
    await sql.unsafe(`update invoices set state = case when invoice_number::int % 4 = 0 then 3 else 2 end,
        remaining_minor = case when invoice_number::int % 4 = 0 then to_pay_minor / 2 else to_pay_minor end,
        decision = 'approved'
      where issuer_id = bench_uuid('issuer1')`);
    await sql.unsafe('delete from invoice_state_totals');
    await sql.unsafe(`insert into invoice_state_totals (issuer_id, recipient_id, state, rejected, currency, invoice_count, gross_minor)
      select issuer_id, recipient_id, state, coalesce(decision = 'rejected', false), currency, count(*), sum(gross_minor)
      from invoices group by 1, 2, 3, 4, 5`);
    await sql.unsafe('alter table invoices enable trigger invoices_state_totals');
    await sql.unsafe('vacuum analyze invoices');
    await sql.end();
  }
  const sql = postgres(URL_, { max: 1, onnotice: () => {} });
  const [{ n }] = (await sql.unsafe(
    `select count(*)::int as n from invoices where issuer_id = bench_uuid('issuer1') and state in (2, 3)`,
  )) as unknown as [{ n: number }];
  await sql.end();

  const server = spawn(process.execPath, [fileURLToPath(new URL('../dist/main.js', import.meta.url))], {
    env: {
      ...process.env,
      DATABASE_URL: URL_,
      SECRET_KEY: '11'.repeat(32),
      PORT: String(PORT),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
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
    const pid = server.pid ?? 0;

    const bare: number[] = [];
    for (let i = 0; i < 20; i++) bare.push((await timed(`${base}/config.js`, {}, pid)).total);
    bare.sort((a, b) => a - b);
    const bareMs = bare[10] ?? 0;
    console.log(`bare route (GET /config.js): median ${bareMs.toFixed(1)} ms`);

    let last: Awaited<ReturnType<typeof timed>> | undefined;
    for (let run = 1; run <= RUNS; run++) {
      last = await timed(`${base}/api/limited/reports/activeInvoices?language=en-US`, headers, pid);
      console.log(
        `active invoices export run ${run}: status ${last.status}, first byte ${last.firstByte.toFixed(0)} ms, total ${(last.total / 1000).toFixed(2)} s, ${(last.bytes / 1e6).toFixed(1)} MB, server RSS growth ${last.rssGrowthMb.toFixed(1)} MB, ${(last.total / bareMs).toFixed(0)}× the bare route`,
      );
    }
    if (!last) return;
    console.log(`content-disposition: ${last.disposition}`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(last.body as unknown as ArrayBuffer);
    const rows = (book.worksheets[0]?.rowCount ?? 1) - 1;
    console.log(
      `read back: ${rows.toLocaleString('en-US')} rows; database: ${n.toLocaleString('en-US')} active invoices`,
    );
    if (rows !== n) throw new Error('the file does not hold every active invoice');
  } finally {
    server.kill();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
