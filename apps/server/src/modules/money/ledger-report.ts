import { INVOICE_EVENT, type LedgerProcess, type LedgerRow } from '@portal/contracts';
import { DUNNING_STEPS } from '@portal/domain/money-flow';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rows } from '../../db/migrate';
import { minorOf } from '../../lib/minor';

export type LedgerSort = 'invoiceNumber' | 'invoiceDate' | 'dueDate' | 'customer' | 'amount' | 'remaining';

const SORT_COLUMNS: Record<LedgerSort, string> = {
  invoiceNumber: 'invoice_number',
  invoiceDate: 'invoice_date',
  dueDate: 'due_date',
  customer: 'customer',
  amount: 'amount_minor',
  remaining: 'remaining_minor',
};

const PROCESS_BY_STEP: Record<number, LedgerProcess> = {
  [DUNNING_STEPS.none]: 'none',
  [DUNNING_STEPS.overdue]: 'overdue',
  [DUNNING_STEPS.reminder1]: 'reminder1',
  [DUNNING_STEPS.reminder2]: 'reminder2',
  [DUNNING_STEPS.collection]: 'collection',
};

/** The events of the collection steps and the step each one marks (docs/MONEY.md "The daily job"). */
const STEP_EVENTS: readonly (readonly [number, number])[] = [
  [INVOICE_EVENT.overdue, DUNNING_STEPS.overdue],
  [INVOICE_EVENT.reminder1, DUNNING_STEPS.reminder1],
  [INVOICE_EVENT.reminder2, DUNNING_STEPS.reminder2],
  [INVOICE_EVENT.collection, DUNNING_STEPS.collection],
];

/**
 * Where an invoice was in collection at the end of the report's date, from what had happened to it by
 * then (`processFacts`): charged back once its charge back was written; otherwise the furthest
 * collection step whose event was written (an invoice the daily job reminded late was not reminded
 * on the days before, whatever its due date implies).
 */
export function processOn(invoice: { chargedBack: boolean; stepReached: number }): LedgerProcess {
  if (invoice.chargedBack) return 'chargedBack';
  return PROCESS_BY_STEP[invoice.stepReached] ?? 'none';
}

/** The end of `date` in Europe/Stockholm: what was written before it had happened by that day. */
const endOfDay = (date: string) => sql`((${date}::date + 1)::timestamp at time zone 'Europe/Stockholm')`;

/**
 * The facts `processOn` reads for row `o` of `openOn`, from the invoice's own events written by the
 * end of `date` (index on invoice_events (invoice_id, at)): `step_reached`, the furthest collection
 * step (25 overdue, 8 reminder 1, 9 reminder 2, 10 collection), and `charged_back_event` (22). Read for
 * the answer's rows only.
 */
function processFacts(date: string): SQL {
  const events = sql.raw(STEP_EVENTS.map(([event]) => event).join(', '));
  const steps = sql.raw(STEP_EVENTS.map(([event, step]) => `when ${event} then ${step}`).join(' '));
  return sql`coalesce((
      select max(case e.event ${steps} end) from invoice_events e
      where e.invoice_id = o.id and e.event in (${events}) and e.at < ${endOfDay(date)}), 0) as step_reached,
    exists (
      select 1 from invoice_events e
      where e.invoice_id = o.id and e.event = ${sql.raw(String(INVOICE_EVENT.chargedBack))}
        and e.at < ${endOfDay(date)}) as charged_back_event`;
}

/**
 * The issuer's open invoices as of the end of `date` in Sweden (docs/MONEY.md "Ledger report"), as
 * a SQL relation: an invoice is on the book when its `receivable` postings made up to then sum to
 * more than zero, and that sum is its remaining amount on the date; `charged_back` tells whether the
 * charge back (recourse) had been posted by then. Invoices with no receivable posting at all (demo
 * data from before the book existed) fall back to their state: open (2, 3) and invoiced on or before
 * the date, with today's remaining amount. An installment plan's invoice (a row's or the recall's) names
 * its plan and loan number (issue #14).
 */
