import { INVOICE_STATE, PLAN_STATE_GROUPS, type PlanStateGroup } from '@portal/contracts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { selectPrepared } from '../../db/prepared';
import { minorOf } from '../../lib/minor';

/** The dashboard's card of installment plans (`DashboardResponse['installmentPlans']`). */
export interface PlansDashboard {
  counts: Record<PlanStateGroup, number>;
  openPrincipalMinor: number;
}

const COLLECTING = [...PLAN_STATE_GROUPS.active, ...PLAN_STATE_GROUPS.arrears];

/**
 * The issuer's plans at a glance (issue #14): how many in each group of states, and the principal
 * still owed in `currency` on the plans being collected: every schedule row whose invoice is not paid
 * (not invoiced yet, or its invoice open). A recalled plan's rows without an invoice of their own are
 * owed through the recall invoice, so they count until it is paid.
 */
export async function plansDashboard(db: Db, issuerId: string, currency: string): Promise<PlansDashboard> {
  const [byState, open] = await Promise.all([
    selectPrepared<{ state: number; n: number }>(
      db,
      sql`
      select state, count(*)::int as n from installment_plans where issuer_id = ${issuerId} group by state`,
    ),
    selectPrepared<{ open: string }>(
      db,
      sql`
      select coalesce(sum(r.principal_minor), 0)::bigint::text as open
      from installment_plans p
      join installment_plan_rows r on r.plan_id = p.id
      left join invoices i on i.id = coalesce(r.invoice_id, p.recall_invoice_id)
      where p.issuer_id = ${issuerId} and p.currency = ${currency}
        and p.state in (${sql.join(
          COLLECTING.map((s) => sql`${s}`),
          sql`, `,
        )})
        and (i.id is null or i.state <> ${INVOICE_STATE.paid})`,
    ),
  ]);
  const n = new Map(byState.map((r) => [r.state, r.n]));
  const count = (group: PlanStateGroup) =>
    PLAN_STATE_GROUPS[group].reduce((sum, state) => sum + (n.get(state) ?? 0), 0);
  return {
    counts: {
      signing: count('signing'),
      active: count('active'),
      arrears: count('arrears'),
      ended: count('ended'),
    },
    openPrincipalMinor: minorOf(open[0]?.open ?? '0'),
  };
}
