import {
  computeInstallmentSchedule,
  type InstallmentPlanTerms,
  type InstallmentSchedule,
} from '@portal/domain/installment-schedule';
import { CURRENCIES, type Currency } from '@portal/domain/money';
import { isFinnishBusinessId } from '@portal/domain/organisation-number';
import { isValidPartyNumber, normalizePartyNumber, partyNumberKey } from '@portal/domain/party-number';
import { isValidPhoneNumber, toE164PhoneNumber } from '@portal/domain/phone-number';
import { z } from 'zod';
import { MAX_PLAN_INSTALLMENTS, MAX_PLAN_TOTAL_MINOR, RECIPIENT_NAME_MAX } from './constants';
import { invoiceEventSchema } from './invoices';
import { listQuerySchema, pageSchema } from './lists';
import { numberedNames } from './numbered-names';
import { optionalText } from './recipients';
import { canCheck, isoDateSchema, plainText, requiredEmail, requiredText } from './rules';

/*
 * Installment plans (contract financing, spec §2-§5, issue #14): the customer sells something its
 * buyer pays in monthly installments; we finance the contract, pay the customer out and collect each
 * installment as an invoice. The schedule is `@portal/domain/installment-schedule` (how each fee is
 * charged, where the rounding rest goes); this file holds the states, the events and the payloads.
 * Amounts are integer minor units of the plan's currency; the spec's own field names (`monthlyFee`,
 * `initialFee`, `administrationFee`, `total`) are kept as it writes them, the others say `Minor`.
 */

/**
 * Installment plan states of spec §4, numbered in its order as the database stores them (`registered`
 * is its "registered and inactive"): `PLAN_STATE` by name (`PLAN_STATE.active` is 2) for the code that
 * moves or filters plans, `PLAN_STATES` by number for what shows a stored state.
 */
const PLAN_STATE_TABLES = numberedNames([
  'registered',
  'active',
  'completed',
  'cancelled',
  'recalled',
  'replaced',
  'finalNotice',
  'sentForSigning',
  'signed',
  'agreementRejected',
]);
export const PLAN_STATE = PLAN_STATE_TABLES.byName;
export const PLAN_STATES = PLAN_STATE_TABLES.byNumber;
export type PlanState = (typeof PLAN_STATE)[keyof typeof PLAN_STATE];
export const PLAN_STATE_NUMBERS = Object.values(PLAN_STATE);

/** Whether a number (read from a query or a row) is one of the plan states. */
export function isPlanState(value: number): value is PlanState {
  return (PLAN_STATE_NUMBERS as readonly number[]).includes(value);
}

/** The states in which the buyer owes installments that we collect: the daily job's plans. */
export const COLLECTING_PLAN_STATES = [
  PLAN_STATE.active,
  PLAN_STATE.finalNotice,
  PLAN_STATE.recalled,
] as const;

/**
 * The plan states in the dashboard's groups (issue #14): on their way to us (registered, sent for
 * signing, signed: our decision waits), active, in arrears (final notice, recalled) and ended
 * (completed, cancelled, replaced, agreement rejected).
 */
export const PLAN_STATE_GROUPS = {
  signing: [PLAN_STATE.registered, PLAN_STATE.sentForSigning, PLAN_STATE.signed],
  active: [PLAN_STATE.active],
  arrears: [PLAN_STATE.finalNotice, PLAN_STATE.recalled],
  ended: [PLAN_STATE.completed, PLAN_STATE.cancelled, PLAN_STATE.replaced, PLAN_STATE.agreementRejected],
} as const satisfies Record<string, readonly PlanState[]>;
export type PlanStateGroup = keyof typeof PLAN_STATE_GROUPS;

/**
 * A plan's timeline events, numbered as the database stores them: `PLAN_EVENT` by name, `PLAN_EVENTS`
 * by number; written in the plan's phases (registration and signing, our decision, collection, the
 * end), each phase on a line. Each state change has its event (`PLAN_TRANSITIONS`); the others mark
 * what happens within a state: one signee signed, an installment's invoice was created or paid, a plan
 * took over another's debt when it was approved (`replacesPlan`, on the new plan's timeline).
 */
