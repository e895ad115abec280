import {
  type DashboardResponse,
  dashboardResponseSchema,
  OVERDUE_BUCKET_DAYS,
  OVERDUE_BUCKETS,
  type OverdueBucket,
} from '@portal/contracts';
import { addDays } from '@portal/domain/calendar-date';
import { and, eq, inArray, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../db/client';
import { rows } from '../db/migrate';
import { invoices, issuers, recipients } from '../db/schema';
import { todayIn } from '../services/invoice-math';
import { errorResponses, routeOf, signedIn } from './define';

const TOP_CUSTOMERS = 10;
const DAYS = 30;
const MONTHS = 12;

/** A bigint sum PostgreSQL sent as text, as an exact integer (throws past 2^53 rather than round). */
function minor(text: string | null): number {
  const n = Number(text ?? '0');
  if (!Number.isSafeInteger(n)) throw new RangeError(`sum out of range: ${text}`);
  return n;
}

/** The first day of the month `back` months before the month of `date`. */
function monthStart(date: string, back: number): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7)) - 1 - back;
  const y = year + Math.floor(month / 12);
  const m = ((month % 12) + 12) % 12;
  return `${String(y).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}-01`;
}

/**
 * The unpaid invoices (states 2, 3) of a bucket of days past due as of `today`: due on
 * `today - max` .. `today - min`. The invoice list's `bucket` filter and the dashboard share it.
 */
export function overdueBucketWhere(bucket: OverdueBucket, today: string): SQL | undefined {
  const { min, max } = OVERDUE_BUCKET_DAYS[bucket];
  return and(
    inArray(invoices.state, [2, 3]),
    lte(invoices.dueDate, addDays(today, -min)),
    max === null ? undefined : sql`${invoices.dueDate} >= ${addDays(today, -max)}`,
  );
}

/** The issuer's main currency: the one most of its sent invoices use (the kept totals answer it). */
async function mainCurrency(db: Db, issuerId: string): Promise<string> {
  const [top] = rows<{ currency: string }>(
    await db.execute(sql`
      select currency from invoice_state_totals
      where issuer_id = ${issuerId} and state not in (1, 7, 11)
      group by currency order by sum(invoice_count) desc, currency limit 1`),
  );
  if (top) return top.currency;
  const [issuer] = await db
    .select({ country: issuers.country })
    .from(issuers)
    .where(eq(issuers.id, issuerId));
  return issuer?.country === 'FI' ? 'EUR' : 'SEK';
}

interface SalesRow {
  g: number;
  recipient_id: string | null;
  month: string | null;
  day: string | null;
  n: number;
  gross: string;
}

/** The dashboard of the caller's issuer (spec §1). */
export async function loadDashboard(db: Db, issuerId: string, today: string): Promise<DashboardResponse> {
  const currency = await mainCurrency(db, issuerId);
  const firstMonth = monthStart(today, MONTHS - 1);
  const firstDay = addDays(today, -(DAYS - 1));
  const pastDue = sql`(${today}::date - ${invoices.dueDate})`;
  const [sales, overdue] = await Promise.all([
    // One pass over the 12 months (invoices_issuer_date_idx) adds up per recipient, month and day.
    db.execute(sql`
      select grouping(recipient_id, to_char(invoice_date, 'YYYY-MM'), invoice_date)::int as g,
             recipient_id, to_char(invoice_date, 'YYYY-MM') as month, invoice_date::text as day,
             count(*)::int as n, sum(to_pay_minor)::bigint::text as gross
      from invoices
      where issuer_id = ${issuerId} and invoice_date >= ${firstMonth} and invoice_date <= ${today}
        and currency = ${currency} and state not in (1, 7, 11)
      group by grouping sets ((recipient_id), (to_char(invoice_date, 'YYYY-MM')), (invoice_date))`),
    db
      .select({
        bucket: sql<OverdueBucket>`case when ${pastDue} <= 5 then '1-5' when ${pastDue} <= 15 then '6-15'
          when ${pastDue} <= 30 then '16-30' else '30+' end`,
        n: sql<number>`count(*)::int`,
        remaining: sql<string>`sum(${invoices.remainingMinor})::bigint::text`,
      })
      .from(invoices)
      .where(
        and(
          eq(invoices.issuerId, issuerId),
          inArray(invoices.state, [2, 3]),
          eq(invoices.currency, currency),
          lt(invoices.dueDate, today),
        ),
      )
      .groupBy(sql`1`),
  ]);
  const byRecipient: { id: string; n: number; gross: number }[] = [];
  const byMonth = new Map<string, { n: number; gross: number }>();
  const byDay = new Map<string, { n: number; gross: number }>();
  for (const r of rows<SalesRow>(sales)) {
    const value = { n: r.n, gross: minor(r.gross) };
    // grouping(): bit 2 recipient, bit 1 month, bit 0 day; 0 marks the column grouped by.
    if (r.g === 0b011 && r.recipient_id) byRecipient.push({ id: r.recipient_id, ...value });
    else if (r.g === 0b101 && r.month) byMonth.set(r.month, value);
    else if (r.g === 0b110 && r.day && r.day >= firstDay) byDay.set(r.day, value);
  }
  byRecipient.sort((a, b) => b.gross - a.gross || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const top = byRecipient.slice(0, TOP_CUSTOMERS);
  const names = new Map(
    top.length === 0
      ? []
      : (
          await db
            .select({ id: recipients.id, name: recipients.name })
            .from(recipients)
            .where(
              and(
                eq(recipients.issuerId, issuerId),
                inArray(
                  recipients.id,
                  top.map((t) => t.id),
                ),
              ),
            )
        ).map((r) => [r.id, r.name]),
  );
  const buckets = new Map(overdue.map((b) => [b.bucket, b]));
  return {
    currency,
    topCustomers: top.map((t) => ({
      recipientID: t.id,
      name: names.get(t.id) ?? '',
      invoiceCount: t.n,
      grossMinor: t.gross,
    })),
    sales30Days: Array.from({ length: DAYS }, (_, i) => {
      const date = addDays(firstDay, i);
      const v = byDay.get(date);
      return { date, grossMinor: v?.gross ?? 0, count: v?.n ?? 0 };
    }),
    sales12Months: Array.from({ length: MONTHS }, (_, i) => {
      const month = monthStart(today, MONTHS - 1 - i).slice(0, 7);
      const v = byMonth.get(month);
      return { month, grossMinor: v?.gross ?? 0, count: v?.n ?? 0 };
    }),
    overdueBuckets: OVERDUE_BUCKETS.map((bucket) => {
      const b = buckets.get(bucket);
      return { bucket, count: b?.n ?? 0, remainingMinor: minor(b?.remaining ?? '0') };
    }),
  };
}

export async function dashboardRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;
  app.route({
    ...routeOf('getDashboard'),
    schema: {
      operationId: 'getDashboard',
      tags: ['dashboard'],
      summary:
        'The dashboard (spec §1): top 10 customers, sales per day (30 days) and month (12 months), overdue buckets',
      response: { 200: dashboardResponseSchema, ...errorResponses },
    },
    handler: async (request) => loadDashboard(ctx.db, signedIn(request).issuerId, todayIn(ctx.now())),
  });
}
