import type { LedgerProcess, LedgerRow } from '@portal/contracts';
import { DUNNING_STEPS, dunningStepOn } from '@portal/domain/money-flow';
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

/**
 * Where an invoice was in collection on `date`: charged back when the charge back had been posted by
 * the end of the date (`chargedBack`; not its state today, which is 5 also for earlier dates);
 * otherwise the dunning step the daily job has reached, but no further than the step the date itself
 * implies (an invoice reminded today was not yet reminded on an earlier date).
 */
export function processOn(
  invoice: { chargedBack: boolean; dunningStep: number; dueDate: string },
  date: string,
): LedgerProcess {
  if (invoice.chargedBack) return 'chargedBack';
  const step = Math.min(invoice.dunningStep, dunningStepOn(invoice.dueDate, date));
  return PROCESS_BY_STEP[step] ?? 'none';
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
        and at < ((${date}::date + 1)::timestamp at time zone 'Europe/Stockholm')
      group by invoice_id
    ), open as (
      select i.id, i.invoice_number, i.invoice_date::text as invoice_date, i.due_date::text as due_date,
        i.service, r.name as customer, r.organization_number, r.city, r.sni, i.to_pay_minor as amount_minor,
        i.currency::text as currency, coalesce(b.remaining, i.remaining_minor) as remaining_minor,
        coalesce(b.charged_back, false) as charged_back, i.dunning_step,
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
  dunning_step: number;
  plan_id: string | null;
  loan_number: string | null;
}

function toRow(r: RawRow, date: string): LedgerRow {
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
    process: processOn(
      { chargedBack: r.charged_back, dunningStep: r.dunning_step, dueDate: r.due_date },
      date,
    ),
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
      select * from open order by ${column} ${direction}, invoice_number ${direction}, id
      limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`),
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
    items: found.map((r) => toRow(r, q.date)),
    total: totals.reduce((s, t) => s + t.count, 0),
    page: q.page,
    pageSize: q.pageSize,
    totals,
  };
}

/** Every row of the ledger on `date`, by invoice number, for the export files. */
export async function ledgerRows(db: Db, issuerId: string, date: string): Promise<LedgerRow[]> {
  const found = rows<RawRow>(
    await db.execute(sql`${openOn(issuerId, date)} select * from open order by invoice_number, id`),
  );
  return found.map((r) => toRow(r, date));
}
