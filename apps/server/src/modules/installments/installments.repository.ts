// Over 500 lines on purpose: every query of the four plan tables (plan, schedule, parties, timeline) in
// one place, each naming the issuer; the list's queries are apart in installments-list.repository.ts.
import { documentLanguageOf, INVOICE_STATE, PLAN_EVENT, PLAN_STATE } from '@portal/contracts';
import { luhnCheckDigit } from '@portal/domain/luhn';
import { type Currency, toCurrency } from '@portal/domain/money';
import { isValidPersonalNumber } from '@portal/domain/personal-number';
import { and, asc, desc, eq, inArray, ne, notInArray, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { firstOrNull } from '../../db/first-row';
import { nextCounterValue } from '../../db/issuer-counters';
import { lockById, lockOwnById } from '../../db/locks';
import { rows as rowsOf } from '../../db/migrate';
import {
  installmentPlanEvents,
  installmentPlanParties,
  installmentPlanRows,
  installmentPlans,
  invoices,
  issuers,
  recipients,
} from '../../db/schema';
import { ApiError } from '../../lib/errors';
import type { Signee } from '../e-signing/e-signing.service';
import type { AgreementToDraw } from './agreement-pdf';

/**
 * The queries of the installments module (docs/INSTALLMENTS.md): a plan with its schedule, parties and
 * timeline. Every read and write names the issuer, so another issuer's plan is never found.
 */

export type PlanRow = typeof installmentPlans.$inferSelect;
export type PlanValues = Omit<
  typeof installmentPlans.$inferInsert,
  'id' | 'loanNumber' | 'state' | 'createdAt' | 'updatedAt'
>;
export type ScheduleRowValues = Omit<typeof installmentPlanRows.$inferInsert, 'planId' | 'invoiceId'>;
export type PartyValues = Omit<typeof installmentPlanParties.$inferInsert, 'id' | 'planId'>;
export type PlanEventValues = Omit<typeof installmentPlanEvents.$inferInsert, 'id' | 'seq'>;

/** Loan numbers start here, so every one has the same length for a long time (nine digits with the check digit). */
const LOAN_NUMBER_BASE = 10_000_000;

/**
 * The issuer's next loan number: a per-issuer sequence with a Luhn check digit, so a number read over
 * the phone or typed into a payment is caught when one digit is wrong.
 */
export async function nextLoanNumber(tx: Tx, issuerId: string): Promise<string> {
  const base = String(LOAN_NUMBER_BASE + (await nextCounterValue(tx, issuerId, 'loan')));
  return `${base}${luhnCheckDigit(base)}`;
}

/** The issuer's recipient (the buyer); another issuer's is not found. */
export async function findOwnBuyer(db: Db | Tx, issuerId: string, recipientId: string) {
  return firstOrNull(
    db
      .select()
      .from(recipients)
      .where(and(eq(recipients.issuerId, issuerId), eq(recipients.id, recipientId))),
  );
}

/** Writes a new plan in state `state` with its schedule and parties, in the caller's transaction. */
export async function insertPlan(
  tx: Tx,
  plan: PlanValues & { loanNumber: string; state: number },
  schedule: ScheduleRowValues[],
  parties: PartyValues[],
  now: Date,
): Promise<PlanRow> {
  const [created] = await tx
    .insert(installmentPlans)
    .values({ ...plan, createdAt: now, updatedAt: now })
    .returning();
  if (!created) throw new ApiError('server.internal');
  if (schedule.length > 0)
    await tx.insert(installmentPlanRows).values(schedule.map((r) => ({ ...r, planId: created.id })));
  if (parties.length > 0)
    await tx.insert(installmentPlanParties).values(parties.map((p) => ({ ...p, planId: created.id })));
  return created;
}

/** The issuer's plan, locked for the rest of the transaction; another issuer's is not found. */
export function lockOwnPlan(tx: Tx, issuerId: string, id: string): Promise<PlanRow> {
  return lockOwnById(tx, installmentPlans, issuerId, id, 'installmentPlans.not_found');
}

/** Moves a plan to `state` (the caller checked the transition) and stamps the change. */
export async function setPlanState(
  tx: Tx,
  id: string,
  state: number,
  now: Date,
  extra: Partial<Pick<PlanRow, 'signingDocumentId' | 'signedFileKey' | 'recallInvoiceId'>> = {},
): Promise<void> {
  await tx
    .update(installmentPlans)
    .set({ state, updatedAt: now, ...extra })
    .where(eq(installmentPlans.id, id));
}

export async function insertPlanEvents(tx: Tx, events: PlanEventValues[]): Promise<void> {
  if (events.length > 0) await tx.insert(installmentPlanEvents).values(events);
}

/** The issuer's plan with its buyer's name, or null. */
export async function findOwnPlan(db: Db | Tx, issuerId: string, id: string) {
  return firstOrNull(
    db
      .select({ plan: installmentPlans, buyerName: recipients.name })
      .from(installmentPlans)
      .innerJoin(recipients, eq(recipients.id, installmentPlans.recipientId))
      .where(and(eq(installmentPlans.issuerId, issuerId), eq(installmentPlans.id, id))),
  );
}

/** A plan's schedule in order, with each issued installment's invoice number and state. */
export function listScheduleRows(db: Db | Tx, planId: string) {
  return db
    .select({
      row: installmentPlanRows,
      invoiceNumber: invoices.invoiceNumber,
      invoiceState: invoices.state,
      remainingMinor: invoices.remainingMinor,
    })
    .from(installmentPlanRows)
    .leftJoin(invoices, eq(invoices.id, installmentPlanRows.invoiceId))
    .where(eq(installmentPlanRows.planId, planId))
    .orderBy(asc(installmentPlanRows.number));
}

/** A plan's signees and securities, each in its order. */
export function listParties(db: Db | Tx, planId: string) {
  return db
    .select()
    .from(installmentPlanParties)
    .where(eq(installmentPlanParties.planId, planId))
    .orderBy(asc(installmentPlanParties.role), asc(installmentPlanParties.position));
}

/** A plan's timeline in the order it was written. */
export function listPlanEvents(db: Db | Tx, planId: string) {
  return db
    .select()
    .from(installmentPlanEvents)
    .where(eq(installmentPlanEvents.planId, planId))
    .orderBy(asc(installmentPlanEvents.seq));
}

/** The plans of a signing order at the provider (its callback names the document, not the issuer). */
export async function findPlanBySigningDocument(db: Db | Tx, documentId: string) {
  return firstOrNull(
    db.select().from(installmentPlans).where(eq(installmentPlans.signingDocumentId, documentId)),
  );
}

/** The plans of these ids that belong to the issuer. */
export function listOwnPlans(db: Db | Tx, issuerId: string, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(installmentPlans)
    .where(and(eq(installmentPlans.issuerId, issuerId), inArray(installmentPlans.id, ids)));
}

/** Any issuer's plan, locked: for the back office, whose decision is not made for one issuer. */
export async function lockPlan(tx: Tx, id: string): Promise<PlanRow> {
  const row = await lockById(tx, installmentPlans, id);
  if (!row) throw new ApiError('installmentPlans.not_found');
  return row;
}

/**
 * Any issuer's plan, locked, or null when another transaction holds it: a payment step that finds a
 * plan busy (the daily job working on it) leaves it to the job's next run instead of waiting on it.
 */
export async function lockPlanIfFree(tx: Tx, id: string): Promise<PlanRow | null> {
  return firstOrNull(
    tx.select().from(installmentPlans).where(eq(installmentPlans.id, id)).for('update', { skipLocked: true }),
  );
}

/**
 * The plans still being collected (2, 7, 5) that the payments of an imported file, or one assigned
 * payment, were applied to (an installment's invoice or the recall's), by id: the plans those payments
 * may have paid up. Walked from the open plans, whose invoices' payments are found by their index.
 */
export async function plansPaidBy(
  tx: Tx,
  of: { fileId: string } | { paymentId: string },
  states: readonly number[],
): Promise<{ id: string; issuerId: string }[]> {
  const which = 'fileId' in of ? sql`p.file_id = ${of.fileId}` : sql`p.id = ${of.paymentId}`;
  const found = rowsOf<{ id: string; issuer_id: string }>(
    await tx.execute(sql`
      select pl.id, pl.issuer_id from installment_plans pl
      where pl.state in (${sql.join(
        states.map((s) => sql`${s}`),
        sql`, `,
      )})
        and exists (
          select 1 from payments p
          where ${which} and p.applied_minor > 0
            and (p.invoice_id = pl.recall_invoice_id
              or p.invoice_id in (select r.invoice_id from installment_plan_rows r where r.plan_id = pl.id)))
      order by pl.id`),
  );
  return found.map((f) => ({ id: f.id, issuerId: f.issuer_id }));
}

/** A registered plan's new terms: its row, schedule and parties replaced in the caller's transaction. */
export async function replacePlanTerms(
  tx: Tx,
  id: string,
  plan: PlanValues,
  schedule: ScheduleRowValues[],
  parties: PartyValues[],
  now: Date,
): Promise<void> {
  const { createdBy: _createdBy, issuerId: _issuerId, ...terms } = plan;
  await tx
    .update(installmentPlans)
    .set({ ...terms, updatedAt: now })
    .where(eq(installmentPlans.id, id));
  await tx.delete(installmentPlanRows).where(eq(installmentPlanRows.planId, id));
  await tx.delete(installmentPlanParties).where(eq(installmentPlanParties.planId, id));
  if (schedule.length > 0)
    await tx.insert(installmentPlanRows).values(schedule.map((r) => ({ ...r, planId: id })));
  if (parties.length > 0)
    await tx.insert(installmentPlanParties).values(parties.map((p) => ({ ...p, planId: id })));
}

/** The newest plan registered to replace `id` that also meets `which`, or null. */
async function replacementOf(db: Db | Tx, id: string, which: SQL | undefined): Promise<string | null> {
  const [found] = await db
    .select({ id: installmentPlans.id })
    .from(installmentPlans)
    .where(and(eq(installmentPlans.replacesPlanId, id), which))
    .orderBy(desc(installmentPlans.createdAt))
    .limit(1);
  return found?.id ?? null;
}

/**
 * The plan that replaces this one: the one that did, or the one registered to do it and not decided
 * yet; a cancelled or rejected replacement is none.
 */
export function findReplacingPlanId(db: Db | Tx, id: string): Promise<string | null> {
  return replacementOf(
    db,
    id,
    notInArray(installmentPlans.state, [PLAN_STATE.cancelled, PLAN_STATE.agreementRejected]),
  );
}

/**
 * Another plan than `exceptId` registered to replace `id` and still waiting (registered, sent for
 * signing or signed), or null: a plan is replaced by one plan at a time.
 */
export function findPendingReplacement(
  db: Db | Tx,
  id: string,
  exceptId: string | null,
): Promise<string | null> {
  const waiting = [PLAN_STATE.registered, PLAN_STATE.sentForSigning, PLAN_STATE.signed];
  return replacementOf(
    db,
    id,
    and(inArray(installmentPlans.state, waiting), exceptId ? ne(installmentPlans.id, exceptId) : undefined),
  );
}

/**
 * What a buyer still owes on a plan (SQL over one plan row `pl`): nothing once it is completed,
 * cancelled or rejected; otherwise what is left on the plan's invoices plus the rows not yet invoiced,
 * unless a recall invoice took them over or a replacing plan (state 6) did.
 */
export const REMAINING_SQL = sql`case when pl.state in (3, 4, 10) then 0 else
  coalesce((select sum(case when r.invoice_id is null
                         then (case when pl.recall_invoice_id is null and pl.state <> 6 then r.amount_minor else 0 end)
                       else i.remaining_minor end)
            from installment_plan_rows r left join invoices i on i.id = r.invoice_id
            where r.plan_id = pl.id), 0)
  + coalesce((select ri.remaining_minor from invoices ri where ri.id = pl.recall_invoice_id), 0) end`;

export async function remainingOf(db: Db | Tx, plan: PlanRow): Promise<number> {
  const [found] = rowsOf<{ remaining: string }>(
    await db.execute(
      sql`select (${REMAINING_SQL})::text as remaining from installment_plans pl where pl.id = ${plan.id}`,
    ),
  );
  return Number(found?.remaining ?? 0);
}

/** How a signee proves who signs: BankID for a Swedish personal number, a plain link otherwise. */
function authenticationOf(identityNumber: string): Signee['authentication'] {
  return isValidPersonalNumber(identityNumber) ? 'se_bankid' : 'standard';
}

/** Everything the agreement PDF and the signing order need of a plan, read in the caller's transaction. */
export async function agreementInputOf(
  tx: Tx,
  plan: PlanRow,
  today: string,
): Promise<{ agreement: AgreementToDraw; title: string; signees: Signee[] }> {
  const [issuer] = await tx.select().from(issuers).where(eq(issuers.id, plan.issuerId));
  const buyer = await findOwnBuyer(tx, plan.issuerId, plan.recipientId);
  if (!issuer || !buyer) throw new ApiError('installmentPlans.not_found');
  const schedule = await listScheduleRows(tx, plan.id);
  const parties = await listParties(tx, plan.id);
  const language = documentLanguageOf(buyer);
  const person = (p: (typeof parties)[number]) => ({
    name: p.name,
    identityNumber: p.identityNumber,
    email: p.email,
  });
  const signees = parties.filter((p) => p.role === 'signee');
  return {
    title: `${plan.loanNumber} ${plan.description}`.slice(0, 200),
    signees: signees.map((p) => ({
      name: p.name,
      email: p.email,
      ...(p.phone ? { mobile: p.phone } : {}),
      ...(isValidPersonalNumber(p.identityNumber) ? { personalNumber: p.identityNumber } : {}),
      authentication: authenticationOf(p.identityNumber),
    })),
    agreement: {
      language,
      date: today,
      seller: {
        name: issuer.name,
        organizationNo: issuer.organizationNo,
        address: issuer.address1,
        zipcode: issuer.zipcode,
        city: issuer.city,
      },
      buyer: {
        name: buyer.name,
        identityNumber: signees[0]?.identityNumber ?? buyer.organizationNumber,
        address: buyer.address,
        zipcode: buyer.zipcode,
        city: buyer.city,
      },
      plan: {
        loanNumber: plan.loanNumber,
        description: plan.description,
        currency: toCurrency(plan.currency) as Currency,
        financedMinor: plan.financedMinor,
        initialFeeMinor: plan.initialFeeMinor,
        monthlyFeeMinor: plan.monthlyFeeMinor,
        administrationFeeMinor: plan.administrationFeeMinor,
        totalMinor: plan.totalMinor,
        noOfInstallments: plan.noOfInstallments,
        startDate: plan.startDate,
        endDate: plan.endDate,
      },
      rows: schedule.map(({ row }) => row),
      signees: signees.map(person),
      securities: parties.filter((p) => p.role === 'security').map(person),
    },
  };
}

/** The signing order's party id and link on each signee, in the order the signees were given. */
export async function setSigningLinks(
  tx: Tx,
  planId: string,
  links: readonly { partyId: string; link: string }[],
): Promise<void> {
  const signees = (await listParties(tx, planId)).filter((p) => p.role === 'signee');
  for (const [i, party] of signees.entries()) {
    const link = links[i];
    if (!link) continue;
    await tx
      .update(installmentPlanParties)
      .set({ signingPartyId: link.partyId, signingLink: link.link, signedAt: null, rejectedAt: null })
      .where(eq(installmentPlanParties.id, party.id));
  }
}

/**
 * Each signee's signing or refusal as the provider reports it, by the provider's party id; returns the
 * names of those whose signature is new (an event each).
 */
export async function recordSignees(
  tx: Tx,
  planId: string,
  states: readonly { partyId: string; signedAt: string | null; rejectedAt: string | null }[],
): Promise<string[]> {
  const newlySigned: string[] = [];
  const signees = (await listParties(tx, planId)).filter((p) => p.role === 'signee');
  for (const party of signees) {
    const state = states.find((s) => s.partyId === party.signingPartyId);
    if (!state) continue;
    const signedAt = state.signedAt ? new Date(state.signedAt) : null;
    const rejectedAt = state.rejectedAt ? new Date(state.rejectedAt) : null;
    if (signedAt && !party.signedAt) newlySigned.push(party.name);
    if ((signedAt && !party.signedAt) || (rejectedAt && !party.rejectedAt))
      await tx
        .update(installmentPlanParties)
        .set({ signedAt: party.signedAt ?? signedAt, rejectedAt: party.rejectedAt ?? rejectedAt })
        .where(eq(installmentPlanParties.id, party.id));
  }
  return newlySigned;
}

/** Links a schedule row to its invoice, in the caller's transaction. */
export async function linkRowInvoice(
  tx: Tx,
  planId: string,
  number: number,
  invoiceId: string,
): Promise<void> {
  await tx
    .update(installmentPlanRows)
    .set({ invoiceId })
    .where(and(eq(installmentPlanRows.planId, planId), eq(installmentPlanRows.number, number)));
}

/**
 * Whether nothing is left on a plan: every row's invoice is paid (4), or, for the rows a recall took
 * over, the recall invoice is; a row not yet invoiced is still owed.
 */
export async function isPlanPaidUp(tx: Tx, planId: string): Promise<boolean> {
  const [found] = rowsOf<{ open: number }>(
    await tx.execute(sql`
      select count(*)::int as open
      from installment_plans pl
      join installment_plan_rows r on r.plan_id = pl.id
      left join invoices i on i.id = coalesce(r.invoice_id, pl.recall_invoice_id)
      where pl.id = ${planId} and i.state is distinct from ${INVOICE_STATE.paid}`),
  );
  return found?.open === 0;
}

/**
 * What the buyer is late with on a plan's installment invoices on `date`: all that is overdue, what is
 * more than a month (30 days) overdue, and what is more than two months (60 days) overdue.
 */
export async function arrearsOf(tx: Tx, planId: string, date: string) {
  const [found] = rowsOf<{ overdue: string; month: string; two: string }>(
    await tx.execute(sql`
      select coalesce(sum(i.remaining_minor) filter (where i.due_date < ${date}::date), 0)::text as overdue,
             coalesce(sum(i.remaining_minor) filter (where i.due_date < ${date}::date - 30), 0)::text as month,
             coalesce(sum(i.remaining_minor) filter (where i.due_date < ${date}::date - 60), 0)::text as two
      from installment_plan_rows r join invoices i on i.id = r.invoice_id
      where r.plan_id = ${planId} and i.state in (${INVOICE_STATE.notPaid}, ${INVOICE_STATE.partPaid})`),
  );
  return {
    overdueMinor: Number(found?.overdue ?? 0),
    overMonthMinor: Number(found?.month ?? 0),
    overTwoMonthsMinor: Number(found?.two ?? 0),
  };
}

/** The day the plan's latest final notice ends (`noticeEndsOn` of its event), or null. */
export async function noticeEndOf(tx: Tx, planId: string): Promise<string | null> {
  const [found] = await tx
    .select({ details: installmentPlanEvents.details })
    .from(installmentPlanEvents)
    .where(
      and(eq(installmentPlanEvents.planId, planId), eq(installmentPlanEvents.event, PLAN_EVENT.finalNotice)),
    )
    .orderBy(desc(installmentPlanEvents.seq))
    .limit(1);
  const ends = found?.details?.noticeEndsOn;
  return typeof ends === 'string' ? ends : null;
}

/** The principal of the plan's rows not invoiced yet. */
export async function principalNotInvoiced(tx: Db | Tx, planId: string): Promise<number> {
  const [found] = rowsOf<{ principal: string }>(
    await tx.execute(sql`
      select coalesce(sum(principal_minor), 0)::text as principal
      from installment_plan_rows where plan_id = ${planId} and invoice_id is null`),
  );
  return Number(found?.principal ?? 0);
}

/**
 * What a replacing plan takes over of `plan` (docs/INSTALLMENTS.md "States and transitions"): the
 * principal not yet invoiced of an active or noticed plan, what is left of the open recall invoice of a
 * recalled one; 0 in every other state (nothing can replace it).
 */
export async function openPrincipalOf(
  db: Db | Tx,
  plan: Pick<PlanRow, 'id' | 'state' | 'recallInvoiceId'>,
): Promise<number> {
  if (plan.state === PLAN_STATE.recalled) {
    if (!plan.recallInvoiceId) return 0;
    const [recall] = await db
      .select({ remainingMinor: invoices.remainingMinor })
      .from(invoices)
      .where(
        and(
          eq(invoices.id, plan.recallInvoiceId),
          inArray(invoices.state, [INVOICE_STATE.notPaid, INVOICE_STATE.partPaid]),
        ),
      );
    return recall?.remainingMinor ?? 0;
  }
  if (plan.state !== PLAN_STATE.active && plan.state !== PLAN_STATE.finalNotice) return 0;
  return plan.recallInvoiceId ? 0 : principalNotInvoiced(db, plan.id);
}
