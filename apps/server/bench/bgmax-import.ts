import postgres from 'postgres';
import { openPostgres } from '../src/db/client';
import { incomingPaymentsFile } from '../src/services/incoming-payments-file';
import { acceptsPayment, importBgmaxFile, parseBgmaxOrRefuse } from '../src/services/payment-import';
import { generate } from './generate';

/**
 * `npx tsx bench/bgmax-import.ts`: the BGMAX import of one day's file of 100,000 payments on
 * PostgreSQL. Fills its own database (BENCH_BGMAX_DATABASE_URL) with the benchmark generator, gives the
 * big issuer a collection bankgiro, writes a file paying its invoices (most in full, some in part, some
 * over, some to no invoice at all), and times the parse, the import (one transaction) and the same
 * file again (refused as a duplicate).
 */
const URL_ = process.env.BENCH_BGMAX_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_bench_bgmax';
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 100_000);
const BANKGIRO = '5050109';

const seconds = (started: number) => `${((performance.now() - started) / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  console.log(`Generating invoices in ${URL_} …`);
  await generate(
    {
      url: URL_,
      invoices: Math.round(PAYMENTS * 3.6),
      issuers: 10,
      bigIssuerInvoices: Math.round(PAYMENTS * 3.4),
      // Three in ten generated invoices are in a state that takes a payment.
      rowsPerInvoice: 1,
      recipientsPerIssuer: 20,
    },
    console.log,
  );
  const sql = postgres(URL_, { max: 1, onnotice: () => {} });
  await sql`update issuers set collection_bankgiro = ${BANKGIRO} where id = bench_uuid('issuer1')`;
  const open = await sql<{ ocr: string; state: number; remaining: string }[]>`
    select ocr, state, remaining_minor::text as remaining from invoices
    where issuer_id = bench_uuid('issuer1') and ocr is not null and remaining_minor > 0 order by ocr`;
  const payable = open.filter((i) => acceptsPayment(i.state));
  await sql.end();
  const known = Math.round(PAYMENTS * 0.95);
  if (payable.length < known) throw new Error(`only ${payable.length} payable invoices`);
  const payments = payable.slice(0, known).map((inv, n) => {
    const remaining = Number(inv.remaining);
    const amountMinor =
      n % 10 === 0 ? Math.max(1, Math.floor(remaining / 2)) : n % 20 === 1 ? remaining + 5_000 : remaining;
    return { reference: inv.ocr, amountMinor, name: `Betalare ${n}` };
  });
  for (let n = payments.length; n < PAYMENTS; n++)
    payments.push({ reference: String(900_000_000 + n), amountMinor: 10_000 + n, name: `Okänd ${n}` });

  let started = performance.now();
  const bytes = incomingPaymentsFile({
    paymentDate: new Date().toISOString().slice(0, 10),
    deposits: [{ bankgiro: BANKGIRO, payments }],
  });
  console.log(
    `  file written: ${payments.length.toLocaleString('en-US')} payments, ${(bytes.length / 1e6).toFixed(1)} MB, ${seconds(started)}`,
  );
  started = performance.now();
  parseBgmaxOrRefuse(bytes);
  console.log(`  parse alone: ${seconds(started)}`);

  const database = await openPostgres(URL_, 2);
  try {
    started = performance.now();
    const result = await importBgmaxFile(database.db, bytes, {
      filename: 'bench.bgmax',
      operatorId: null,
      now: new Date(),
    });
    const took = (performance.now() - started) / 1000;
    console.log(
      `  import: ${took.toFixed(1)} s (${Math.round(PAYMENTS / took).toLocaleString('en-US')} payments/s)`,
      result,
    );
    started = performance.now();
    const again = await importBgmaxFile(database.db, bytes, {
      filename: 'bench.bgmax',
      operatorId: null,
      now: new Date(),
    });
    console.log(
      `  same file again: ${seconds(started)}, duplicate: ${again.duplicateFile}, registered: ${again.registered}`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