function openOn(issuerId: string, date: string): SQL {
  return sql`
    with booked as (
      select invoice_id, sum(amount_minor) as remaining, bool_or(kind = 'chargeBack') as charged_back
      from postings
      where issuer_id = ${issuerId} and account = 'receivable' and invoice_id is not null
        and at < ${endOfDay(date)}
      group by invoice_id
    ), open as (
      select i.id, i.invoice_number, i.invoice_date::text as invoice_date, i.due_date::text as due_date,
        i.service, r.name as customer, r.organization_number, r.city, r.sni, i.to_pay_minor as amount_minor,
        i.currency::text as currency, coalesce(b.remaining, i.remaining_minor) as remaining_minor,
        coalesce(b.charged_back, false) as charged_back,
        pl.id as plan_id, pl.loan_number
      from invoices i
      join recipients r on r.id = i.recipient_id
      left join booked b on b.invoice_id = i.id
      left join installment_plan_rows pr on pr.invoice_id = i.id
      left join installment_plans recalled on recalled.recall_invoice_id = i.id
      left join installment_plans pl on pl.id = coalesce(pr.plan_id, recalled.id)
      where i.issuer_id = ${issuerId}
        and ((b.invoice_id is not null and b.remaining > 0)
          or (b.invoice_id is null and i.state in (2, 3) and i.invoice_date <= ${date}::date
            and not exists (
              select 1 from postings p where p.invoice_id = i.id and p.account = 'receivable')))
    )`;
}

interface RawRow {
  id: string;
  invoice_number: string;
  invoice_date: string;
  due_date: string;
  service: string;
  customer: string;
  organization_number: string;
  city: string;
  sni: string;
  amount_minor: string | number;
  currency: string;
  remaining_minor: string | number;
  charged_back: boolean;
  charged_back_event: boolean;
  step_reached: number;
  plan_id: string | null;
  loan_number: string | null;
}

function toRow(r: RawRow): LedgerRow {
  return {
    invoiceID: r.id,
    invoiceNumber: r.invoice_number,
    invoiceDate: r.invoice_date,
    dueDate: r.due_date,
    service: r.service,
    customer: r.customer,
    organizationNumber: r.organization_number,
    city: r.city,
    sni: r.sni,
    amountMinor: minorOf(r.amount_minor),
    currency: r.currency,
    remainingMinor: minorOf(r.remaining_minor),
    process: processOn({
      chargedBack: r.charged_back || r.charged_back_event,
      stepReached: Number(r.step_reached),
    }),
    installmentPlanID: r.plan_id,
    loanNumber: r.loan_number,
  };
}

/** One page of the ledger on `date`, sorted, with the count and totals per currency of all of it. */
export async function ledgerPage(
  db: Db,
  issuerId: string,
  q: { date: string; page: number; pageSize: number; sort: LedgerSort; order: 'asc' | 'desc' },
) {
  const direction = sql.raw(q.order === 'desc' ? 'desc' : 'asc');
  const column = sql.raw(SORT_COLUMNS[q.sort]);
  const found = rows<RawRow>(
    await db.execute(sql`${openOn(issuerId, q.date)}
      select o.*, ${processFacts(q.date)}
      from (
        select * from open order by ${column} ${direction}, invoice_number ${direction}, id
        limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}
      ) o
      order by o.${column} ${direction}, o.invoice_number ${direction}, o.id`),
  );
  const totals = rows<{
    currency: string;
    count: string | number;
    amount: string | number;
    remaining: string | number;
  }>(
    await db.execute(sql`${openOn(issuerId, q.date)}
      select currency, count(*) as count, sum(amount_minor) as amount, sum(remaining_minor) as remaining
      from open group by currency order by currency`),
  ).map((t) => ({
    currency: t.currency,
    count: Number(t.count),
    amountMinor: minorOf(t.amount),
    remainingMinor: minorOf(t.remaining),
  }));
  return {
    date: q.date,
    items: found.map(toRow),
    total: totals.reduce((s, t) => s + t.count, 0),
    page: q.page,
    pageSize: q.pageSize,
    totals,
  };
}

/** Every row of the ledger on `date`, by invoice number, for the export files. */
export async function ledgerRows(db: Db, issuerId: string, date: string): Promise<LedgerRow[]> {
  const found = rows<RawRow>(
    await db.execute(
      sql`${openOn(issuerId, date)} select o.*, ${processFacts(date)} from open o order by o.invoice_number, o.id`,
    ),
  );
  return found.map(toRow);
}
