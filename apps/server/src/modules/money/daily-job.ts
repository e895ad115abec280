import {
  canTransition,
  INVOICE_EVENT,
  INVOICE_STATE,
  type InvoiceEvent,
  RECOURSE_SERVICES,
} from '@portal/contracts';
import { daysBetween } from '@portal/domain/calendar-date';
import type { Currency } from '@portal/domain/money';
import {
  DUNNING_DAYS,
  DUNNING_STEPS,
  dunningStepOn,
  INTEREST_MARGIN_BP,
  interestFor,
  REMINDER_FEE_MINOR,
  recourseDate,
} from '@portal/domain/money-flow';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { lockById } from '../../db/locks';
import { rows } from '../../db/migrate';
import { invoiceEvents, invoices } from '../../db/schema';
import { runDebtClaims } from './debt-claims';
import { failureOf, type IssuerFailure } from './issuer-failure';
import { type JournalKind, type LedgerAccount, postJournal, recogniseInvoice } from './ledger';

/** Any constant: the daily job runs under this transaction-level advisory lock, on one server at a time. */
const DAILY_JOB_LOCK_ID = 727_004;
/** Invoices read per batch while walking the unpaid ones by due date. */
const BATCH = 500;
/** Days between two interest items on an invoice in reminder 2 or collection. */
export const INTEREST_INTERVAL_DAYS = 30;

export interface DailyJobOptions {
  /** The day the job runs for, `YYYY-MM-DD` (Europe/Stockholm). */
  date: string;
  /** When it runs: the time of its events and postings. */
  now: Date;
  /** The reference rate in basis points; interest is this plus `INTEREST_MARGIN_BP`. */
  referenceRateBp: number;
  /**
   * The installment plans' step (issue #14), run after the collection walk: the installments' invoices
   * and completed plans. A hook, so money does not depend on the installments module (which books
   * through money); the scheduler, the back-office route and the demo seed pass
   * `runPlanSteps` of the installments service.
   */
  plans?: DailyPlanStep;
}

/** The plans' part of the day; each plan in its own transaction, its failure returned, not thrown. */
export type DailyPlanStep = (
  db: Db,
  day: { date: string; now: Date },
) => Promise<{
  installmentsInvoiced: number;
  plansCompleted: number;
  failures: { issuerId: string; planId: string; error: unknown }[];
}>;

export interface DailyJobResult {
  date: string;
  alreadyRunning: boolean;
  distributed: number;
  overdue: number;
  reminder1: number;
  reminder2: number;
  collection: number;
  interestItems: number;
  chargedBack: number;
  /** Installment invoices issued (docs/INSTALLMENTS.md "Money"). */
  installmentsInvoiced: number;
  plansCompleted: number;
  /** Debt claims made on issuers, and reminders of claims sent (docs/MONEY.md "Debt claims"). */
  debtClaims: number;
  claimReminders: number;
  /** Invoices whose steps failed and were left as they were (logged by the caller). */
  failed: string[];
  /**
   * Every failure with its issuer and code (issue #10): an issuer whose distribution failed (its
   * queued invoices stay queued, `invoiceId` null) or an invoice whose collection steps failed. The
   * other issuers and invoices went through.
   */
  failures: (IssuerFailure & { invoiceId: string | null; planId?: string })[];
}

/** The steps one invoice took; added to the day's result only once its savepoint has committed. */
type StepCounts = Pick<
  DailyJobResult,
  'overdue' | 'reminder1' | 'reminder2' | 'collection' | 'interestItems' | 'chargedBack'
>;
const noSteps = (): StepCounts => ({
  overdue: 0,
  reminder1: 0,
  reminder2: 0,
  collection: 0,
  interestItems: 0,
  chargedBack: 0,
});

interface Candidate {
  id: string;
  issuer_id: string;
  due_date: string;
  recourse_days: number;
  /** The invoice is an installment plan's (an installment or its recall): never charged back. */
  in_plan: boolean;
}