const PLAN_EVENT_TABLES = numberedNames([
  ...(['registered', 'edited', 'sentForSigning', 'signeeSigned', 'signed', 'signingRefused'] as const),
  ...(['approved', 'rejected', 'cancelled'] as const),
  ...(['installmentInvoiced', 'installmentPaid', 'finalNotice', 'resumed', 'recalled'] as const),
  ...(['replaced', 'replacesPlan', 'completed'] as const),
  // Money: the financed amount paid out to the customer by a payout run (a `planPayout` settlement row).
  ...(['paidOut'] as const),
]);
export const PLAN_EVENT = PLAN_EVENT_TABLES.byName;
export const PLAN_EVENTS = PLAN_EVENT_TABLES.byNumber;
export type PlanEvent = (typeof PLAN_EVENT)[keyof typeof PLAN_EVENT];

/** Limits of the plan form in code points (ours: spec §5 gives none), and how many signees and securities. */
export const PLAN_LIMITS = {
  description: 200,
  partyName: RECIPIENT_NAME_MAX,
  identityNumber: 13,
  email: 100,
  phone: 20,
  signees: 10,
  securities: 10,
} as const;

/**
 * The codes of the plan rules: each is the `message` of an issue at the field it names, answered in
 * `issues` of a 400 `installmentPlans.invalid`. `wrongDateRange` is spec §5's "start before end";
 * `startDatePast` is spec §5's warning and never an issue (`installmentPlanWarnings`).
 */
export const PLAN_RULE_CODES = {
  wrongDateRange: 'installmentPlans.wrong_date_range',
  endDate: 'validation.installment_end_date',
  totalMismatch: 'validation.installment_total_mismatch',
  totalRange: 'validation.amount_range',
  amountPositive: 'validation.installment_amount_positive',
  signeesRequired: 'validation.signees_required',
  partyRepeated: 'validation.party_repeated',
  phone: 'validation.phone',
  startDatePast: 'validation.start_date_past',
} as const;

/**
 * The country whose national phone forms a party's number is read in: Finland for a Finnish business
 * ID, Sweden for every other identity number (a Swedish personnummer or organisationsnummer). A number
 * written with its calling code (`+358 40 …`) is read as such whatever the identity number.
 */
function phoneCountryOf(identityNumber: string): 'SE' | 'FI' {
  return isFinnishBusinessId(identityNumber) ? 'FI' : 'SE';
}

/**
 * A signee (who signs the agreement: the buyer, or each of several buyers) or a security (a
 * guarantor): name, identity number (Swedish personnummer or samordningsnummer, organisationsnummer,
 * or Finnish business ID, with its check digit; stored in one form by `normalizePartyNumber`), e-mail
 * (where the signing link is sent) and an optional phone number, stored in E.164.
 */
export const planPartyBodySchema = z
  .object({
    name: requiredText(PLAN_LIMITS.partyName),
    identityNumber: requiredText(PLAN_LIMITS.identityNumber)
      .refine(isValidPartyNumber, 'validation.organization_number')
      .transform(normalizePartyNumber),
    email: requiredEmail(PLAN_LIMITS.email),
    phone: optionalText(PLAN_LIMITS.phone),
  })
  .refine((party) => isValidPhoneNumber(party.phone, phoneCountryOf(party.identityNumber)), {
    path: ['phone'],
    message: PLAN_RULE_CODES.phone,
    when: (payload) => canCheck(payload, ['phone', 'identityNumber']),
  })
  .transform((party) => ({
    ...party,
    phone: toE164PhoneNumber(party.phone, phoneCountryOf(party.identityNumber)) ?? party.phone,
  }));
export type PlanPartyBody = z.input<typeof planPartyBodySchema>;
export type PlanParty = z.output<typeof planPartyBodySchema>;

