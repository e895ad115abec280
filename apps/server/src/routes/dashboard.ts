import {
  type DashboardResponse,
  dashboardResponseSchema,
  OVERDUE_BUCKET_DAYS,
  OVERDUE_BUCKETS,
  type OverdueBucket,
  UNPAID_INVOICE_STATES,
} from '@portal/contracts';
import { addDays } from '@portal/domain/calendar-date';
import { and, eq, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../db/client';
import { rows } from '../db/migrate';
import { invoices, issuers } from '../db/schema';
import { minorOf } from '../lib/minor';
import { todayIn } from '../lib/today';
import { plansDashboard } from '../modules/installments/installments.service';
import { errorResponses, routeOf, signedIn } from './define';

const TOP_CUSTOMERS = 10;
const DAYS = 30;
const MONTHS = 12;

/** A bigint sum PostgreSQL sent as text, as an exact integer (refused past 2^53 rather than rounded). */
const minor = minorOf;

/** The first day of the month `back` months before the month of `date` (after it when negative). */
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
    inArray(invoices.state, [...UNPAID_INVOICE_STATES]),
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

/**
 * The dashboard of the caller's issuer (spec §1), read from the figures kept per day, month and due
 * date (migration 0012): a few hundred small rows whatever the number of invoices.
 */
export async function loadDashboard(db: Db, issuerId: string, today: string): Promise<DashboardResponse> {
  const currency = await mainCurrency(db, issuerId);
  const firstMonth = monthStart(today, MONTHS - 1);
  const nextMonth = monthStart(today, -1);
  const firstDay = addDays(today, -(DAYS - 1));
  const [days, top, overdue] = await Promise.all([
    db.execute(sql`
      select invoice_date::text as day, invoice_count::int as n, to_pay_minor::text as gross
      from invoice_sales_days
      where issuer_id = ${issuerId} and currency = ${currency}
        and invoice_date >= ${firstMonth} and invoice_date <= ${today}`),
    // The months' rows count this whole month; invoices dated after today (a few, if any) come off.
    db.execute(sql`
      select s.recipient_id, coalesce(r.name, '') as name, sum(s.n)::int as n, sum(s.g)::bigint::text as gross
      from (
        select recipient_id, invoice_count as n, to_pay_minor as g from invoice_sales_months
        where issuer_id = ${issuerId} and currency = ${currency} and month >= ${firstMonth} and month <= ${today}
        union all
        select recipient_id, -1, -to_pay_minor from invoices
        where issuer_id = ${issuerId} and currency = ${currency} and invoice_date > ${today}
          and invoice_date < ${nextMonth} and state not in (1, 7, 11)
      ) s
      left join recipients r on r.id = s.recipient_id and r.issuer_id = ${issuerId}
      group by s.recipient_id, r.name
      having sum(s.n) > 0
      order by sum(s.g) desc, s.recipient_id
      limit ${TOP_CUSTOMERS}`),
    db.execute(sql`
      select case when ${today}::date - due_date <= 5 then '1-5' when ${today}::date - due_date <= 15 then '6-15'
                  when ${today}::date - due_date <= 30 then '16-30' else '30+' end as bucket,
             sum(invoice_count)::int as n, sum(remaining_minor)::bigint::text as remaining
      from invoice_unpaid_dues
      where issuer_id = ${issuerId} and currency = ${currency} and due_date < ${today}
      group by 1`),
  ]);
  const byMonth = new Map<string, { n: number; gross: number }>();
  const byDay = new Map<string, { n: number; gross: number }>();
  for (const r of rows<{ day: string; n: number; gross: string }>(days)) {
    const gross = minor(r.gross);
    if (r.day >= firstDay) byDay.set(r.day, { n: r.n, gross });
    const month = r.day.slice(0, 7);
    const m = byMonth.get(month) ?? { n: 0, gross: 0 };
    byMonth.set(month, { n: m.n + r.n, gross: m.gross + gross });
  }
  const buckets = new Map(
    rows<{ bucket: OverdueBucket; n: number; remaining: string }>(overdue).map((b) => [b.bucket, b]),
  );
  return {
    currency,
    topCustomers: rows<{ recipient_id: string; name: string; n: number; gross: string }>(top).map((t) => ({
      recipientID: t.recipient_id,
      name: t.name,
      invoiceCount: t.n,
      grossMinor: minor(t.gross),
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
      tags: ['dashboard'],
      summary:
        'The dashboard (spec §1): top 10 customers, sales per day (30 days) and month (12 months), overdue buckets; installment plans by state group with contract financing',
      response: { 200: dashboardResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const auth = signedIn(request);
      const dashboard = await loadDashboard(ctx.db, auth.issuerId, todayIn(ctx.now()));
      // Issue #14: the plans' card only for those who may see installment plans.
      if (!auth.abilities.includes('limited_contract_financing')) return dashboard;
      return {
        ...dashboard,
        installmentPlans: await plansDashboard(ctx.db, auth.issuerId, dashboard.currency),
      };
    },
  });
}
