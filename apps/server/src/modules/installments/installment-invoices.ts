import {
  documentLanguageOf,
  INVOICE_STATE,
  type ParsedInvoiceBody,
  PLAN_EVENT,
  PLAN_STATE,
  planTransition,
} from '@portal/contracts';
import { addDays } from '@portal/domain/calendar-date';
import { translate } from '@portal/i18n';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rows as rowsOf } from '../../db/migrate';
import { issueInvoice } from '../invoices/invoices.service';
import { bookPlanInvoice } from '../money/money.service';
import * as repo from './installments.repository';

/**
 * The installment plans' part of the daily job (docs/INSTALLMENTS.md "Money"): each schedule row of an
 * active (2) or noticed (7) plan whose invoice date has come gets one invoice to the buyer, and a plan
 * whose every invoice is paid is completed (3), also right after the payment that pays it up
 * (`completePaidPlans`). One transaction per plan, with the plan locked and
 * everything read again under the lock, so running the same day twice writes nothing the second time
 * and one plan's failure leaves the others going.
 */

/** An installment's invoice is issued this many days before its due date (or at once when approved later). */
export const INSTALLMENT_INVOICE_DAYS = 30;

export interface PlanDay {
  /** The day the job runs for, `YYYY-MM-DD` (Europe/Stockholm). */
  date: string;
  now: Date;
}

export interface PlanStepsResult {
  installmentsInvoiced: number;
  plansCompleted: number;
  failures: { issuerId: string; planId: string; error: unknown }[];
}

/** Plans with work on the day: a row to invoice, or possibly everything paid. */
async function plansWithWork(db: Db, date: string) {
  return rowsOf<{ id: string; issuer_id: string }>(
    await db.execute(sql`
      select pl.id, pl.issuer_id from installment_plans pl
      where pl.state in (${PLAN_STATE.active}, ${PLAN_STATE.finalNotice}, ${PLAN_STATE.recalled})
        and (
          pl.state = ${PLAN_STATE.finalNotice}
          or exists (select 1 from installment_plan_rows r join invoices i on i.id = r.invoice_id
                     where r.plan_id = pl.id and i.state in (${INVOICE_STATE.notPaid}, ${INVOICE_STATE.partPaid})
                       and i.due_date < ${date}::date - 30)
          or exists (select 1 from installment_plan_rows r
                  where r.plan_id = pl.id and r.invoice_id is null and pl.recall_invoice_id is null
                    and r.due_date - ${INSTALLMENT_INVOICE_DAYS}::int <= ${date}::date)
          or not exists (select 1 from installment_plan_rows r left join invoices i on i.id = r.invoice_id
                         where r.plan_id = pl.id
                           and (i.state is distinct from ${INVOICE_STATE.paid})
                           and not (r.invoice_id is null and pl.recall_invoice_id is not null))
        )
      order by pl.id`),
  );
}

/** One 0 % VAT row of a plan's invoice (a financial service, exempt from VAT). */
function invoiceLine(name: string, amountMinor: number, description = '') {
  return {
    articleNumber: '',
    name,
    description,
    quantityMilli: 1000,
    unit: 'st' as const,
    unitPriceMinor: amountMinor,
    vatBasisPoints: 0,
    rotRut: false,
  };
}

/**
 * Issues one of the plan's invoices to its buyer (sent at once with its OCR reference) and books it
 * against the plan's receivable instead of the ordinary recognise journal.
 */
async function issueAndBook(
  tx: Tx,
  plan: repo.PlanRow,
  body: ParsedInvoiceBody,
  now: Date,
  entry: {
    principalMinor: number;
    feeMinor: number;
    kind: 'planInstallment' | 'planRecall';
    details: Record<string, string | number>;
  },
) {
  const issued = await issueInvoice(tx, plan.issuerId, body, now, entry.details);
  await bookPlanInvoice(
    tx,
    {
      planId: plan.id,
      issuerId: plan.issuerId,
      currency: plan.currency,
      invoiceId: issued.id,
      principalMinor: entry.principalMinor,
      feeMinor: entry.feeMinor,
      kind: entry.kind,
    },
    now,
  );
  return issued;
}

