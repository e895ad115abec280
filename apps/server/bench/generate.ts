import { ABILITIES } from '@portal/contracts';
import postgres from 'postgres';
import { openPostgres } from '../src/db/client';
import { migrate } from '../src/db/migrate';
import { hashPassword } from '../src/lib/passwords';

export const BENCH_USER = 'bench';
export const BENCH_PASSWORD = 'Bench-portal-1';
/** A back-office operator with the same password, for the BGMAX import case. */
export const BENCH_OPERATOR = 'bench-operator';

export interface GenerateOptions {
  url: string;
  invoices: number;
  issuers: number;
  bigIssuerInvoices: number;
  rowsPerInvoice: number;
  recipientsPerIssuer: number;
}

/**
 * Fills a fresh PostgreSQL database with the benchmark data set in SQL (generate_series), so a million
 * invoices take minutes, not hours: `issuers` issuers, the first holding `bigIssuerInvoices` invoices
 * and the rest spread evenly, every invoice with `rowsPerInvoice` rows whose totals add up. Ids are
 * md5-derived, so runs are repeatable. The first issuer gets the sign-in `bench`; the back office gets
 * the operator `bench-operator` (same password).
 */
export async function generate(o: GenerateOptions, log: (s: string) => void): Promise<void> {
  const dbName = new URL(o.url).pathname.slice(1);
  const admin = postgres(o.url.replace(/\/[^/]+$/, '/postgres'), { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
  await admin.unsafe(`create database "${dbName}"`);
  await admin.end();

  const database = await openPostgres(o.url, 2);
  await migrate(database.db);
  await database.close();
  const sql = postgres(o.url, { max: 1, onnotice: () => {} });
  const step = async (label: string, query: string) => {
    const started = performance.now();
    await sql.unsafe(query);
    log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  const others = o.issuers - 1;
  // Repeatable ids that are valid version-4 UUIDs (the API accepts nothing else).
  await sql.unsafe(`create function bench_uuid(text) returns uuid language sql immutable as $$
    select (substr(md5($1), 1, 12) || '4' || substr(md5($1), 14, 3) || '8' || substr(md5($1), 18, 15))::uuid $$`);
  await step(
    'issuers',
    `insert into issuers (id, name, email, organization_no, vat, telephone, address1, city, zipcode, country, bank_account_verified)
     select bench_uuid('issuer' || g), 'Bench ' || g || ' AB', 'ekonomi' || g || '@bench.test', '556' || lpad(g::text, 3, '0') || '-0000',
            'SE556' || lpad(g::text, 7, '0') || '01', '08-000 00 00', 'Gatan ' || g, 'Stockholm', '111 22', 'SE', true
     from generate_series(1, ${o.issuers}) g`,
  );
  await step(
    'recipients',
    `insert into recipients (id, issuer_id, name, zipcode, city, email, organization_number)
     select bench_uuid('recipient' || g), bench_uuid('issuer' || ((g - 1) / ${o.recipientsPerIssuer} + 1)),
            'Kund ' || g || ' AB', '111 22', (array['Stockholm','Göteborg','Malmö','Uppsala'])[1 + g % 4],
            'faktura' || g || '@kund.test', '559' || lpad(g::text, 7, '0')
     from generate_series(1, ${o.issuers * o.recipientsPerIssuer}) g`,
  );
  // The kept totals (list, dashboard) follow by their statement triggers: one pass over the inserted
  // rows per table, so they stay on during the bulk load.
  await step(
    `invoices (${o.invoices.toLocaleString('en-US')})`,
    `insert into invoices (id, issuer_id, recipient_id, invoice_number, service, state, currency, invoice_date, due_date,
                           ocr, net_minor, vat_minor, gross_minor, deduction_minor, to_pay_minor, remaining_minor, vat_lines,
                           created_at, updated_at, sent_at)
     select bench_uuid('invoice' || n), bench_uuid('issuer' || i),
            bench_uuid('recipient' || ((i - 1) * ${o.recipientsPerIssuer} + 1 + n % ${o.recipientsPerIssuer})),
            n::text, case when n % 5 = 0 then 'invoicingService' else 'factoring' end,
            (array[1, 2, 2, 3, 4, 4, 4, 4, 9, 6])[1 + n % 10], 'SEK',
            current_date - (n % 425), current_date - (n % 425) + 30,
            case when n % 10 = 0 then null else (100000 + n)::text end,
            net, (net * 25 + 50) / 100, net + (net * 25 + 50) / 100, 0, net + (net * 25 + 50) / 100,
            case when (array[1, 2, 2, 3, 4, 4, 4, 4, 9, 6])[1 + n % 10] = 4 then 0 else net + (net * 25 + 50) / 100 end,
            jsonb_build_array(jsonb_build_object('vatBasisPoints', 2500, 'netMinor', net, 'vatMinor', (net * 25 + 50) / 100)),
            now() - (n % 425) * interval '1 day', now() - (n % 425) * interval '1 day', now() - (n % 425) * interval '1 day'
     from (
       select n,
              case when n <= ${o.bigIssuerInvoices} then 1 else 2 + (n - ${o.bigIssuerInvoices} - 1) % ${others} end as i,
              (select sum(10000 + (n * k) % 50000) from generate_series(1, ${o.rowsPerInvoice}) k)::bigint as net
       from generate_series(1, ${o.invoices}) n
     ) s`,
  );
  await step(
    `invoice rows (${(o.invoices * o.rowsPerInvoice).toLocaleString('en-US')})`,
    `insert into invoice_rows (invoice_id, position, article_number, name, quantity_milli, unit, unit_price_minor, vat_basis_points, net_minor)
     select bench_uuid('invoice' || n), k - 1, 'ART-' || k, 'Artikel ' || k, 1000, 'st', 10000 + (n * k) % 50000, 2500, 10000 + (n * k) % 50000
     from generate_series(1, ${o.invoices}) n, generate_series(1, ${o.rowsPerInvoice}) k`,
  );
  await step(
    'events',
    `insert into invoice_events (invoice_id, issuer_id, event, at)
     select id, issuer_id, 1, created_at from invoices where issuer_id = bench_uuid('issuer1')`,
  );
  const hash = await hashPassword(BENCH_PASSWORD);
  await sql`insert into users (id, issuer_id, username, first_name, last_name, email, password_hash, last_password_change)
            values (bench_uuid('user1'), bench_uuid('issuer1'), ${BENCH_USER}, 'Bench', 'User', 'bench@bench.test', ${hash}, now())`;
  await sql`insert into user_abilities (user_id, ability) select bench_uuid('user1'), a from unnest(${[...ABILITIES]}::text[]) a`;
  await sql`insert into operators (id, username, name, email, password_hash)
            values (bench_uuid('operator1'), ${BENCH_OPERATOR}, 'Bench Operator', 'operator@bench.test', ${hash})`;
  // VACUUM sets the visibility map, so counts and totals can be answered from the index alone.
  await step('vacuum analyze', 'vacuum analyze');
  await sql.end();
}
