import { PLAN_EVENT, PLAN_STATE, type PlanEvent, type PlanState } from './installment-plans';

/**
 * The installment plan state machine (spec §4's states 1-10, issue #14): one table of every move a
 * plan can make, shared by every part of the server that moves a plan (and readable by the web, which
 * offers only the actions the table allows). Each action names the states it may start from, the
 * state it leads to and the timeline event it writes.
 *
 * The life of a plan: registered (1) → sent for signing (8) → signed (9) once every signee has signed,
 * or agreement rejected (10) at the first refusal → our credit decision: active (2) or agreement
 * rejected (10). Before it is active the customer may cancel it (4). An active plan is completed (3)
 * when its last installment is paid; when unpaid installments pass the agreed limit it gets a final
 * notice (7), which the buyer may still cure by paying what is overdue (back to active), or else it is
 * recalled (5) and the whole remaining debt falls due. A new plan may take over the remaining debt of
 * an active, noticed or recalled plan, which is then replaced (6).
 */
export type PlanAction =
  | 'edit'
  | 'sendForSigning'
  | 'sign'
  | 'refuseSigning'
  | 'approve'
  | 'reject'
  | 'cancel'
  | 'finalNotice'
  | 'resume'
  | 'recall'
  | 'replace'
  | 'complete';

/** One allowed move: the states it may start from, the state it leads to, the event it writes. */
export interface PlanTransition {
  from: readonly PlanState[];
  to: PlanState;
  event: PlanEvent;
}

const {
  registered,
  active,
  completed,
  cancelled,
  recalled,
  replaced,
  finalNotice,
  sentForSigning,
  signed,
  agreementRejected,
} = PLAN_STATE;

/**
 * Every allowed move of a plan. Who makes it: the customer `edit`s (only while registered),
 * `sendForSigning`s, `cancel`s and `replace`s (by registering a new plan for the remaining debt); the
 * e-signing provider's status reports `sign` (the last signee signed) and `refuseSigning` (one signee
 * refused); the back office's credit decision is `approve` or `reject`; the daily job and the payments
 * `finalNotice`, `resume` (a noticed plan paid up to date), `recall` and `complete` (everything paid,
 * also after a notice or a recall).
 */
export const PLAN_TRANSITIONS: Readonly<Record<PlanAction, PlanTransition>> = {
  edit: { from: [registered], to: registered, event: PLAN_EVENT.edited },
  sendForSigning: { from: [registered], to: sentForSigning, event: PLAN_EVENT.sentForSigning },
  sign: { from: [sentForSigning], to: signed, event: PLAN_EVENT.signed },
  refuseSigning: { from: [sentForSigning], to: agreementRejected, event: PLAN_EVENT.signingRefused },
  approve: { from: [signed], to: active, event: PLAN_EVENT.approved },
  reject: { from: [signed], to: agreementRejected, event: PLAN_EVENT.rejected },
  cancel: { from: [registered, sentForSigning, signed], to: cancelled, event: PLAN_EVENT.cancelled },
  finalNotice: { from: [active], to: finalNotice, event: PLAN_EVENT.finalNotice },
  resume: { from: [finalNotice], to: active, event: PLAN_EVENT.resumed },
  recall: { from: [finalNotice], to: recalled, event: PLAN_EVENT.recalled },
  replace: { from: [active, finalNotice, recalled], to: replaced, event: PLAN_EVENT.replaced },
  complete: { from: [active, finalNotice, recalled], to: completed, event: PLAN_EVENT.completed },
};

/** The actions a customer takes on a plan's page; the others are the provider's, the back office's or the daily job's. */
export const CUSTOMER_PLAN_ACTIONS = [
  'edit',
  'sendForSigning',
  'cancel',
  'replace',
] as const satisfies readonly PlanAction[];

/** Whether `action` may start from `state` (a number read from the database, any value). */
export function canPlanTransition(state: number, action: PlanAction): boolean {
  return (PLAN_TRANSITIONS[action].from as readonly number[]).includes(state);
}

/** Where `action` takes a plan in `state` and the event it writes, or null when the table does not allow it. */
export function planTransition(
  state: number,
  action: PlanAction,
): { state: PlanState; event: PlanEvent } | null {
  if (!canPlanTransition(state, action)) return null;
  const { to, event } = PLAN_TRANSITIONS[action];
  return { state: to, event };
}

/** Every action the table allows from `state`, in the table's order; none from a final state. */
export function planActionsFrom(state: number): PlanAction[] {
  return (Object.keys(PLAN_TRANSITIONS) as PlanAction[]).filter((action) => canPlanTransition(state, action));
}
