import { addDays, daysBetween } from './calendar-date';
import { type Currency, multiplyDivide } from './money';

/**
 * The rules of the money flow that the server, the seed and the browser's fee preview share
 * (docs/MONEY.md): the fee on a settled amount, and which collection steps an unpaid invoice has
 * reached on a given day. Amounts are integer minor units; dates are `YYYY-MM-DD`.
 */

/** One issuer's price of one service: a percentage in basis points (150 = 1.50 %) and a fixed fee. */
export interface FeeTerms {
  percentBasisPoints: number;
  fixedMinor: number;
}

/**
 * The fee on `grossMinor`: the percentage, rounded half away from zero once, plus the fixed fee when
 * `withFixed` (the fixed fee is charged once per invoice). Never more than the gross itself, so a net
 * payout is never negative; zero or negative gross has no fee.
 */
export function feeFor(grossMinor: number, terms: FeeTerms, withFixed = true): number {
  if (grossMinor <= 0) return 0;
  const percent = multiplyDivide(grossMinor, terms.percentBasisPoints, 10_000);
  const fee = percent + (withFixed ? terms.fixedMinor : 0);
  return Math.min(Math.max(fee, 0), grossMinor);
}

/** Days after the due date at which the daily job takes each collection step (docs/MONEY.md). */
export const DUNNING_DAYS = {
  /** The day after the due date the invoice is overdue (event 25). */
  overdue: 1,
  /** Reminder 1 (event 8) with the reminder fee. */
  reminder1: 10,
  /** Reminder 2 (event 9). */
  reminder2: 24,
  /** Handed over to debt collection (event 10). */
  collection: 38,
} as const;

/** `dunning_step` values: how far an unpaid invoice has been taken. */
export const DUNNING_STEPS = { none: 0, overdue: 1, reminder1: 2, reminder2: 3, collection: 4 } as const;
export type DunningStep = (typeof DUNNING_STEPS)[keyof typeof DUNNING_STEPS];

/**
 * The reminder fee charged with reminder 1, minor units per currency: SEK 60 (the most the Swedish act
 * on compensation for collection costs allows) and EUR 5 (the Finnish cap for a reminder).
 */
export const REMINDER_FEE_MINOR: Readonly<Record<Currency, number>> = { SEK: 6_000, EUR: 500 };

/**
 * Late-payment interest per year in basis points: the reference rate plus eight percentage points
 * (the Swedish Interest Act, 6 §). The reference rate is set twice a year; `DEFAULT_REFERENCE_RATE_BP`
 * is the demo's value and the server reads the current one from its configuration.
 */
export const INTEREST_MARGIN_BP = 800;
export const DEFAULT_REFERENCE_RATE_BP = 200;

/** The furthest collection step an invoice due on `dueDate` has reached on `today`. */
export function dunningStepOn(dueDate: string, today: string): DunningStep {
  const late = daysBetween(dueDate, today);
  if (late >= DUNNING_DAYS.collection) return DUNNING_STEPS.collection;
  if (late >= DUNNING_DAYS.reminder2) return DUNNING_STEPS.reminder2;
  if (late >= DUNNING_DAYS.reminder1) return DUNNING_STEPS.reminder1;
  if (late >= DUNNING_DAYS.overdue) return DUNNING_STEPS.overdue;
  return DUNNING_STEPS.none;
}

/** The first day on which a recourse service's unpaid invoice is charged back. */
export function recourseDate(dueDate: string, recourseDays: number): string {
  return addDays(dueDate, recourseDays);
}

/**
 * Simple interest on `principalMinor` for the days after `fromExclusive` up to and including
 * `toInclusive` at `yearlyBasisPoints`, on a 365-day year, rounded once half away from zero.
 */
export function interestFor(
  principalMinor: number,
  yearlyBasisPoints: number,
  fromExclusive: string,
  toInclusive: string,
): number {
  const days = daysBetween(fromExclusive, toInclusive);
  if (days <= 0 || principalMinor <= 0) return 0;
  return multiplyDivide(principalMinor, days * yearlyBasisPoints, 10_000 * 365);
}

/**
 * Our own bankgiro (the finance company's), to which an issuer pays a debt claim (docs/MONEY.md
 * "Debt claims"); digits only, as a BGMAX section names its receiving bankgiro. The invoices of an
 * issuer without a collection bankgiro print it too (`5050-1055`, a Bankgirot example number in the demo).
 */
export const OUR_BANKGIRO = '50501055';

/** Days from a debt claim to its due date. */
export const DEBT_CLAIM_DUE_DAYS = 14;

/** Days after a debt claim's due date on which a reminder is sent while it is unpaid: once each. */
export const DEBT_CLAIM_REMINDER_DAYS = [7, 21] as const;

/** The default of `issuers.debt_claim_days`: days an open debt waits for payouts before it is claimed. */
export const DEFAULT_DEBT_CLAIM_DAYS = 30;

/** How many of the reminders of a debt claim due on `dueDate` are due on `today`. */
export function debtClaimRemindersOn(dueDate: string, today: string): number {
  return DEBT_CLAIM_REMINDER_DAYS.filter((days) => addDays(dueDate, days) <= today).length;
}