/** Everything of a plan's invoice to its buyer but the rows. */
function invoiceFrame(
  plan: repo.PlanRow,
  invoiceNumber: string,
  invoiceDate: string,
  dueDate: string,
): Omit<ParsedInvoiceBody, 'rows'> {
  return {
    recipientID: plan.recipientId,
    invoiceNumber,
    service: 'loans',
    currency: plan.currency,
    invoiceDate,
    dueDate,
    orderReference: plan.loanNumber,
    issuerContact: '',
    recipientContact: '',
    rotRut: { type: 'none', personalNumber: '', propertyDesignation: '', housingCoopNumber: '' },
    attachmentIDs: [],
    duplicatedFromID: null,
    invoiceFileID: null,
  };
}

/** The day's step for every plan; each plan in its own transaction, failures reported, not thrown. */
export async function runPlanSteps(db: Db, day: PlanDay): Promise<PlanStepsResult> {
  const result: PlanStepsResult = { installmentsInvoiced: 0, plansCompleted: 0, failures: [] };
  for (const plan of await plansWithWork(db, day.date)) {
    try {
      const done = await db.transaction((tx) => planStep(tx, plan.id, day));
      result.installmentsInvoiced += done.invoiced;
      result.plansCompleted += done.completed ? 1 : 0;
    } catch (error) {
      result.failures.push({ issuerId: plan.issuer_id, planId: plan.id, error });
    }
  }
  return result;
}

/** One plan's day, in its transaction: the rows due for invoicing, then completion. */
async function planStep(tx: Tx, planId: string, day: PlanDay) {
  const plan = await repo.lockPlan(tx, planId);
  let invoiced = 0;
  if (plan.state === PLAN_STATE.active || plan.state === PLAN_STATE.finalNotice) {
    const buyer = await repo.findOwnBuyer(tx, plan.issuerId, plan.recipientId);
    if (!buyer) throw new Error(`installment plan ${plan.id}: its buyer is gone`);
    const language = documentLanguageOf(buyer);
    const t = (key: string, values: Record<string, string | number> = {}) =>
      translate(language, 'documents', `installmentInvoice.${key}`, values);
    for (const { row } of await repo.listScheduleRows(tx, plan.id)) {
      if (row.invoiceId || plan.recallInvoiceId) continue;
      if (addDays(row.dueDate, -INSTALLMENT_INVOICE_DAYS) > day.date) continue;
      const line = invoiceLine;
      const body: ParsedInvoiceBody = {
        ...invoiceFrame(
          plan,
          `${plan.loanNumber}-${row.number}`,
          day.date < row.dueDate ? day.date : row.dueDate,
          row.dueDate,
        ),
        rows: [
          line(
            t('principal', { number: row.number, count: plan.noOfInstallments }),
            row.principalMinor,
            t('vatExempt', { loanNumber: plan.loanNumber }),
          ),
          ...(
            [
              ['initialFee', row.initialFeeMinor],
              ['monthlyFee', row.monthlyFeeMinor],
              ['administrationFee', row.administrationFeeMinor],
            ] as const
          )
            .filter(([, amount]) => amount > 0)
            .map(([key, amount]) => line(t(key), amount)),
        ],
      };
      const issued = await issueAndBook(tx, plan, body, day.now, {
        principalMinor: row.principalMinor,
        feeMinor: row.feeMinor,
        kind: 'planInstallment',
        details: { loanNumber: plan.loanNumber, installment: row.number },
      });
      await repo.linkRowInvoice(tx, plan.id, row.number, issued.id);
      await repo.insertPlanEvents(tx, [
        {
          planId: plan.id,
          issuerId: plan.issuerId,
          event: PLAN_EVENT.installmentInvoiced,
          state: plan.state,
          at: day.now,
          details: { installment: row.number, invoiceID: issued.id, ocr: issued.ocr },
        },
      ]);
      invoiced++;
    }
  }
  const state = await noticeStep(tx, plan, day);
  const completed =
    (await repo.isPlanPaidUp(tx, plan.id)) && (await complete(tx, { ...plan, state }, day.now));
  return { invoiced, completed };
}

/** Days of the final notice before the recall (docs/INSTALLMENTS.md "States and transitions"). */
export const FINAL_NOTICE_DAYS = 28;

/**
 * The arrears rule: an active plan whose overdue installments pass the limit gets its final notice; a
 * noticed plan whose arrears are paid is active again, and one whose notice ran out with arrears left
 * is recalled: the principal not yet invoiced becomes one invoice due at once. Returns the plan's state.
 */
