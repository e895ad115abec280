import {
  INVOICE_STATE,
  installmentPlanDetailSchema,
  PLAN_EVENT,
  PLAN_STATE,
  runDailyResponseSchema,
} from '@portal/contracts';
import { addDays } from '@portal/domain/calendar-date';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { registerPlanBuyer, signInstallmentPlan } from '../../../test/support/installment-plans';
import { VALID_PLAN_BODY } from '../../../test/support/route-samples';
import { bearer } from '../../../test/support/test-app';
import { useTestApp } from '../../../test/support/use-test-app';
import { installmentPlans, invoices, postings, settlementRows } from '../../db/schema';
import { todayIn } from '../../lib/today';
import { checkBooks, runPayout } from '../money/money.service';
import { FINAL_NOTICE_DAYS, INSTALLMENT_INVOICE_DAYS } from './installments.service';

/**
 * Replacement (issue #14, docs/INSTALLMENTS.md "States and transitions" and "Money"): a new plan takes
 * over the open principal of an active, noticed or recalled plan. Through the API with the real
 * signing sandbox and the daily job: the rules of registering one, the approval that moves the open
 * principal to the öre in one journal (no payout), the old plan replaced (6) and issuing nothing more,
 * a rejected replacement leaving the old plan as it was, and another issuer's plan not found.
 */

const t = useTestApp({ resetEach: true });

type Call = { status: number; body: unknown };
type Detail = ReturnType<typeof installmentPlanDetailSchema.parse>;

