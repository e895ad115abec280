// Over 500 lines on purpose: a plan's whole life (register, change, sign, cancel, decide, replace) goes
// through one state table and one locked move (`moveOwnPlan`, which answers the plan's detail), shared
// by every step here; the job's side is in installment-invoices.ts, the payments' in installment-payments.ts.
import { randomUUID } from 'node:crypto';
import {
  canPlanTransition,
  type InstallmentPlanDetail,
  installmentPlanTerms,
  type ListInstallmentPlansQuery,
  type ListInstallmentPlansResponse,
  type ParsedInstallmentPlanBody,
  PLAN_EVENT,
  PLAN_STATE,
  type PlanAction,
  planTransition,
} from '@portal/contracts';
import { computeInstallmentSchedule } from '@portal/domain/installment-schedule';
import type { AuthContext, OperatorContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { ApiError } from '../../lib/errors';
import { todayIn } from '../../lib/today';
import type { FileStore } from '../../services/file-store';
import { idempotencyKeyOf, once } from '../../services/idempotency';
import {
  cancelSigning,
  type ESigningProvider,
  fetchSealedPdf,
  type SigningState,
  startSigning,
  stateAfterCallback,
} from '../e-signing/e-signing.service';
import { bookPlanApproval, bookPlanTransfer, transferRecallInvoice } from '../money/money.service';
import { renderAgreementPdf } from './agreement-pdf';
import * as repo from './installments.repository';
import * as list from './installments-list.repository';

/**
 * Installment plans (contract financing, issue #14, docs/INSTALLMENTS.md): register and change a plan,
 * send its agreement for signing through the e-signing provider, follow the provider's state, cancel,
 * and our credit decision. Every move goes through the contracts' state table (`planTransition`) and
 * writes its timeline event in the same transaction; another issuer's plan is not found.
 */

type Headers = Record<string, unknown>;

/** The plan's move by `action`, or 409 `installmentPlans.invalid_transition` when the table forbids it. */
function transition(state: number, action: PlanAction) {
  const next = planTransition(state, action);
  if (!next) throw new ApiError('installmentPlans.invalid_transition');
  return next;
}

/**
 * One move of the caller's plan by `action` in one transaction: the plan locked, the move checked
 * against the state table, `alongside` done (what the move changes besides the state), the new state
 * and its event written by the caller's user; answers the plan as its page shows it.
 */
function moveOwnPlan(
  db: Db,
  auth: AuthContext,
  id: string,
  action: PlanAction,
  now: Date,
  alongside: (
    tx: Tx,
    plan: repo.PlanRow,
  ) => Promise<Parameters<typeof repo.setPlanState>[4] | undefined> = async () => undefined,
): Promise<InstallmentPlanDetail> {
  return db.transaction(async (tx) => {
    const plan = await repo.lockOwnPlan(tx, auth.issuerId, id);
    const next = transition(plan.state, action);
    const extra = await alongside(tx, plan);
    await repo.setPlanState(tx, id, next.state, now, extra ?? {});
    await repo.insertPlanEvents(tx, [
      {
        planId: id,
        issuerId: auth.issuerId,
        event: next.event,
        state: next.state,
        userId: auth.userId,
        at: now,
      },
    ]);
    return loadPlanDetail(tx, auth.issuerId, id);
  });
}

/** The plan's row values, schedule and parties as the body and the domain's schedule give them. */
function planValuesOf(issuerId: string, body: ParsedInstallmentPlanBody, userId: string | null) {
  const schedule = computeInstallmentSchedule(installmentPlanTerms(body));
  const plan: repo.PlanValues = {
    issuerId,
    recipientId: body.recipientID,
    description: body.description,
    currency: body.currency,
    financedMinor: schedule.principalMinor,
    initialFeeMinor: body.initialFee,
    monthlyFeeMinor: body.monthlyFee,
    administrationFeeMinor: body.administrationFee,
    totalMinor: schedule.totalMinor,
    noOfInstallments: schedule.noOfInstallments,
    startDate: schedule.startDate,
    endDate: schedule.endDate,
    replacesPlanId: body.replacesPlanID ?? null,
    createdBy: userId,
  };
  const rows: repo.ScheduleRowValues[] = schedule.rows.map((r) => ({
    number: r.number,
    dueDate: r.dueDate,
    principalMinor: r.principalMinor,
    initialFeeMinor: r.initialFeeMinor,
    monthlyFeeMinor: r.monthlyFeeMinor,
    administrationFeeMinor: r.administrationFeeMinor,
    feeMinor: r.feeMinor,
    amountMinor: r.amountMinor,
  }));
  const parties: repo.PartyValues[] = [
    ...body.signees.map((p, position) => ({ role: 'signee' as const, position, ...p })),
    ...body.securities.map((p, position) => ({ role: 'security' as const, position, ...p })),
  ];
  return { plan, rows, parties };
}

/**
 * The rules of a replacing plan (docs/INSTALLMENTS.md "States and transitions"), checked when it is
 * registered or changed: the plan it names is the issuer's own (else 404 `installmentPlans.not_found`)
 * and active, noticed or recalled (409 `installmentPlans.not_replaceable`), no other plan waits to
 * replace it (409 `installmentPlans.already_being_replaced`), the buyer and currency are the same
 * (422 `installmentPlans.replace_other_buyer`) and the financed amount is its open principal to the öre
 * (422 `installmentPlans.replace_amount_mismatch`). The old plan stays locked for the rest of the
 * transaction, so two plans registered at once cannot both pass.
 */
async function checkReplacement(
  tx: Tx,
  issuerId: string,
  body: ParsedInstallmentPlanBody,
  selfId: string | null,
): Promise<void> {
  if (!body.replacesPlanID) return;
  const old = await repo.lockOwnPlan(tx, issuerId, body.replacesPlanID);
  if (old.id === selfId || !canPlanTransition(old.state, 'replace'))
    throw new ApiError('installmentPlans.not_replaceable');
  if (await repo.findPendingReplacement(tx, old.id, selfId))
    throw new ApiError('installmentPlans.already_being_replaced');
  if (old.recipientId !== body.recipientID || old.currency !== body.currency)
    throw new ApiError('installmentPlans.replace_other_buyer');
  const openPrincipalMinor = await repo.openPrincipalOf(tx, old);
  if (openPrincipalMinor !== body.financedAmountMinor)
    throw new ApiError('installmentPlans.replace_amount_mismatch', {
      details: { openPrincipalMinor, currency: old.currency },
    });
}

/** Registers a plan (state 1). One Idempotency-Key per form makes a retried save register it once. */
export async function registerPlan(
  db: Db,
  auth: AuthContext,
  body: ParsedInstallmentPlanBody,
  headers: Headers,
  now: Date,
): Promise<InstallmentPlanDetail> {
  return once(db, auth.issuerId, idempotencyKeyOf(headers), 'registerInstallmentPlan', body, async (tx) => {
    if (!(await repo.findOwnBuyer(tx, auth.issuerId, body.recipientID)))
      throw new ApiError('recipient.not_found');
    await checkReplacement(tx, auth.issuerId, body, null);
    const { plan, rows, parties } = planValuesOf(auth.issuerId, body, auth.userId);
    const loanNumber = await repo.nextLoanNumber(tx, auth.issuerId);
    const created = await repo.insertPlan(
      tx,
      { ...plan, loanNumber, state: PLAN_STATE.registered },
      rows,
      parties,
      now,
    );
    await repo.insertPlanEvents(tx, [
      {
        planId: created.id,
        issuerId: auth.issuerId,
        event: PLAN_EVENT.registered,
        state: PLAN_STATE.registered,
        userId: auth.userId,
        at: now,
      },
    ]);
    return loadPlanDetail(tx, auth.issuerId, created.id);
  });
}

/** Changes a plan that is still registered (not sent for signing). */
export async function updatePlan(
  db: Db,
  auth: AuthContext,
  id: string,
  body: ParsedInstallmentPlanBody,
  now: Date,
): Promise<InstallmentPlanDetail> {
  return moveOwnPlan(db, auth, id, 'edit', now, async (tx, current) => {
    if (!(await repo.findOwnBuyer(tx, auth.issuerId, body.recipientID)))
      throw new ApiError('recipient.not_found');
    await checkReplacement(tx, auth.issuerId, body, id);
    const { plan, rows, parties } = planValuesOf(auth.issuerId, body, current.createdBy);
    await repo.replacePlanTerms(tx, id, plan, rows, parties, now);
    return undefined;
  });
}

export async function getPlan(db: Db, issuerId: string, id: string): Promise<InstallmentPlanDetail> {
  return loadPlanDetail(db, issuerId, id);
}

export async function listPlans(
  db: Db,
  issuerId: string,
  q: ListInstallmentPlansQuery,
): Promise<ListInstallmentPlansResponse> {
  return list.listPlans(db, issuerId, q);
}

/** The text beside a timeline event: the provider's status, or the other plan of a replacement. */
function eventText(e: { event: number; details: Record<string, string | number> | null }): string {
  const details = e.details ?? {};
  if (typeof details.status === 'string') return details.status;
  const replacement = e.event === PLAN_EVENT.replaced || e.event === PLAN_EVENT.replacesPlan;
  return replacement && typeof details.loanNumber === 'string' ? details.loanNumber : '';
}

/** A plan as its page shows it: the summary, the schedule with each installment's invoice, parties, timeline. */
export async function loadPlanDetail(
  db: Db | Tx,
  issuerId: string,
  id: string,
): Promise<InstallmentPlanDetail> {
  const found = await repo.findOwnPlan(db, issuerId, id);
  if (!found) throw new ApiError('installmentPlans.not_found');
  const { plan } = found;
  const [rows, parties, events, replacedBy, openPrincipalMinor] = await Promise.all([
    repo.listScheduleRows(db, id),
    repo.listParties(db, id),
    repo.listPlanEvents(db, id),
    repo.findReplacingPlanId(db, id),
    repo.openPrincipalOf(db, plan),
  ]);
  let remainingPrincipal = plan.financedMinor;
  const installments = rows.map(({ row, invoiceState, remainingMinor }) => {
    remainingPrincipal -= row.principalMinor;
    return {
      number: row.number,
      dueDate: row.dueDate,
      principalMinor: row.principalMinor,
      initialFeeMinor: row.initialFeeMinor,
      monthlyFeeMinor: row.monthlyFeeMinor,
      administrationFeeMinor: row.administrationFeeMinor,
      feeMinor: row.feeMinor,
      amountMinor: row.amountMinor,
      remainingPrincipalMinor: remainingPrincipal,
      invoiceID: row.invoiceId,
      invoiceState: invoiceState ?? null,
      remainingMinor: remainingMinor ?? null,
    };
  });
  const party = (p: (typeof parties)[number]) => ({
    name: p.name,
    identityNumber: p.identityNumber,
    email: p.email,
    phone: p.phone,
  });
  const signees = parties.filter((p) => p.role === 'signee');
  // Whose turn it is while the agreement waits: the first signee (in the signing order) not done yet.
  const current =
    plan.state === PLAN_STATE.sentForSigning ? signees.find((p) => !p.signedAt && !p.rejectedAt) : undefined;
  return {
    ...list.summaryOf(plan, found.buyerName, await repo.remainingOf(db, plan)),
    installments,
    signees: signees.map((p) => ({
      ...party(p),
      signingStatus: p.signedAt ? 'signed' : p.rejectedAt ? 'refused' : 'pending',
      signedAt: (p.signedAt ?? p.rejectedAt)?.toISOString() ?? null,
      signingLink: p === current ? p.signingLink : null,
    })),
    securities: parties.filter((p) => p.role === 'security').map(party),
    replacesPlanID: plan.replacesPlanId,
    replacedByPlanID: replacedBy,
    openPrincipalMinor,
    events: events.map((e) => ({
      eventID: e.id,
      event: e.event,
      date: e.at.toISOString(),
      text: eventText(e),
      details: e.details ?? {},
    })),
  };
}

/** What sending for signing needs besides the plan: the provider, where callbacks reach us, the file store. */
export interface SigningContext {
  provider: ESigningProvider;
  /** Our public address of the provider's callback (`…/api/e-signing/callback`), or null in tests without one. */
  callbackUrl: string | null;
  files: FileStore;
}

/**
 * Sends the plan's agreement for signing: the PDF in the buyer's language, one signing order with a
 * party per signee, the links stored on the signees, the plan in state 8. The provider is called
 * outside the transaction; if the plan changed meanwhile (sent twice at once, cancelled) the new order
 * is withdrawn and the answer is the conflict.
 */
export async function sendForSigning(
  db: Db,
  auth: AuthContext,
  id: string,
  signing: SigningContext,
  now: Date,
): Promise<InstallmentPlanDetail> {
  const input = await db.transaction(async (tx) => {
    const plan = await repo.lockOwnPlan(tx, auth.issuerId, id);
    transition(plan.state, 'sendForSigning');
    return repo.agreementInputOf(tx, plan, todayIn(now));
  });
  const pdf = await renderAgreementPdf(input.agreement);
  const started = await startSigning(signing.provider, {
    pdf,
    fileName: `agreement-${input.agreement.plan.loanNumber}.pdf`,
    title: input.title,
    language: input.agreement.language,
    signees: input.signees,
    callbackUrl: signing.callbackUrl,
  });
  try {
    return await moveOwnPlan(db, auth, id, 'sendForSigning', now, async (tx) => {
      await repo.setSigningLinks(tx, id, started.signees);
      return { signingDocumentId: started.documentId };
    });
  } catch (error) {
    await cancelSigning(signing.provider, started.documentId).catch(() => undefined);
    throw error;
  }
}

/** Cancels a plan that is not active yet; an open signing order is withdrawn at the provider first. */
export async function cancelPlan(
  db: Db,
  auth: AuthContext,
  id: string,
  provider: ESigningProvider | undefined,
  now: Date,
): Promise<InstallmentPlanDetail> {
  const found = await repo.findOwnPlan(db, auth.issuerId, id);
  if (!found) throw new ApiError('installmentPlans.not_found');
  transition(found.plan.state, 'cancel');
  if (found.plan.state === PLAN_STATE.sentForSigning && found.plan.signingDocumentId && provider)
    await cancelSigning(provider, found.plan.signingDocumentId).catch(() => undefined);
  return moveOwnPlan(db, auth, id, 'cancel', now);
}

/**
 * The provider's callback (docs/INSTALLMENTS.md "Signing"): the order's state is fetched from the
 * provider (the body is never trusted), each signee's signing or refusal is recorded, and the plan
 * moves: every signee signed → 9 with the sealed PDF stored unchanged; one refusal, a time-out or a
 * withdrawal → 10. A callback for an order that no plan waits on any more changes nothing, so late,
 * repeated and out-of-order callbacks are harmless. Returns false when the token does not match.
 */
export async function onSigningCallback(
  db: Db,
  signing: Omit<SigningContext, 'callbackUrl'>,
  callback: { token: string | undefined; body: string },
  now: Date,
): Promise<boolean> {
  const state = await stateAfterCallback(signing.provider, callback);
  if (!state) return false;
  await applySigningState(db, signing, state, now);
  return true;
}

/** Records a signing order's state on its plan (see `onSigningCallback`). */
export async function applySigningState(
  db: Db,
  signing: Omit<SigningContext, 'callbackUrl'>,
  state: SigningState,
  now: Date,
): Promise<void> {
  const waiting = await repo.findPlanBySigningDocument(db, state.documentId);
  if (!waiting || waiting.state !== PLAN_STATE.sentForSigning) return;
  const ended = ['canceled', 'timedout', 'rejected', 'document_error'].includes(state.status);
  // The sealed PDF is fetched before the transaction and stored under a key of its own; the plan
  // names it only if the transaction commits.
  let sealedKey: string | null = null;
  if (state.signed) {
    const sealed = await fetchSealedPdf(signing.provider, state.documentId);
    // A bare uuid, as every file key: the embedded demo's folder store takes nothing else.
    sealedKey = randomUUID();
    await signing.files.put(sealedKey, sealed);
  }
  await db.transaction(async (tx) => {
    const plan = await repo.lockOwnPlan(tx, waiting.issuerId, waiting.id);
    if (plan.state !== PLAN_STATE.sentForSigning || plan.signingDocumentId !== state.documentId) return;
    const newlySigned = await repo.recordSignees(tx, plan.id, state.signees);
    const events: repo.PlanEventValues[] = newlySigned.map((name) => ({
      planId: plan.id,
      issuerId: plan.issuerId,
      event: PLAN_EVENT.signeeSigned,
      state: plan.state,
      at: now,
      details: { name },
    }));
    const action: PlanAction | null = state.signed
      ? 'sign'
      : state.rejected || ended
        ? 'refuseSigning'
        : null;
    if (action) {
      const next = transition(plan.state, action);
      await repo.setPlanState(tx, plan.id, next.state, now, sealedKey ? { signedFileKey: sealedKey } : {});
      events.push({
        planId: plan.id,
        issuerId: plan.issuerId,
        event: next.event,
        state: next.state,
        at: now,
        ...(state.status !== 'closed' ? { details: { status: state.status } } : {}),
      });
    }
    await repo.insertPlanEvents(tx, events);
  });
}

/** The sealed agreement of a signed plan, byte for byte as the provider sealed it. */
export async function signedAgreement(
  db: Db,
  issuerId: string,
  id: string,
  files: FileStore,
): Promise<{ fileName: string; bytes: Buffer }> {
  const found = await repo.findOwnPlan(db, issuerId, id);
  if (!found?.plan.signedFileKey) throw new ApiError('installmentPlans.not_found');
  const bytes = await files.get(found.plan.signedFileKey);
  if (!bytes) throw new ApiError('files.not_found');
  return { fileName: `agreement-${found.plan.loanNumber}.pdf`, bytes };
}

/**
 * Our credit decision on a signed plan (back office): approval makes it active and books the financed
 * amount as owed to the issuer, paid by the next payout run less the issuer's fee; rejection ends it
 * (10). A replacing plan is not paid out: its approval takes over the old plan's open principal instead
 * (`takeOver`). One transaction with its events; deciding twice is a conflict.
 */
export async function decidePlan(
  db: Db,
  operator: OperatorContext,
  id: string,
  decision: 'approved' | 'rejected',
  now: Date,
): Promise<{ installmentPlanID: string; state: number }> {
  return db.transaction(async (tx) => {
    const plan = await repo.lockPlan(tx, id);
    const next = transition(plan.state, decision === 'approved' ? 'approve' : 'reject');
    await repo.setPlanState(tx, id, next.state, now);
    const events: repo.PlanEventValues[] = [
      {
        planId: id,
        issuerId: plan.issuerId,
        event: next.event,
        state: next.state,
        at: now,
        details: { operator: operator.name },
      },
    ];
    if (decision === 'approved' && plan.replacesPlanId)
      events.push(...(await takeOver(tx, { ...plan, state: next.state }, plan.replacesPlanId, now)));
    else if (decision === 'approved') await bookPlanApproval(tx, plan, now);
    await repo.insertPlanEvents(tx, events);
    return { installmentPlanID: id, state: next.state };
  });
}

/**
 * The approved replacing plan `plan` takes over the open principal of the plan it replaces
 * (docs/INSTALLMENTS.md "Money"): no payout; one `planTransfer` journal moves it from the old plan's
 * plan_receivable (or, for a recalled plan, from its recall invoice, which is then settled) to the new
 * plan's, and the old plan is replaced (6). The old plan is checked again under its lock: it may have
 * moved on since the new plan was registered (another installment invoiced, the recall invoice paid
 * in part), and then the amounts no longer agree and the approval is refused with
 * `installmentPlans.replace_amount_mismatch` (the new plan stays signed; reject it and register anew).
 * Returns the events of both plans.
 */
async function takeOver(
  tx: Tx,
  plan: repo.PlanRow,
  oldId: string,
  now: Date,
): Promise<repo.PlanEventValues[]> {
  const old = await repo.lockOwnPlan(tx, plan.issuerId, oldId);
  const replace = planTransition(old.state, 'replace');
  if (!replace) throw new ApiError('installmentPlans.not_replaceable');
  if (old.currency !== plan.currency || old.recipientId !== plan.recipientId)
    throw new ApiError('installmentPlans.replace_other_buyer');
  const principalMinor = await repo.openPrincipalOf(tx, old);
  if (principalMinor !== plan.financedMinor)
    throw new ApiError('installmentPlans.replace_amount_mismatch', {
      details: { openPrincipalMinor: principalMinor, currency: old.currency },
    });
  if (old.state === PLAN_STATE.recalled && old.recallInvoiceId) {
    const moved = await transferRecallInvoice(
      tx,
      { invoiceId: old.recallInvoiceId, toPlanId: plan.id, issuerId: plan.issuerId },
      now,
    );
    if (moved !== principalMinor) throw new ApiError('installmentPlans.replace_amount_mismatch');
  } else
    await bookPlanTransfer(
      tx,
      {
        fromPlanId: old.id,
        toPlanId: plan.id,
        issuerId: plan.issuerId,
        currency: plan.currency,
        principalMinor,
      },
      now,
    );
  await repo.setPlanState(tx, old.id, replace.state, now);
  return [
    {
      planId: plan.id,
      issuerId: plan.issuerId,
      event: PLAN_EVENT.replacesPlan,
      state: plan.state,
      at: now,
      details: { planID: old.id, loanNumber: old.loanNumber, principalMinor },
    },
    {
      planId: old.id,
      issuerId: old.issuerId,
      event: replace.event,
      state: replace.state,
      at: now,
      details: { planID: plan.id, loanNumber: plan.loanNumber, principalMinor },
    },
  ];
}

export {
  completePaidPlans,
  FINAL_NOTICE_DAYS,
  INSTALLMENT_INVOICE_DAYS,
  type PlanCompletions,
  type PlanStepsResult,
  runPlanSteps,
} from './installment-invoices';
export { recordInstallmentPayments } from './installment-payments';
export { type PlansDashboard, plansDashboard } from './installments-dashboard';