async function noticeStep(tx: Tx, plan: repo.PlanRow, day: PlanDay): Promise<number> {
  const arrears = await repo.arrearsOf(tx, plan.id, day.date);
  const move = async (
    action: 'finalNotice' | 'resume' | 'recall',
    details: Record<string, string | number>,
    recallInvoiceId?: string,
  ) => {
    const next = planTransition(plan.state, action);
    if (!next) return plan.state;
    await repo.setPlanState(tx, plan.id, next.state, day.now, recallInvoiceId ? { recallInvoiceId } : {});
    await repo.insertPlanEvents(tx, [
      {
        planId: plan.id,
        issuerId: plan.issuerId,
        event: next.event,
        state: next.state,
        at: day.now,
        details,
      },
    ]);
    return next.state;
  };
  if (plan.state === PLAN_STATE.active) {
    const overLimit = arrears.overMonthMinor * 10 > plan.financedMinor || arrears.overTwoMonthsMinor > 0;
    return overLimit
      ? move('finalNotice', {
          arrearsMinor: arrears.overdueMinor,
          noticeEndsOn: addDays(day.date, FINAL_NOTICE_DAYS),
        })
      : plan.state;
  }
  if (plan.state !== PLAN_STATE.finalNotice) return plan.state;
  if (arrears.overdueMinor === 0) return move('resume', {});
  const noticeEndsOn = await repo.noticeEndOf(tx, plan.id);
  if (!noticeEndsOn || day.date < noticeEndsOn) return plan.state;
  const principalMinor = await repo.principalNotInvoiced(tx, plan.id);
  if (principalMinor === 0) return move('recall', { arrearsMinor: arrears.overdueMinor });
  const buyer = await repo.findOwnBuyer(tx, plan.issuerId, plan.recipientId);
  if (!buyer) throw new Error(`installment plan ${plan.id}: its buyer is gone`);
  const language = documentLanguageOf(buyer);
  const t = (key: string) =>
    translate(language, 'documents', `installmentInvoice.${key}`, { loanNumber: plan.loanNumber });
  const issued = await issueAndBook(
    tx,
    plan,
    {
      ...invoiceFrame(plan, `${plan.loanNumber}-R`, day.date, day.date),
      rows: [invoiceLine(t('recall'), principalMinor, t('vatExempt'))],
    },
    day.now,
    { principalMinor, feeMinor: 0, kind: 'planRecall', details: { loanNumber: plan.loanNumber } },
  );
  return move('recall', { invoiceID: issued.id, principalMinor }, issued.id);
}

export interface PlanCompletions {
  plansCompleted: number;
  /** Plans whose completion failed and was rolled back alone; the daily job's next run completes them. */
  failures: { issuerId: string; planId: string; error: unknown }[];
}

/**
 * Completes the plans that payments just applied have paid up (docs/INSTALLMENTS.md "Completion"), in
 * the payments' transaction: money's `afterApplied` step of a BGMAX import (`{ fileId }`) or of an
 * operator's assignment (`{ paymentId }`), so a plan is completed with the payment that pays its last
 * invoice, or not at all. Each plan in its own savepoint: one that fails is rolled back alone and
 * returned, and the import goes on. A plan another transaction holds (the daily job) is skipped, not
 * waited for; the daily job completes whatever is left.
 */
export async function completePaidPlans(
  tx: Tx,
  of: { fileId: string } | { paymentId: string },
  at: Date,
): Promise<PlanCompletions> {
  const result: PlanCompletions = { plansCompleted: 0, failures: [] };
  const open = [PLAN_STATE.active, PLAN_STATE.finalNotice, PLAN_STATE.recalled];
  for (const found of await repo.plansPaidBy(tx, of, open)) {
    try {
      const completed = await tx.transaction(async (sp) => {
        const plan = await repo.lockPlanIfFree(sp, found.id);
        return plan !== null && (await repo.isPlanPaidUp(sp, plan.id)) && (await complete(sp, plan, at));
      });
      if (completed) result.plansCompleted++;
    } catch (error) {
      result.failures.push({ issuerId: found.issuerId, planId: found.id, error });
    }
  }
  return result;
}

/** Moves a paid-up plan to completed (3) with its event; false when its state does not allow it. */
async function complete(tx: Tx, plan: repo.PlanRow, now: Date): Promise<boolean> {
  const next = planTransition(plan.state, 'complete');
  if (!next) return false;
  await repo.setPlanState(tx, plan.id, next.state, now);
  await repo.insertPlanEvents(tx, [
    { planId: plan.id, issuerId: plan.issuerId, event: next.event, state: next.state, at: now },
  ]);
  return true;
}
