import {
  FINANCED_SERVICES,
  INVOICE_STATE_NUMBERS,
  type InvoiceState,
  SERVICE_TYPES,
} from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/errors';
import {
  assertTransition,
  canTransition,
  type InvoiceAction,
  stateAfterDecision,
  stateAfterPayment,
  stateAfterSend,
} from './invoice-state';

/**
 * The state machine of docs/INVOICES.md and docs/MONEY.md written out as a table: for every action,
 * the states it may start from. Every other (action, state) pair must be refused.
 */
const EXPECTED: Record<InvoiceAction, InvoiceState[]> = {
  // The customer works on pending invoices only.
  edit: [1],
  delete: [1],
  send: [1],
  // The back office decides on invoices that await its credit decision.
  approve: [9],
  reject: [9],
  // The daily job delivers queued invoices.
  distribute: [6],
  // Payments reduce what is left on unpaid, part paid and (passed on) charged-back invoices.
  pay: [2, 3, 5],
  // Collection steps and recourse act on unpaid invoices only.
  dun: [2, 3],
  chargeBack: [2, 3],
};

const ACTIONS = Object.keys(EXPECTED) as InvoiceAction[];

describe('invoice state machine: every action × every state', () => {
  it('knows all the states of spec §4', () => {
    expect(INVOICE_STATE_NUMBERS).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 11]);
  });

  for (const action of ACTIONS) {
    for (const state of INVOICE_STATE_NUMBERS) {
      const allowed = EXPECTED[action].includes(state);
      it(`${action} from ${state} is ${allowed ? 'allowed' : 'refused'}`, () => {
        expect(canTransition(state, action)).toBe(allowed);
        if (allowed) expect(() => assertTransition(state, action)).not.toThrow();
        else {
          let thrown: unknown;
          try {
            assertTransition(state, action);
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeInstanceOf(ApiError);
          expect((thrown as ApiError).code).toBe('invoices.invalid_transition');
        }
      });
    }
  }

  it('refuses a state number that does not exist (10, 0, 12) for every action', () => {
    for (const action of ACTIONS)
      for (const state of [0, 10, 12, -1]) expect(canTransition(state, action)).toBe(false);
  });

  it('no action leaves paid, customer loss, deleted or draft invoices', () => {
    for (const state of [4, 7, 8, 11])
      for (const action of ACTIONS) expect(canTransition(state, action)).toBe(false);
  });
});

describe('where the transitions lead', () => {
  it('a payment pays in full at zero left, part pays otherwise, and leaves a charged-back invoice charged back', () => {
    for (const state of [2, 3] as InvoiceState[]) {
      expect(stateAfterPayment(state, 0)).toBe(4);
      expect(stateAfterPayment(state, -500)).toBe(4);
      expect(stateAfterPayment(state, 1)).toBe(3);
      expect(stateAfterPayment(state, 640_000)).toBe(3);
    }
    expect(stateAfterPayment(5, 0)).toBe(5);
    expect(stateAfterPayment(5, 100)).toBe(5);
  });

  it('sending asks for a credit decision for financed services and queues the others', () => {
    for (const service of SERVICE_TYPES) {
      const next = stateAfterSend(service);
      if (FINANCED_SERVICES.includes(service)) expect(next).toEqual({ state: 9, events: [15, 17] });
      else expect(next).toEqual({ state: 6, events: [15, 16] });
      // Wherever sending leads, the next step is allowed there.
      expect(canTransition(next.state, next.state === 9 ? 'approve' : 'distribute')).toBe(true);
    }
  });

  it('a credit decision approves into not paid (event 3) or rejects back to pending (event 2)', () => {
    const approved = stateAfterDecision('approved');
    expect(approved).toEqual({ state: 2, event: 3 });
    expect(canTransition(approved.state, 'pay')).toBe(true);
    const rejected = stateAfterDecision('rejected');
    expect(rejected).toEqual({ state: 1, event: 2 });
    expect(canTransition(rejected.state, 'send')).toBe(true);
  });
});
