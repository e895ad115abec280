import { OVERDUE_BUCKET_DAYS, type OverdueBucket, UNPAID_INVOICE_STATES } from '@portal/contracts';
import { addDays } from '@portal/domain/calendar-date';
import { and, eq, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { selectPrepared } from '../../db/prepared';
import { invoices, issuers } from '../../db/schema';

/**
 * The queries of the dashboard, over the figures kept per day, month and due date (migration 0012): a
 * few hundred small rows whatever the number of invoices.
 */

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
export async function mainCurrency(db: Db, issuerId: string): Promise<string> {
  const [top] = await selectPrepared<{ currency: string }>(
    db,
    sql`
      select currency from invoice_state_totals
      where issuer_id = ${issuerId} and state not in (1, 7, 11)
      group by currency order by sum(invoice_count) desc, currency limit 1`,
  );
  if (top) return top.currency;
  const [issuer] = await db
    .select({ country: issuers.country })
    .from(issuers)
    .where(eq(issuers.id, issuerId));
  return issuer?.country === 'FI' ? 'EUR' : 'SEK';
}

/**
 * The dashboard's figures in `currency`: the sales of each day from `firstMonth` to `today`, the
 * `topCustomers` customers of those months and the unpaid amounts past due per bucket.
 */
export async function dashboardFigures(
  db: Db,
  issuerId: string,
  currency: string,
  c: { today: string; firstMonth: string; nextMonth: string; topCustomers: number },
) {
  const { today, firstMonth, nextMonth } = c;
  // Prepared (db/prepared.ts): each is one round trip, where an unprepared statement is described first.
  const [days, top, overdue] = await Promise.all([
    selectPrepared<{ day: string; n: number; gross: string }>(
      db,
      sql`
      select invoice_date::text as day, invoice_count::int as n, to_pay_minor::text as gross
      from invoice_sales_days
      where issuer_id = ${issuerId} and currency = ${currency}
        and invoice_date >= ${firstMonth} and invoice_date <= ${today}`,
    ),
    // The months' rows count this whole month; invoices dated after today (a few, if any) come off.
    selectPrepared<{ recipient_id: string; name: string; n: number; gross: string }>(
      db,
      sql`
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
      limit ${c.topCustomers}`,
    ),
    selectPrepared<{ bucket: OverdueBucket; n: number; remaining: string }>(
      db,
      sql`
      select case when ${today}::date - due_date <= 5 then '1-5' when ${today}::date - due_date <= 15 then '6-15'
                  when ${today}::date - due_date <= 30 then '16-30' else '30+' end as bucket,
             sum(invoice_count)::int as n, sum(remaining_minor)::bigint::text as remaining
      from invoice_unpaid_dues
      where issuer_id = ${issuerId} and currency = ${currency} and due_date < ${today}
      group by 1`,
    ),
  ]);
  return { days, top, overdue };
}
