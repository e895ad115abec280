import ExcelJS from 'exceljs';
import postgres from 'postgres';
import { incomingPaymentsFile } from '../src/services/incoming-payments-file';
import { acceptsPayment } from '../src/services/payment-import';
import { BENCH_OPERATOR, BENCH_PASSWORD, BENCH_USER, generate } from './generate';
import { bareMedianMs, type LoadResult, load, signIn, startServer, timedRequest } from './support';

/**
 * `npm run bench` (docs/BENCHMARKS.md): fills PostgreSQL with the 1,000,000-invoice data set, starts
 * the built server on it and measures, next to a bare route answered from memory:
 * 1. under 32 connections: the invoice list (plain and searched), the invoice detail, the dashboard of
 *    the issuer with 100,000 invoices and the invoice list of an overdue bucket;
 * 2. alone: the Excel export of that issuer's invoices made all active (100,000): first byte, whole
 *    file, the server's memory growth, and the file read back against the database;
 * 3. alone: a BGMAX file of 100,000 payments to that issuer imported through the back-office API,
 *    then the same file again (refused as a duplicate).
 * Steps 2 and 3 change the big issuer's invoices, so with BENCH_SKIP_GENERATE=1 (reuse the data) they
 * are skipped unless BENCH_MONEY=1.
 */
const URL_ = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_bench';
const PORT = Number(process.env.BENCH_PORT ?? 8383);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = 32;
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const GENERATE = process.env.BENCH_SKIP_GENERATE !== '1';
const MONEY = GENERATE || process.env.BENCH_MONEY === '1';
const BIG = Math.round(100_000 * SCALE);
const BANKGIRO = '5050109';

const figures: string[] = [];
const say = (line: string) => {
  console.log(line);
  figures.push(line);
};