async function call(token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  const res = await t.app.inject({
    method,
    url,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
  return { status: res.statusCode, body: res.json() } as Call;
}

const PLANS = '/api/limited/installmentplans';

const newBuyer = (token: string) => registerPlanBuyer(t, token);

function register(token: string, body: Record<string, unknown>) {
  return call(token, 'POST', PLANS, { ...VALID_PLAN_BODY, ...body });
}

/** The signee signs on the sandbox's page and the provider's callback reaches us. */
async function signOnSandbox(planId: string) {
  expect((await signInstallmentPlan(t, planId)).statusCode).toBe(200);
}

/** Sends a registered plan for signing and signs it on the sandbox's page: the plan is signed (9). */
async function signed(planId: string) {
  const sent = await call(await t.login('demo'), 'POST', `${PLANS}/${planId}/signing`);
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  await signOnSandbox(planId);
  expect((await detail(planId)).state).toBe(PLAN_STATE.signed);
}

async function decide(planId: string, decision: 'approved' | 'rejected') {
  return call(await t.loginOperator(), 'POST', `/api/backoffice/installmentplans/${planId}/decision`, {
    decision,
  });
}

/** The plan's page as the demo user sees it (each read logs in again: the clock moves by months). */
async function detail(planId: string): Promise<Detail> {
  const res = await call(await t.login('demo'), 'GET', `${PLANS}/${planId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return installmentPlanDetailSchema.parse(res.body);
}

/** A plan of the demo issuer to a new buyer, signed on the sandbox's page and approved. */
async function approvedPlan(terms: Record<string, unknown> = {}) {
  const token = await t.login('demo');
  const recipientID = await newBuyer(token);
  const res = await register(token, { startDate: '2026-03-20', recipientID, ...terms });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const plan = installmentPlanDetailSchema.parse(res.body);
  await signed(plan.installmentPlanID);
  expect((await decide(plan.installmentPlanID, 'approved')).status).toBe(200);
  const [row] = await t.db
    .select()
    .from(installmentPlans)
    .where(eq(installmentPlans.id, plan.installmentPlanID));
  return { id: plan.installmentPlanID, recipientID, issuerId: row?.issuerId ?? '' };
}

/** The back office runs the daily job on `date`, the app's clock set to that morning. */
async function runDay(date: string) {
  t.clock.set(new Date(`${date}T05:00:00.000Z`));
  const res = await call(await t.loginOperator(), 'POST', '/api/backoffice/daily', { date });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const ran = runDailyResponseSchema.parse(res.body);
  expect(ran.failures).toEqual([]);
  return ran;
}

/** The sum of a plan's plan_receivable postings: what the book holds of its principal. */
async function planReceivable(planId: string): Promise<number> {
  const [found] = await t.db
    .select({ total: sql<string>`coalesce(sum(${postings.amountMinor}), 0)::text` })
    .from(postings)
    .where(and(eq(postings.planId, planId), eq(postings.account, 'plan_receivable')));
  return Number(found?.total ?? 0);
}

const notInvoicedPrincipal = (plan: Detail) =>
  plan.installments.filter((r) => !r.invoiceID).reduce((sum, r) => sum + r.principalMinor, 0);

/** A replacing plan's terms: the old plan's buyer, its open principal, 24 months from `startDate`. */
function replacementOf(old: { id: string; recipientID: string }, financedAmountMinor: number) {
  return {
    recipientID: old.recipientID,
    replacesPlanID: old.id,
    financedAmountMinor,
    startDate: '2026-07-01',
    noOfInstallments: 24,
    initialFee: 0,
  };
}

describe('replacing an active plan', () => {
  it('moves the open principal to the öre in one journal on approval, replaces the old plan, pays nothing out, and the old plan issues nothing more', async () => {
    const old = await approvedPlan();
    const first = await detail(old.id);
    const [, two] = first.installments;
    if (!two) throw new Error('no schedule');
    // The daily job invoices the first installments.
    const past = addDays(two.dueDate, 1);
    expect((await runDay(past)).installmentsInvoiced).toBeGreaterThanOrEqual(2);
    const before = await detail(old.id);
    const open = notInvoicedPrincipal(before);
    const issued = before.installments.filter((r) => r.invoiceID);
    expect(issued.length).toBeGreaterThanOrEqual(2);
    expect(open).toBeGreaterThan(0);
    expect(open).toBeLessThan(VALID_PLAN_BODY.financedAmountMinor);
    expect(before.openPrincipalMinor).toBe(open);
    expect(await planReceivable(old.id)).toBe(open);

    const token = await t.login('demo');
    const res = await register(token, replacementOf(old, open));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const replacing = installmentPlanDetailSchema.parse(res.body);
    expect(replacing).toMatchObject({
      state: PLAN_STATE.registered,
      replacesPlanID: old.id,
      replacedByPlanID: null,
      financedAmountMinor: open,
    });
    // While it waits, the old plan names it and no second plan may replace the old one.
    expect(await detail(old.id)).toMatchObject({
      state: PLAN_STATE.active,
      replacedByPlanID: replacing.installmentPlanID,
    });
    const second = await register(token, replacementOf(old, open));
    expect(second).toMatchObject({ status: 409, body: { code: 'installmentPlans.already_being_replaced' } });

    await signed(replacing.installmentPlanID);
    const approved = await decide(replacing.installmentPlanID, 'approved');
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toEqual({
      installmentPlanID: replacing.installmentPlanID,
      state: PLAN_STATE.active,
    });

    const gone = await detail(old.id);
    expect(gone).toMatchObject({
      state: PLAN_STATE.replaced,
      replacedByPlanID: replacing.installmentPlanID,
      openPrincipalMinor: 0,
    });
    expect(gone.events.at(-1)).toMatchObject({
      event: PLAN_EVENT.replaced,
      text: replacing.loanNumber,
      details: { planID: replacing.installmentPlanID, principalMinor: open },
    });
    // What the buyer still owes on the old plan is only its issued installments' invoices.
    expect(gone.remainingMinor).toBe(issued.reduce((sum, r) => sum + (r.remainingMinor ?? 0), 0));
    const taken = await detail(replacing.installmentPlanID);
    expect(taken).toMatchObject({ state: PLAN_STATE.active, replacesPlanID: old.id });
    expect(taken.events.slice(-2)).toMatchObject([
      { event: PLAN_EVENT.approved },
      { event: PLAN_EVENT.replacesPlan, details: { planID: old.id, principalMinor: open } },
    ]);

    // One planTransfer journal, to the öre; no approval journal, so nothing owed to the issuer.
    // The demo's replaced plan has its own transfer: only these two plans' postings count here.
    const moved = (await t.db.select().from(postings).where(eq(postings.kind, 'planTransfer'))).filter(
      (p) => p.planId === replacing.installmentPlanID || p.planId === old.id,
    );
    expect(moved.map((p) => [p.planId, p.account, p.amountMinor]).sort()).toEqual(
      [
        [replacing.installmentPlanID, 'plan_receivable', open],
        [old.id, 'plan_receivable', -open],
      ].sort(),
    );
    expect(new Set(moved.map((p) => p.journalId)).size).toBe(1);
    expect(await planReceivable(old.id)).toBe(0);
    expect(await planReceivable(replacing.installmentPlanID)).toBe(open);
    const payable = await t.db
      .select()
      .from(postings)
      .where(and(eq(postings.planId, replacing.installmentPlanID), eq(postings.account, 'issuer_payable')));
    expect(payable).toEqual([]);
    expect(await checkBooks(t.db, old.issuerId)).toEqual([]);

    // The payout run pays nothing for the replacing plan.
    await runPayout(t.db, { payoutDate: todayIn(t.clock.now()), now: t.clock.now(), operatorId: null });
    const rows = await t.db
      .select()
      .from(settlementRows)
      .where(eq(settlementRows.planId, replacing.installmentPlanID));
    expect(rows).toEqual([]);

    // Months later: the old plan issues nothing more, its issued invoices stay; the new plan invoices.
    const later = addDays(past, 120);
    await runDay(later);
    await runDay(later);
    const after = await detail(old.id);
    expect(after.state).toBe(PLAN_STATE.replaced);
    expect(after.installments.filter((r) => r.invoiceID).map((r) => r.invoiceID)).toEqual(
      issued.map((r) => r.invoiceID),
    );
    expect(after.events.filter((e) => e.event === PLAN_EVENT.installmentInvoiced)).toHaveLength(
      issued.length,
    );
    const newer = await detail(replacing.installmentPlanID);
    const newIssued = newer.installments.filter((r) => r.invoiceID);
    expect(newIssued.length).toBeGreaterThan(0);
    expect(newer.openPrincipalMinor).toBe(notInvoicedPrincipal(newer));
    expect(await planReceivable(replacing.installmentPlanID)).toBe(notInvoicedPrincipal(newer));
    expect(await checkBooks(t.db, old.issuerId)).toEqual([]);
  });

  it('leaves the old plan as it was when the replacing plan is rejected or cancelled, and refuses an approval whose amounts no longer agree', async () => {
    const old = await approvedPlan();
    const token = await t.login('demo');
    const open = (await detail(old.id)).openPrincipalMinor;
    expect(open).toBe(VALID_PLAN_BODY.financedAmountMinor);

    // Cancelled before it is signed: the old plan may be replaced again.
    const cancelled = installmentPlanDetailSchema.parse(
      (await register(token, replacementOf(old, open))).body,
    );
    expect((await call(token, 'POST', `${PLANS}/${cancelled.installmentPlanID}/cancel`)).status).toBe(200);
    expect((await detail(old.id)).replacedByPlanID).toBeNull();

    // Rejected by our credit decision: nothing moves.
    const rejected = installmentPlanDetailSchema.parse(
      (await register(token, replacementOf(old, open))).body,
    );
    await signed(rejected.installmentPlanID);
    expect((await decide(rejected.installmentPlanID, 'rejected')).status).toBe(200);
    expect(await detail(old.id)).toMatchObject({
      state: PLAN_STATE.active,
      replacedByPlanID: null,
      openPrincipalMinor: open,
    });
    expect(await planReceivable(old.id)).toBe(open);
    expect(await planReceivable(rejected.installmentPlanID)).toBe(0);
    expect(await checkBooks(t.db, old.issuerId)).toEqual([]);

    // Registered for the open principal, then the daily job invoices an installment of the old plan
    // before our decision: the amounts no longer agree and the approval is refused, nothing written.
    const late = installmentPlanDetailSchema.parse((await register(token, replacementOf(old, open))).body);
    await signed(late.installmentPlanID);
    const [one] = (await detail(old.id)).installments;
    if (!one) throw new Error('no schedule');
    expect(
      (await runDay(addDays(one.dueDate, -INSTALLMENT_INVOICE_DAYS))).installmentsInvoiced,
    ).toBeGreaterThan(0);
    const refused = await decide(late.installmentPlanID, 'approved');
    expect(refused).toMatchObject({
      status: 422,
      body: { code: 'installmentPlans.replace_amount_mismatch' },
    });
    expect((await detail(late.installmentPlanID)).state).toBe(PLAN_STATE.signed);
    expect((await detail(old.id)).state).toBe(PLAN_STATE.active);
    expect(await checkBooks(t.db, old.issuerId)).toEqual([]);
  });
});

describe('the rules of a replacing plan', () => {
  it('refuses another amount, a plan that cannot be replaced, another buyer, and another issuer’s plan (404)', async () => {
    const old = await approvedPlan();
    const token = await t.login('demo');
    const open = (await detail(old.id)).openPrincipalMinor;

    const oneOreOff = await register(token, replacementOf(old, open - 1));
    expect(oneOreOff).toMatchObject({
      status: 422,
      body: { code: 'installmentPlans.replace_amount_mismatch', details: { openPrincipalMinor: open } },
    });
    const otherBuyer = await register(token, {
      ...replacementOf(old, open),
      recipientID: await newBuyer(token),
    });
    expect(otherBuyer).toMatchObject({ status: 422, body: { code: 'installmentPlans.replace_other_buyer' } });
    const otherCurrency = await register(token, { ...replacementOf(old, open), currency: 'EUR' });
    expect(otherCurrency).toMatchObject({
      status: 422,
      body: { code: 'installmentPlans.replace_other_buyer' },
    });

    // A plan only registered (1) cannot be replaced.
    const young = installmentPlanDetailSchema.parse(
      (await register(token, { recipientID: old.recipientID })).body,
    );
    const notYet = await register(token, {
      ...replacementOf({ id: young.installmentPlanID, recipientID: old.recipientID }, open),
    });
    expect(notYet).toMatchObject({ status: 409, body: { code: 'installmentPlans.not_replaceable' } });
    // Nor may a plan be changed to replace itself.
    const self = await call(token, 'PUT', `${PLANS}/${young.installmentPlanID}`, {
      ...VALID_PLAN_BODY,
      recipientID: old.recipientID,
      replacesPlanID: young.installmentPlanID,
    });
    expect(self).toMatchObject({ status: 409, body: { code: 'installmentPlans.not_replaceable' } });

    // Another issuer does not find the plan, registering or changing (tenancy).
    const other = await t.login('demo-other');
    const theirBuyer = await newBuyer(other);
    const stranger = await register(other, { ...replacementOf(old, open), recipientID: theirBuyer });
    expect(stranger).toMatchObject({ status: 404, body: { code: 'installmentPlans.not_found' } });
    const theirs = installmentPlanDetailSchema.parse(
      (await register(other, { recipientID: theirBuyer })).body,
    );
    const changed = await call(other, 'PUT', `${PLANS}/${theirs.installmentPlanID}`, {
      ...VALID_PLAN_BODY,
      ...replacementOf(old, open),
      recipientID: theirBuyer,
    });
    expect(changed).toMatchObject({ status: 404, body: { code: 'installmentPlans.not_found' } });
    expect(await detail(old.id)).toMatchObject({ state: PLAN_STATE.active, replacedByPlanID: null });
  });
});

describe('replacing a recalled plan', () => {
  it('takes over what is left of the recall invoice, which the transfer settles, and the books hold', async () => {
    const old = await approvedPlan();
    const [one] = (await detail(old.id)).installments;
    if (!one) throw new Error('no schedule');
    // Nothing is paid: the final notice two months and a day after the first due date, then the recall.
    const noticed = addDays(one.dueDate, 61);
    await runDay(noticed);
    expect((await detail(old.id)).state).toBe(PLAN_STATE.finalNotice);
    const ends = addDays(noticed, FINAL_NOTICE_DAYS);
    await runDay(ends);
    const recalled = await detail(old.id);
    expect(recalled.state).toBe(PLAN_STATE.recalled);
    const [stored] = await t.db.select().from(installmentPlans).where(eq(installmentPlans.id, old.id));
    const recallId = stored?.recallInvoiceId ?? '';
    const [recall] = await t.db.select().from(invoices).where(eq(invoices.id, recallId));
    const open = recall?.remainingMinor ?? 0;
    expect(open).toBeGreaterThan(0);
    expect(recalled.openPrincipalMinor).toBe(open);

    const token = await t.login('demo');
    const res = await register(token, { ...replacementOf(old, open), startDate: addDays(ends, 1) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const replacing = installmentPlanDetailSchema.parse(res.body);
    await signed(replacing.installmentPlanID);
    expect((await decide(replacing.installmentPlanID, 'approved')).status).toBe(200);

    expect(await detail(old.id)).toMatchObject({ state: PLAN_STATE.replaced, openPrincipalMinor: 0 });
    const [settled] = await t.db.select().from(invoices).where(eq(invoices.id, recallId));
    expect(settled).toMatchObject({ state: INVOICE_STATE.paid, remainingMinor: 0 });
    const moved = (await t.db.select().from(postings).where(eq(postings.kind, 'planTransfer'))).filter(
      (p) => p.planId === replacing.installmentPlanID || p.planId === old.id || p.invoiceId === recallId,
    );
    expect(moved.map((p) => [p.account, p.amountMinor, p.invoiceId])).toEqual(
      expect.arrayContaining([
        ['plan_receivable', open, recallId],
        ['receivable', -open, recallId],
      ]),
    );
    expect(moved).toHaveLength(2);
    expect(await planReceivable(replacing.installmentPlanID)).toBe(open);
    expect(await checkBooks(t.db, old.issuerId)).toEqual([]);
    // The recall invoice's timeline says it was closed by the replacing plan.
    const invoice = (await call(token, 'GET', `/api/limited/invoices/${recallId}`)).body as {
      state: number;
      remainingMinor: number;
    };
    expect(invoice).toMatchObject({ state: INVOICE_STATE.paid });
  });
});