/**
 * The daily job of docs/MONEY.md for one day: distribute queued invoices, then take every unpaid
 * invoice through the collection steps it has reached (overdue, reminder 1 with its fee, reminder 2,
 * collection), interest items, and recourse. Every transaction takes the job's advisory lock (a second
 * run at the same time answers `alreadyRunning`). No issuer can stop another (issue #10): each issuer's
 * distribution is its own transaction, and the collection walk, one transaction per batch of invoices,
 * takes each invoice in its own savepoint with its row locked and its state checked again; a failure
 * rolls back that issuer's distribution or that invoice alone, is reported in `failures` with the
 * issuer and the code, and the rest go on. Each step is taken once (`dunning_step`,
 * `interest_through`, the state): running the same day twice writes nothing the second time, and a job
 * that missed days catches up with every step once.
 */
export async function runDailyJob(db: Db, opts: DailyJobOptions): Promise<DailyJobResult> {
  const result: DailyJobResult = {
    date: opts.date,
    alreadyRunning: false,
    distributed: 0,
    ...noSteps(),
    installmentsInvoiced: 0,
    plansCompleted: 0,
    debtClaims: 0,
    claimReminders: 0,
    failed: [],
    failures: [],
  };
  const locked = async (tx: Tx) =>
    rows<{ ok: boolean }>(
      await tx.execute(sql`select pg_try_advisory_xact_lock(${DAILY_JOB_LOCK_ID}) as ok`),
    )[0]?.ok === true;
  const queuedIssuers = await db.transaction(async (tx) =>
    (await locked(tx)) ? await issuersWithQueued(tx, opts.date) : null,
  );
  if (queuedIssuers === null) return { ...result, alreadyRunning: true };
  for (const issuerId of queuedIssuers) {
    try {
      const distributed = await db.transaction(async (tx) =>
        (await locked(tx)) ? await distributeQueued(tx, opts, issuerId) : null,
      );
      if (distributed === null) return { ...result, alreadyRunning: true };
      result.distributed += distributed;
    } catch (error) {
      result.failures.push({ ...failureOf(issuerId, error), invoiceId: null });
    }
  }
  // One transaction per batch, so a day with tens of thousands of late invoices never holds them all
  // locked at once; each batch takes the lock again, and a step already taken is not taken twice.
  let after: { due: string; id: string } | null = null;
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      if (!(await locked(tx))) return null;
      const found = await unpaidNeedingWork(tx, opts.date, after);
      for (const candidate of found) {
        try {
          const taken = noSteps();
          await tx.transaction((sp) => collectOne(sp, candidate, opts, taken));
          for (const key of Object.keys(taken) as (keyof StepCounts)[]) result[key] += taken[key];
        } catch (error) {
          result.failed.push(candidate.id);
          result.failures.push({ ...failureOf(candidate.issuer_id, error), invoiceId: candidate.id });
        }
      }
      return found;
    });
    if (batch === null) return { ...result, alreadyRunning: true };
    const last = batch.at(-1);
    if (!last || batch.length < BATCH) break;
    after = { due: last.due_date, id: last.id };
  }
  if (opts.plans) {
    const plans = await opts.plans(db, { date: opts.date, now: opts.now });
    result.installmentsInvoiced += plans.installmentsInvoiced;
    result.plansCompleted += plans.plansCompleted;
    for (const f of plans.failures)
      result.failures.push({ ...failureOf(f.issuerId, f.error), invoiceId: null, planId: f.planId });
  }
  // Last, after the day's charge backs: debts old enough become claims, and claims past due are reminded.
  const claims = await runDebtClaims(db, { date: opts.date, now: opts.now });
  result.debtClaims += claims.claims.length;
  result.claimReminders += claims.reminders;
  for (const f of claims.failures) result.failures.push({ ...f, invoiceId: null });
  return result;
}

/** Queued invoices (6) sent before the day: the issuers that have some, each distributed on its own. */
function queuedBefore(date: string) {
  return and(
    eq(invoices.state, INVOICE_STATE.creating),
    sql`(${invoices.sentAt} at time zone 'Europe/Stockholm')::date < ${date}::date`,
  );
}