/** Each identity number once in a list of parties: a repeat is an issue at its `identityNumber`. */
function refineDistinctParties(parties: readonly { identityNumber: string }[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  parties.forEach((party, i) => {
    const key = partyNumberKey(party.identityNumber);
    if (seen.has(key))
      ctx.addIssue({ code: 'custom', path: [i, 'identityNumber'], message: PLAN_RULE_CODES.partyRepeated });
    seen.add(key);
  });
}

/**
 * "Import signees as securities" (spec §3): the securities followed by each signee who is not one of
 * them yet (the same identity number in any writing, `partyNumberKey`), in the signees' order.
 */
export function signeesAsSecurities<P extends { identityNumber: string }>(
  signees: readonly P[],
  securities: readonly P[],
): P[] {
  const known = new Set(securities.map((s) => partyNumberKey(s.identityNumber)));
  const added = signees.filter((s) => {
    const key = partyNumberKey(s.identityNumber);
    if (known.has(key)) return false;
    known.add(key);
    return true;
  });
  return [...securities, ...added];
}

const planAmountSchema = z
  .number('validation.required')
  .int('validation.whole_minor_units')
  .min(0, 'validation.amount_range')
  .max(MAX_PLAN_TOTAL_MINOR, 'validation.amount_range');

/** The fields of a plan body the schedule is computed from. */
type PlanTermsFields = {
  financedAmountMinor: number;
  noOfInstallments: number;
  startDate: string;
  monthlyFee: number;
  initialFee: number;
  administrationFee: number;
  currency: Currency;
};

/** A plan body's fields as the domain's schedule terms (the spec's names to the domain's). */
export function installmentPlanTerms(body: PlanTermsFields): InstallmentPlanTerms {
  return {
    financedMinor: body.financedAmountMinor,
    noOfInstallments: body.noOfInstallments,
    startDate: body.startDate,
    monthlyFeeMinor: body.monthlyFee,
    initialFeeMinor: body.initialFee,
    administrationFeeMinor: body.administrationFee,
    currency: body.currency,
  };
}

/** One broken plan rule: the field it is shown at and its code (`PLAN_RULE_CODES`). */
export interface PlanIssue {
  path: string;
  code: (typeof PLAN_RULE_CODES)[keyof typeof PLAN_RULE_CODES];
}

/**
 * The rules of a plan's dates and amounts, shared by the form, the register call and the server (which
 * may check a stored plan again): spec §5's start before end (when an end date is given; the end date
 * the schedule gives is always after the start); an end date that is the last installment's due date;
 * a total within `MAX_PLAN_TOTAL_MINOR`; every installment above zero, since each becomes an invoice;
 * and a `total`, when given, equal to the schedule's (what the form showed is what is saved). Returns
 * the broken rules, none when the plan holds. Fields that are themselves invalid are left to their
 * own rules.
 */
export function installmentPlanIssues(
  body: PlanTermsFields & { endDate?: string | undefined; total?: number | undefined },
): PlanIssue[] {
  const issues: PlanIssue[] = [];
  const endBeforeStart = body.endDate !== undefined && body.endDate <= body.startDate;
  if (endBeforeStart) issues.push({ path: 'endDate', code: PLAN_RULE_CODES.wrongDateRange });
  let schedule: InstallmentSchedule;
  try {
    schedule = computeInstallmentSchedule(installmentPlanTerms(body));
  } catch {
    // Each amount is within the maximum on its own (the field rules), so only the sum can be too large.
    return [...issues, { path: 'total', code: PLAN_RULE_CODES.totalRange }];
  }
  if (!endBeforeStart && body.endDate !== undefined && body.endDate !== schedule.endDate)
    issues.push({ path: 'endDate', code: PLAN_RULE_CODES.endDate });
  if (schedule.rows.some((row) => row.amountMinor <= 0))
    issues.push({ path: 'financedAmountMinor', code: PLAN_RULE_CODES.amountPositive });
  if (body.total !== undefined && body.total !== schedule.totalMinor)
    issues.push({ path: 'total', code: PLAN_RULE_CODES.totalMismatch });
  return issues;
}

/**
 * Spec §5's warning: a start date before `today` (`YYYY-MM-DD`, the caller's day in Europe/Stockholm).
 * The form shows it and the plan may still be saved (an agreement may be registered after it began);
 * an installment whose due date has then passed is invoiced late, which the customer should see first.
 */
export function installmentPlanWarnings(
  plan: { startDate: string },
  today: string,
): { path: 'startDate'; code: typeof PLAN_RULE_CODES.startDatePast }[] {
  return plan.startDate < today ? [{ path: 'startDate', code: PLAN_RULE_CODES.startDatePast }] : [];
}

const PLAN_TERMS_FIELDS = [
  'financedAmountMinor',
  'noOfInstallments',
  'startDate',
  'endDate',
  'monthlyFee',
  'initialFee',
  'administrationFee',
  'currency',
  'total',
];

/**
 * `POST limited/installmentplans` (register) and `PUT limited/installmentplans/:id` (edit while
 * registered). Spec §3's fields, in minor units where they are money: `monthlyFee` and
 * `administrationFee` are charged with every installment, `initialFee` once with the first (the
 * domain's schedule). `endDate` and `total` are optional: the schedule gives them, and when the form
 * sends what it showed they must agree with it. `loanNumber` is ours, given at registration, so it is
 * only in the answer. The form sends one `Idempotency-Key` header per form, as the invoice register
 * does, so a retried save registers the plan once. `replacesPlanID` names the plan whose remaining
 * debt this one takes over (replacement, state 6 of the old plan when this one is approved).
 */
export const installmentPlanBodySchema = z
  .object({
    description: requiredText(PLAN_LIMITS.description),
    /** The buyer: one of the issuer's recipients (a private person or a company). */
    recipientID: z.uuid('validation.recipient_required'),
    currency: z.enum(CURRENCIES, 'validation.invalid'),
    /** The financed amount (the principal), above zero. */
    financedAmountMinor: planAmountSchema.min(1, 'validation.amount_positive'),
    startDate: isoDateSchema,
    endDate: isoDateSchema.optional(),
    noOfInstallments: z
      .number('validation.required')
      .int('validation.invalid')
      .min(1, 'validation.invalid')
      .max(MAX_PLAN_INSTALLMENTS, 'validation.invalid'),
    monthlyFee: planAmountSchema.default(0),
    initialFee: planAmountSchema.default(0),
    administrationFee: planAmountSchema.default(0),
    total: planAmountSchema.optional(),
    signees: z
      .array(planPartyBodySchema)
      .min(1, PLAN_RULE_CODES.signeesRequired)
      .max(PLAN_LIMITS.signees)
      .superRefine(refineDistinctParties),
    securities: z
      .array(planPartyBodySchema)
      .max(PLAN_LIMITS.securities)
      .default([])
      .superRefine(refineDistinctParties),
    /**
     * The plan this one replaces (docs/INSTALLMENTS.md "States and transitions"): one of the issuer's
     * plans that is active, under final notice or recalled, with the same buyer and currency; the
     * financed amount must be its open principal to the öre (`openPrincipalMinor` of its detail).
     */
    replacesPlanID: z.uuid('validation.invalid').nullish(),
  })
  .superRefine(
    (body, ctx) => {
      for (const issue of installmentPlanIssues(body))
        ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.code });
    },
    { when: (payload) => canCheck(payload, PLAN_TERMS_FIELDS) },
  );
