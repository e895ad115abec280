import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  CUSTOMER_PLAN_ACTIONS,
  canPlanTransition,
  PLAN_TRANSITIONS,
  type PlanAction,
  planActionsFrom,
  planTransition,
} from './installment-plan-states';
import {
  PLAN_EVENT,
  PLAN_EVENTS,
  PLAN_STATE,
  PLAN_STATE_NUMBERS,
  PLAN_STATES,
  type PlanEvent,
  type PlanState,
} from './installment-plans';
import { numberedNames } from './numbered-names';

const S = PLAN_STATE;

describe('the plan states and events', () => {
  it('are spec §4’s ten states, numbered as it lists them', () => {
    expect(PLAN_STATE_NUMBERS).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // Spec §4: "registered and inactive, active, completed, cancelled, recalled, replaced, final notice,
    // sent for signing, signed, agreement rejected".
    const spec =
      'registered active completed cancelled recalled replaced finalNotice sentForSigning signed agreementRejected';
    expect(Object.values(PLAN_STATES)).toEqual(spec.split(' '));
  });

  it('has the tables by name and by number of one list, with exact types', () => {
    for (const [name, number] of Object.entries(PLAN_STATE)) expect(PLAN_STATES[number]).toBe(name);
    for (const [name, number] of Object.entries(PLAN_EVENT)) expect(PLAN_EVENTS[number]).toBe(name);
    expect(Object.keys(PLAN_EVENTS).map(Number)).toEqual(Array.from({ length: 18 }, (_, i) => i + 1));
    expectTypeOf(PLAN_STATE.agreementRejected).toEqualTypeOf<10>();
    expectTypeOf(PLAN_STATES[8]).toEqualTypeOf<'sentForSigning'>();
    expectTypeOf<PlanState>().toEqualTypeOf<1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10>();
    expectTypeOf(PLAN_EVENT.completed).toEqualTypeOf<17>();
    expectTypeOf(PLAN_EVENT.paidOut).toEqualTypeOf<18>();
    expectTypeOf<PlanEvent>().toExtend<number>();
    expect(() => numberedNames(['a', 'b', 'a'])).toThrow();
  });

  it('writes an event for every move, each a known event', () => {
    for (const { event } of Object.values(PLAN_TRANSITIONS))
      expect(PLAN_EVENTS).toHaveProperty(String(event));
  });
});

describe('the plan transition table', () => {
  // Every (state, action) pair the issue allows, with where it leads; everything else is refused.
  const allowed: [PlanAction, PlanState, PlanState][] = [
    ['edit', S.registered, S.registered],
    ['sendForSigning', S.registered, S.sentForSigning],
    ['sign', S.sentForSigning, S.signed],
    ['refuseSigning', S.sentForSigning, S.agreementRejected],
    ['approve', S.signed, S.active],
    ['reject', S.signed, S.agreementRejected],
    ['cancel', S.registered, S.cancelled],
    ['cancel', S.sentForSigning, S.cancelled],
    ['cancel', S.signed, S.cancelled],
    ['finalNotice', S.active, S.finalNotice],
    ['resume', S.finalNotice, S.active],
    ['recall', S.finalNotice, S.recalled],
    ['replace', S.active, S.replaced],
    ['replace', S.finalNotice, S.replaced],
    ['replace', S.recalled, S.replaced],
    ['complete', S.active, S.completed],
    ['complete', S.finalNotice, S.completed],
    ['complete', S.recalled, S.completed],
  ];

  it.each(allowed)('%s from %i leads to %i', (action, from, to) => {
    expect(canPlanTransition(from, action)).toBe(true);
    expect(planTransition(from, action)).toEqual({ state: to, event: PLAN_TRANSITIONS[action].event });
  });

  it('allows nothing else, for every state and action (and for numbers that are no state)', () => {
    const actions = Object.keys(PLAN_TRANSITIONS) as PlanAction[];
    for (const state of [0, ...PLAN_STATE_NUMBERS, 11, -1]) {
      for (const action of actions) {
        const expected = allowed.some(([a, from]) => a === action && from === state);
        expect(canPlanTransition(state, action), `${action} from ${state}`).toBe(expected);
        if (!expected) expect(planTransition(state, action)).toBeNull();
      }
    }
  });

  it('leaves completed, cancelled, replaced and rejected plans where they are', () => {
    for (const state of [S.completed, S.cancelled, S.replaced, S.agreementRejected])
      expect(planActionsFrom(state)).toEqual([]);
    expect(planActionsFrom(S.registered)).toEqual(['edit', 'sendForSigning', 'cancel']);
    expect(planActionsFrom(S.finalNotice)).toEqual(['resume', 'recall', 'replace', 'complete']);
  });

  it('cannot make a plan active without our approval of a signed agreement', () => {
    const intoActive = Object.entries(PLAN_TRANSITIONS).filter(([, t]) => t.to === S.active);
    expect(intoActive.map(([action, t]) => [action, t.from])).toEqual([
      ['approve', [S.signed]],
      ['resume', [S.finalNotice]],
    ]);
  });

  it('lets the customer act only on plans that are not yet with us, or replace one', () => {
    expect(CUSTOMER_PLAN_ACTIONS.filter((action) => canPlanTransition(S.active, action))).toEqual([
      'replace',
    ]);
    expect(CUSTOMER_PLAN_ACTIONS.filter((action) => canPlanTransition(S.signed, action))).toEqual(['cancel']);
  });
});
