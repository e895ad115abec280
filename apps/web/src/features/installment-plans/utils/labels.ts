import {
  INVOICE_STATE_NUMBERS,
  PLAN_EVENTS,
  PLAN_STATE_NUMBERS,
  type PlanEvent,
  type PlanState,
  SIGNING_STATUSES,
} from '@portal/contracts';
import { labelKeys } from '../../../lib/label-keys';

// The translation key of each contract constant (lib/label-keys.ts); the locale test checks that every
// one has a text.

export const PLAN_STATE_KEYS = labelKeys('installments', 'states', PLAN_STATE_NUMBERS as PlanState[]);
export const PLAN_EVENT_KEYS = labelKeys(
  'installments',
  'events',
  Object.keys(PLAN_EVENTS).map(Number) as PlanEvent[],
);
export const SIGNING_KEYS = labelKeys('installments', 'signing', SIGNING_STATUSES);
const INVOICE_STATE_KEYS = labelKeys('invoices', 'states', INVOICE_STATE_NUMBERS);

/** The label key of a plan state number from the API; unknown numbers get a neutral label. */
export function planStateKey(state: number): string {
  return (PLAN_STATE_KEYS as Record<number, string>)[state] ?? 'installments:states.unknown';
}

/** The label key of a plan timeline event number from the API. */
export function planEventKey(event: number): string {
  return (PLAN_EVENT_KEYS as Record<number, string>)[event] ?? 'installments:events.unknown';
}

/** The label key of an installment's invoice state. */
export function invoiceStateKey(state: number): string {
  return (INVOICE_STATE_KEYS as Record<number, string>)[state] ?? 'invoices:states.unknown';
}

/** The badge tone of each plan state (the invoice badges' classes). */
export const PLAN_STATE_TONES: Readonly<Record<PlanState, string>> = {
  1: 'neutral',
  2: 'success',
  3: 'muted',
  4: 'muted',
  5: 'danger',
  6: 'muted',
  7: 'warning',
  8: 'info',
  9: 'info',
  10: 'danger',
};