async function issuersWithQueued(tx: Tx, date: string): Promise<string[]> {
  const found = await tx
    .selectDistinct({ issuerId: invoices.issuerId })
    .from(invoices)
    .where(queuedBefore(date))
    .orderBy(invoices.issuerId);
  return found.map((f) => f.issuerId);
}

/** Step 1 for one issuer: its queued invoices sent before the day are distributed (24) and enter the book. */
async function distributeQueued(tx: Tx, opts: DailyJobOptions, issuerId: string): Promise<number> {
  const queued = await tx
    .select({
      id: invoices.id,
      issuerId: invoices.issuerId,
      currency: invoices.currency,
      service: invoices.service,
      state: invoices.state,
      remainingMinor: invoices.remainingMinor,
    })
    .from(invoices)
    .where(and(eq(invoices.issuerId, issuerId), queuedBefore(opts.date)))
    .for('update');
  let distributed = 0;
  for (const invoice of queued) {
    if (!canTransition(invoice.state, 'distribute')) continue;
    await tx
      .update(invoices)
      .set({ state: INVOICE_STATE.notPaid, updatedAt: opts.now })
      .where(eq(invoices.id, invoice.id));
    await tx.insert(invoiceEvents).values({
      invoiceId: invoice.id,
      issuerId: invoice.issuerId,
      event: INVOICE_EVENT.distributed,
      at: opts.now,
      details: {},
    });
    await recogniseInvoice(tx, invoice, opts.now);
    distributed++;
  }
  return distributed;
}

/**
 * Unpaid invoices due before the day that have something to do: a collection step not taken yet, an
 * interest item due, or recourse reached. Walked by (due date, id) on the partial index of unpaid
 * invoices, so the job reads only the late ones however many invoices there are.
 */
async function unpaidNeedingWork(
  tx: Tx,
  date: string,
  after: { due: string; id: string } | null,
): Promise<Candidate[]> {
  const d = sql`${date}::date`;
  const n = (value: number) => sql`${value}::int`;
  const late = sql`(${d} - i.due_date)`;
  const recourse = sql.join(
    RECOURSE_SERVICES.map((s) => sql`${s}`),
    sql`, `,
  );
  return rows<Candidate>(
    await tx.execute(sql`
      select i.id, i.issuer_id, i.due_date::text as due_date, iss.recourse_days, ${IN_PLAN} as in_plan
      from invoices i join issuers iss on iss.id = i.issuer_id
      where i.state in (2, 3) and i.due_date < ${d}
        ${after ? sql`and (i.due_date, i.id) > (${after.due}::date, ${after.id}::uuid)` : sql``}
        and (
          i.dunning_step < case
            when ${late} >= ${n(DUNNING_DAYS.collection)} then ${n(DUNNING_STEPS.collection)}
            when ${late} >= ${n(DUNNING_DAYS.reminder2)} then ${n(DUNNING_STEPS.reminder2)}
            when ${late} >= ${n(DUNNING_DAYS.reminder1)} then ${n(DUNNING_STEPS.reminder1)}
            else ${n(DUNNING_STEPS.overdue)} end
          or (i.dunning_step >= ${n(DUNNING_STEPS.reminder2)}
              and ${d} - coalesce(i.interest_through, i.due_date) >= ${n(INTEREST_INTERVAL_DAYS)})
          or (i.service in (${recourse}) and ${d} >= i.due_date + iss.recourse_days and not ${IN_PLAN})
        )
      order by i.due_date, i.id
      limit ${n(BATCH)}`),
  );
}

/**
 * Whether invoice `i` belongs to an installment plan (a schedule row's or a recall's). Such invoices are
 * never charged back one by one: the plan's arrears lead to its final notice and recall instead.
 */
const IN_PLAN = sql`(exists (select 1 from installment_plan_rows r where r.invoice_id = i.id)
  or exists (select 1 from installment_plans p where p.recall_invoice_id = i.id))`;

const STEP_EVENTS = [
  { step: DUNNING_STEPS.overdue, event: INVOICE_EVENT.overdue, counter: 'overdue' },
  { step: DUNNING_STEPS.reminder1, event: INVOICE_EVENT.reminder1, counter: 'reminder1' },
  { step: DUNNING_STEPS.reminder2, event: INVOICE_EVENT.reminder2, counter: 'reminder2' },
  { step: DUNNING_STEPS.collection, event: INVOICE_EVENT.collection, counter: 'collection' },
] as const;