export type InstallmentPlanBody = z.input<typeof installmentPlanBodySchema>;
/** A plan body as the schema gives it back (defaults filled, numbers normalised): what the server writes. */
export type ParsedInstallmentPlanBody = z.output<typeof installmentPlanBodySchema>;

/** How far a signee has come with the agreement (the e-signing provider's status per signer). */
export const SIGNING_STATUSES = ['pending', 'signed', 'refused'] as const;
export type SigningStatus = (typeof SIGNING_STATUSES)[number];

/** Answer fields of one type by name: `fieldsOf(text, 'a', 'b')` is `{ a: text, b: text }`. */
function fieldsOf<T extends z.ZodType, const K extends string>(type: T, ...names: K[]): Record<K, T> {
  return Object.fromEntries(names.map((name) => [name, type])) as Record<K, T>;
}
const text = z.string();
const integer = z.number().int();

/** A stored party of a plan (answer). */
export const planPartySchema = z.object(fieldsOf(text, 'name', 'identityNumber', 'email', 'phone'));
export const planSigneeSchema = planPartySchema.extend({
  signingStatus: z.enum(SIGNING_STATUSES),
  /** When the signee signed or refused (ISO timestamp), else null. */
  signedAt: text.nullable(),
  /**
   * The signee's own page at the e-signing provider, while the plan is sent for signing (8) and it is
   * this signee's turn (the first who has not signed yet), so the customer can hand it over or, in the
   * demo, open it and sign in the sandbox; null otherwise.
   */
  signingLink: text.nullable(),
});