async function main(): Promise<void> {
  const invoices = Math.round(1_000_000 * SCALE);
  if (GENERATE) {
    console.log(`Generating ${invoices.toLocaleString('en-US')} invoices in ${URL_} …`);
    const started = performance.now();
    await generate(
      {
        url: URL_,
        invoices,
        issuers: 1000,
        bigIssuerInvoices: BIG,
        rowsPerInvoice: 5,
        recipientsPerIssuer: 20,
      },
      console.log,
    );
    // The generator uses states 1, 2, 3, 4, 6 and 9 in SEK: one in twenty invoices gets one of the
    // others and one in twenty is in EUR, so the dashboard's filters have something to leave out.
    const sql = postgres(URL_, { max: 1, onnotice: () => {} });
    await sql.unsafe(`update invoices set state = (array[5, 7, 8, 10, 11])[1 + (invoice_number::int / 20) % 5]
                      where invoice_number::int % 20 = 7`);
    await sql.unsafe(`update invoices set currency = 'EUR' where invoice_number::int % 20 = 13`);
    await sql.unsafe('vacuum analyze invoices');
    await sql.end();
    console.log(`  total: ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }

  // The figures depend on the database server's memory and WAL settings: they go with them.
  const settings = postgres(URL_, { max: 1, onnotice: () => {} });
  const shown = await settings.unsafe(`select name, current_setting(name) as setting from pg_settings
    where name in ('server_version', 'shared_buffers', 'max_wal_size', 'wal_compression', 'synchronous_commit')
    order by name`);
  await settings.end();
  say(`PostgreSQL: ${shown.map((r) => `${r.name} ${r.setting}`).join(', ')}`);

  const server = await startServer(URL_, PORT);
  try {
    const headers = await signIn(server.base, '/api/login/limited', BENCH_USER, BENCH_PASSWORD);
    const list = (await (
      await fetch(`${server.base}/api/limited/invoices?pageSize=100&sort=invoiceDate&order=desc`, { headers })
    ).json()) as { items: { invoiceID: string }[] };
    const ids = list.items.map((i) => i.invoiceID);
    const dashboard = (await (await fetch(`${server.base}/api/limited/dashboard`, { headers })).json()) as {
      topCustomers: unknown[];
      overdueBuckets: { bucket: string; count: number }[];
    };
    console.log(
      `dashboard: ${dashboard.topCustomers.length} top customers, overdue ${dashboard.overdueBuckets.map((b) => `${b.bucket}: ${b.count}`).join(', ')}`,
    );

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
      {
        name: 'invoice detail',
        path: `/api/limited/invoices/${ids[0]}`,
        headers,
        pathOf: (n: number) => `/api/limited/invoices/${ids[n % ids.length]}`,
      },
      {
        name: `dashboard (${BIG.toLocaleString('en-US')} invoices)`,
        path: '/api/limited/dashboard',
        headers,
      },
      {
        name: 'invoice list of an overdue bucket (30+)',
        path: '/api/limited/invoices?bucket=30%2B&sort=dueDate&pageSize=50',
        headers,
      },
    ];
    const results: LoadResult[] = [];
    for (const c of cases)
      results.push(await load(server.base, { ...c, connections: CONNECTIONS, seconds: SECONDS }));
    const bare = results[0];
    say(`\n${CONNECTIONS} connections, ${SECONDS} s each, ${invoices.toLocaleString('en-US')} invoices:\n`);
    say('| case | p50 ms | p99 ms | req/s | p99 / bare p99 | non-2xx |');
    say('|---|---|---|---|---|---|');
    for (const r of results)
      say(
        `| ${r.name} | ${r.p50} | ${r.p99} | ${Math.round(r.rps)} | ${bare ? (r.p99 / Math.max(bare.p99, 1)).toFixed(1) : '-'} | ${r.non2xx} |`,
      );

    if (MONEY) {
      await exportCase(server.base, server.pid, headers);
      await importCase(server.base, server.pid);
    } else console.log('\nExport and import cases skipped (BENCH_SKIP_GENERATE=1 without BENCH_MONEY=1).');
  } finally {
    server.stop();
  }
  console.log(`\nFigures:\n${figures.join('\n')}`);
}

/** The active invoices Excel of the big issuer with every one of its invoices active. */
async function exportCase(base: string, pid: number, headers: Record<string, string>): Promise<void> {
  const sql = postgres(URL_, { max: 1, onnotice: () => {} });
  await sql.unsafe(`update invoices set state = case when invoice_number::int % 4 = 0 then 3 else 2 end,
      remaining_minor = case when invoice_number::int % 4 = 0 then to_pay_minor / 2 else to_pay_minor end,
      decision = 'approved', currency = 'SEK'
    where issuer_id = bench_uuid('issuer1')`);
  await sql.unsafe('vacuum analyze invoices');
  const [{ n }] = (await sql.unsafe(
    `select count(*)::int as n from invoices where issuer_id = bench_uuid('issuer1') and state in (2, 3)`,
  )) as unknown as [{ n: number }];
  await sql.end();

  const bareMs = await bareMedianMs(base, pid);
  say(
    `\nActive invoices Excel export, ${n.toLocaleString('en-US')} active invoices (bare route alone: ${bareMs.toFixed(1)} ms):\n`,
  );
  say('| run | first byte ms | whole file s | MB | server RSS growth MB | whole file / bare |');
  say('|---|---|---|---|---|---|');
  let body: Buffer | undefined;
  for (let run = 1; run <= 3; run++) {
    const r = await timedRequest(
      `${base}/api/limited/reports/activeInvoices?language=en-US`,
      { headers },
      pid,
    );
    if (r.status !== 200) throw new Error(`export answered ${r.status}`);
    body = r.body;
    say(
      `| ${run} | ${r.firstByteMs.toFixed(0)} | ${(r.totalMs / 1000).toFixed(2)} | ${(r.body.length / 1e6).toFixed(1)} | ${r.rssGrowthMb.toFixed(1)} | ${(r.totalMs / bareMs).toFixed(0)} |`,
    );
  }
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(body as unknown as ArrayBuffer);
  const rows = (book.worksheets[0]?.rowCount ?? 1) - 1;
  say(
    `read back: ${rows.toLocaleString('en-US')} rows; database: ${n.toLocaleString('en-US')} active invoices`,
  );
  if (rows !== n) throw new Error('the file does not hold every active invoice');
}

/** One day's BGMAX file of 100,000 payments to the big issuer, through the back-office API. */
async function importCase(base: string, pid: number): Promise<void> {
  const sql = postgres(URL_, { max: 1, onnotice: () => {} });
  await sql`update issuers set collection_bankgiro = ${BANKGIRO} where id = bench_uuid('issuer1')`;
  const open = await sql<{ ocr: string; state: number; remaining: string }[]>`
    select ocr, state, remaining_minor::text as remaining from invoices
    where issuer_id = bench_uuid('issuer1') and ocr is not null and remaining_minor > 0 order by ocr`;
  await sql.end();
  const total = BIG;
  // Nine in ten pay an open invoice (one in ten of those in part, one in twenty too much); the rest
  // pay references nobody knows and stay for an operator.
  const payable = open.filter((i) => acceptsPayment(i.state)).slice(0, Math.round(total * 0.9));
  const payments = payable.map((inv, k) => {
    const remaining = Number(inv.remaining);
    const amountMinor =
      k % 10 === 0 ? Math.max(1, Math.floor(remaining / 2)) : k % 20 === 1 ? remaining + 5_000 : remaining;
    return { reference: inv.ocr, amountMinor, name: `Betalare ${k}` };
  });
  for (let k = payments.length; k < total; k++)
    payments.push({ reference: String(900_000_000 + k), amountMinor: 10_000 + k, name: `Okänd ${k}` });
  const bytes = incomingPaymentsFile({
    paymentDate: new Date().toISOString().slice(0, 10),
    deposits: [{ bankgiro: BANKGIRO, payments }],
  });

  const operator = await signIn(base, '/api/backoffice/login', BENCH_OPERATOR, BENCH_PASSWORD);
  const bareMs = await bareMedianMs(base, pid);
  const post = () =>
    timedRequest(
      `${base}/api/backoffice/payments/import?filename=bench.bgmax`,
      {
        method: 'POST',
        headers: { ...operator, 'content-type': 'application/octet-stream' },
        body: new Uint8Array(bytes),
      },
      pid,
    );
  const first = await post();
  if (first.status !== 200) throw new Error(`import answered ${first.status}: ${first.body.toString()}`);
  const again = await post();
  if (again.status !== 200)
    throw new Error(`import again answered ${again.status}: ${again.body.toString()}`);
  say(
    `\nBGMAX import through POST /api/backoffice/payments/import, ${total.toLocaleString('en-US')} payments (${(bytes.length / 1e6).toFixed(1)} MB, ${payable.length.toLocaleString('en-US')} to open invoices; bare route alone: ${bareMs.toFixed(1)} ms):\n`,
  );
  say('| run | s | payments/s | server RSS growth MB | / bare | answer |');
  say('|---|---|---|---|---|---|');
  for (const [name, r] of [
    ['import', first],
    ['same file again', again],
  ] as const)
    say(
      `| ${name} | ${(r.totalMs / 1000).toFixed(2)} | ${Math.round(total / (r.totalMs / 1000)).toLocaleString('en-US')} | ${r.rssGrowthMb.toFixed(1)} | ${(r.totalMs / bareMs).toFixed(0)} | ${r.body.toString()} |`,
    );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
