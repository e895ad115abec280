import type {
  InstallmentPlanSummary,
  ListInstallmentPlansQuery,
  ListInstallmentPlansResponse,
} from '@portal/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rows } from '../../db/migrate';
import { type PlanRow, REMAINING_SQL } from './installments.repository';

/**
 * The plan list (`/installmentplans`): the issuer's plans with the state filter, a search over the
 * description, the buyer's name and the loan number, sorted and paged like the invoice history. An
 * issuer has plans in the hundreds, not millions, so offset paging over the issuer's index serves.
 */

/** The list's sort fields as SQL over `pl` (the plan) and `r` (its buyer); the id breaks ties. */
const SORT_SQL: Record<ListInstallmentPlansQuery['sort'], SQL> = {
  created: sql`pl.created_at`,
  startDate: sql`pl.start_date`,
  recipientName: sql`lower(r.name)`,
  loanNumber: sql`pl.loan_number`,
  total: sql`pl.total_minor`,
};

/** The list's item of a plan row, its buyer's name and what remains to pay. */
export function summaryOf(
  plan: PlanRow,
  recipientName: string,
  remainingMinor: number,
): InstallmentPlanSummary {
  return {
    installmentPlanID: plan.id,
    loanNumber: plan.loanNumber,
    description: plan.description,
    recipientID: plan.recipientId,
    recipientName,
    currency: plan.currency,
    startDate: plan.startDate,
    endDate: plan.endDate,
    created: plan.createdAt.toISOString(),
    state: plan.state,
    noOfInstallments: plan.noOfInstallments,
    financedAmountMinor: plan.financedMinor,
    monthlyFee: plan.monthlyFeeMinor,
    initialFee: plan.initialFeeMinor,
    administrationFee: plan.administrationFeeMinor,
    total: plan.totalMinor,
    remainingMinor,
  };
}

interface ListedPlan {
  id: string;
  loan_number: string;
  description: string;
  recipient_id: string;
  recipient_name: string;
  currency: string;
  start_date: string;
  end_date: string;
  created_at: string | Date;
  state: number;
  no_of_installments: number;
  financed_minor: string;
  monthly_fee_minor: string;
  initial_fee_minor: string;
  administration_fee_minor: string;
  total_minor: string;
  remaining: string;
  total_count: number;
}

export async function listPlans(
  db: Db,
  issuerId: string,
  q: ListInstallmentPlansQuery,
): Promise<ListInstallmentPlansResponse> {
  const conditions: SQL[] = [sql`pl.issuer_id = ${issuerId}`];
  if (q.state !== undefined) conditions.push(sql`pl.state = ${q.state}`);
  if (q.search) {
    const like = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(
      sql`(pl.description ilike ${like} or r.name ilike ${like} or pl.loan_number like ${`${q.search}%`})`,
    );
  }
  const direction = q.order === 'desc' ? sql`desc` : sql`asc`;
  const found = rows<ListedPlan>(
    await db.execute(sql`
      select pl.id, pl.loan_number, pl.description, pl.recipient_id, r.name as recipient_name, pl.currency,
             pl.start_date::text as start_date, pl.end_date::text as end_date, pl.created_at, pl.state,
             pl.no_of_installments, pl.financed_minor::text as financed_minor,
             pl.monthly_fee_minor::text as monthly_fee_minor, pl.initial_fee_minor::text as initial_fee_minor,
             pl.administration_fee_minor::text as administration_fee_minor, pl.total_minor::text as total_minor,
             (${REMAINING_SQL})::text as remaining, count(*) over ()::int as total_count
      from installment_plans pl
      join recipients r on r.id = pl.recipient_id
      where ${sql.join(conditions, sql` and `)}
      order by ${SORT_SQL[q.sort]} ${direction}, pl.id ${direction}
      limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`),
  );
  return {
    items: found.map((p) => ({
      installmentPlanID: p.id,
      loanNumber: p.loan_number,
      description: p.description,
      recipientID: p.recipient_id,
      recipientName: p.recipient_name,
      currency: p.currency,
      startDate: p.start_date,
      endDate: p.end_date,
      created: new Date(p.created_at).toISOString(),
      state: p.state,
      noOfInstallments: p.no_of_installments,
      financedAmountMinor: Number(p.financed_minor),
      monthlyFee: Number(p.monthly_fee_minor),
      initialFee: Number(p.initial_fee_minor),
      administrationFee: Number(p.administration_fee_minor),
      total: Number(p.total_minor),
      remainingMinor: Number(p.remaining),
    })),
    total: found[0]?.total_count ?? (q.page > 1 ? await countPlans(db, conditions) : 0),
    page: q.page,
    pageSize: q.pageSize,
  };
}

/** The count of a filter, for a page past the last (where the window count has no row to ride on). */
async function countPlans(db: Db, conditions: SQL[]): Promise<number> {
  const [found] = rows<{ n: number }>(
    await db.execute(sql`
      select count(*)::int as n from installment_plans pl join recipients r on r.id = pl.recipient_id
      where ${sql.join(conditions, sql` and `)}`),
  );
  return found?.n ?? 0;
}