/**
 * One installment of a stored plan: the schedule's row (`InstallmentRow` of the domain, amounts in
 * minor units) and, once the daily job made it on its date, its invoice: `invoiceID`, that invoice's
 * state (`INVOICE_STATES`) and what is left to pay on it (`remainingMinor`), each null before.
 */
export const installmentSchema = z.object({
  dueDate: text,
  ...fieldsOf(integer, 'number', 'principalMinor', 'initialFeeMinor', 'monthlyFeeMinor', 'feeMinor'),
  ...fieldsOf(integer, 'administrationFeeMinor', 'amountMinor', 'remainingPrincipalMinor'),
  invoiceID: text.nullable(),
  ...fieldsOf(integer.nullable(), 'invoiceState', 'remainingMinor'),
});
export type Installment = z.infer<typeof installmentSchema>;

/**
 * A plan in a list. Spec §3's money fields (`monthlyFee`, `initialFee`, `administrationFee`, `total`:
 * what the buyer pays in all) and ours (`financedAmountMinor`, `remainingMinor`: what the buyer still
 * owes, invoiced or not) are integer minor units of `currency`; `created` is an ISO timestamp.
 */
export const installmentPlanSummarySchema = z.object({
  ...fieldsOf(text, 'installmentPlanID', 'loanNumber', 'description', 'recipientID', 'recipientName'),
  ...fieldsOf(text, 'currency', 'startDate', 'endDate', 'created'),
  ...fieldsOf(integer, 'state', 'noOfInstallments', 'financedAmountMinor', 'monthlyFee', 'initialFee'),
  ...fieldsOf(integer, 'administrationFee', 'total', 'remainingMinor'),
});
export type InstallmentPlanSummary = z.infer<typeof installmentPlanSummarySchema>;

/** A plan's page: the summary with its schedule, signees, securities and timeline (events by `PLAN_EVENTS`). */
export const installmentPlanDetailSchema = installmentPlanSummarySchema.extend({
  installments: z.array(installmentSchema),
  signees: z.array(planSigneeSchema),
  securities: z.array(planPartySchema),
  /**
   * The plan this one replaces (takes the remaining debt of), and the plan that replaces this one: the
   * one that did (this plan is then replaced, 6) or the one registered to do it and not yet decided.
   */
  ...fieldsOf(text.nullable(), 'replacesPlanID', 'replacedByPlanID'),
  /**
   * What a replacing plan would take over, in minor units: the principal not yet invoiced of an active
   * or noticed plan, what is left of the recall invoice of a recalled one; 0 in every other state.
   */
  openPrincipalMinor: integer,
  events: z.array(invoiceEventSchema),
});
export type InstallmentPlanDetail = z.infer<typeof installmentPlanDetailSchema>;

export const PLAN_SORT_FIELDS = ['created', 'startDate', 'recipientName', 'loanNumber', 'total'] as const;

/**
 * `GET limited/installmentplans`: the issuer's plans, newest first, paged and sorted like the invoice
 * history; `state` keeps one state of spec §4; `search` matches the description, the buyer's name and
 * the loan number.
 */
export const listInstallmentPlansQuerySchema = listQuerySchema(PLAN_SORT_FIELDS, 'desc').extend({
  state: z.coerce.number('validation.invalid').refine(isPlanState, 'validation.invalid').optional(),
});
export type ListInstallmentPlansQuery = z.output<typeof listInstallmentPlansQuerySchema>;
export const listInstallmentPlansResponseSchema = pageSchema(installmentPlanSummarySchema);
export type ListInstallmentPlansResponse = z.infer<typeof listInstallmentPlansResponseSchema>;

/** `POST backoffice/installmentplans/:id/decision`: our credit decision on a signed plan. */
export const decideInstallmentPlanBodySchema = z.object({ decision: z.enum(['approved', 'rejected']) });
export const decideInstallmentPlanResponseSchema = z.object({
  installmentPlanID: z.string(),
  state: integer,
});

/** `POST e-signing/callback?token=…`: the provider's callback proves itself by the token of its URL. */
export const eSigningCallbackQuerySchema = z.object({ token: plainText().max(200).optional() });