/** Steps 2-4 for one invoice, in the caller's savepoint. */
async function collectOne(
  tx: Tx,
  candidate: Candidate,
  opts: DailyJobOptions,
  result: StepCounts,
): Promise<void> {
  const invoice = await lockById(tx, invoices, candidate.id);
  if (!invoice || !canTransition(invoice.state, 'dun')) return;
  const target = dunningStepOn(invoice.dueDate, opts.date);
  const at = opts.now;
  const event = (n: InvoiceEvent, details: Record<string, string | number>) =>
    tx
      .insert(invoiceEvents)
      .values({ invoiceId: invoice.id, issuerId: invoice.issuerId, event: n, at, details });
  /** A journal of the invoice's own: `amountMinor` on `debit`, the same taken off `credit`. */
  const book = (kind: JournalKind, debit: LedgerAccount, credit: LedgerAccount, amountMinor: number) =>
    postJournal(tx, {
      issuerId: invoice.issuerId,
      currency: invoice.currency,
      kind,
      at,
      lines: [
        { account: debit, amountMinor, invoiceId: invoice.id },
        { account: credit, amountMinor: -amountMinor, invoiceId: invoice.id },
      ],
    });
  let step = invoice.dunningStep;
  let reachedCollection = false;
  for (const s of STEP_EVENTS) {
    if (s.step <= step || s.step > target) continue;
    if (s.event === INVOICE_EVENT.overdue) await event(INVOICE_EVENT.overdue, { dueDate: invoice.dueDate });
    if (s.event === INVOICE_EVENT.reminder1) {
      const fee = REMINDER_FEE_MINOR[invoice.currency as Currency] ?? 0;
      await event(INVOICE_EVENT.reminder1, { reminderFeeMinor: fee });
      await book('reminderFee', 'reminder_fee_receivable', 'reminder_fee_income', fee);
    }
    if (s.event === INVOICE_EVENT.reminder2) await event(INVOICE_EVENT.reminder2, {});
    if (s.event === INVOICE_EVENT.collection) {
      await event(INVOICE_EVENT.collection, { remainingMinor: invoice.remainingMinor });
      reachedCollection = true;
    }
    result[s.counter]++;
    step = s.step;
  }

  let interestThrough = invoice.interestThrough;
  const from = interestThrough ?? invoice.dueDate;
  if (
    step >= DUNNING_STEPS.reminder2 &&
    (daysBetween(from, opts.date) >= INTEREST_INTERVAL_DAYS || (reachedCollection && from < opts.date))
  ) {
    const rate = opts.referenceRateBp + INTEREST_MARGIN_BP;
    const interest = interestFor(invoice.remainingMinor, rate, from, opts.date);
    if (interest > 0) {
      await event(INVOICE_EVENT.interestItem, {
        interestMinor: interest,
        fromDate: from,
        toDate: opts.date,
        rateBasisPoints: rate,
      });
      await book('interest', 'interest_receivable', 'interest_income', interest);
      result.interestItems++;
    }
    interestThrough = opts.date;
  }

  let state = invoice.state;
  const recourse =
    !candidate.in_plan &&
    RECOURSE_SERVICES.includes(invoice.service as (typeof RECOURSE_SERVICES)[number]) &&
    opts.date >= recourseDate(invoice.dueDate, candidate.recourse_days) &&
    canTransition(state, 'chargeBack');
  if (recourse) {
    await event(INVOICE_EVENT.chargedBack, { chargedBackMinor: invoice.remainingMinor });
    await book('chargeBack', 'issuer_payable', 'receivable', invoice.remainingMinor);
    state = INVOICE_STATE.chargedBack;
    result.chargedBack++;
  }
  await tx
    .update(invoices)
    .set({ dunningStep: step, interestThrough, state, updatedAt: at })
    .where(eq(invoices.id, invoice.id));
}
