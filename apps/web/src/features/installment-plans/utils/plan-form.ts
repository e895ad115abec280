import {
  type InstallmentPlanBody,
  installmentPlanBodySchema,
  installmentPlanTerms,
  type Language,
  MAX_PLAN_INSTALLMENTS,
} from '@portal/contracts';
import { isValidIsoDate } from '@portal/domain/calendar-date';
import { computeInstallmentSchedule, type InstallmentSchedule } from '@portal/domain/installment-schedule';
import {
  type Currency,
  isCurrency,
  type MoneyParseError,
  parseMoney,
  parseMoneyOrNull,
} from '@portal/domain/money';
import type { Control } from 'react-hook-form';
import { z } from 'zod';

/** A signee or a security as typed. */
export interface PartyValues {
  name: string;
  identityNumber: string;
  email: string;
  phone: string;
}

/**
 * What the plan form holds: the body's fields under the body's names (so the contract's and the
 * server's issues land on their fields as they are), amounts and the count as typed, and the buyer's
 * name beside its id for the picker.
 */
export interface PlanFormValues {
  /** The plan this one replaces (its id), or '' for a plan of its own. */
  replacesPlanID: string;
  recipientID: string;
  recipientName: string;
  description: string;
  currency: string;
  financedAmountMinor: string;
  startDate: string;
  noOfInstallments: string;
  monthlyFee: string;
  initialFee: string;
  administrationFee: string;
  signees: PartyValues[];
  securities: PartyValues[];
}

/** The form's control: typed values in, the request body out. */
export type PlanFormControl = Control<PlanFormValues, unknown, InstallmentPlanBody>;

export const blankParty = (): PartyValues => ({ name: '', identityNumber: '', email: '', phone: '' });

export function blankPlanForm(currency: string): PlanFormValues {
  return {
    replacesPlanID: '',
    recipientID: '',
    recipientName: '',
    description: '',
    currency,
    financedAmountMinor: '',
    startDate: '',
    noOfInstallments: '12',
    monthlyFee: '',
    initialFee: '',
    administrationFee: '',
    signees: [blankParty()],
    securities: [],
  };
}

/** The rule code each refusal of the amount parser shows. */
const AMOUNT_ERROR_CODES: Record<MoneyParseError, string> = {
  empty: 'validation.required',
  invalid: 'installments:form.amount_invalid',
  too_many_decimals: 'validation.whole_minor_units',
  out_of_range: 'validation.amount_range',
};

/** A fee left empty is none. */
const isBlank = (text: string) => text.trim() === '';

/** The count of installments as typed: a whole number, else NaN (which the contract refuses). */
function readCount(text: string): number {
  return /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
}

/**
 * The plan form's schema: the typed amounts read into exact minor units in the user's language
 * (`@portal/domain/money`, never a float), then the contract's `installmentPlanBodySchema` itself,
 * so the browser refuses what the server refuses with the same codes. The output is the request body.
 */
export function planFormSchema(language: Language) {
  const amount = (emptyIsZero: boolean) =>
    z.string().transform((text, ctx) => {
      if (emptyIsZero && isBlank(text)) return 0;
      const result = parseMoney(text, { locale: language });
      if (result.ok) return result.minor;
      ctx.addIssue({ code: 'custom', message: AMOUNT_ERROR_CODES[result.error] });
      return z.NEVER;
    });
  return z
    .object({
      replacesPlanID: z.string(),
      recipientID: z.string(),
      recipientName: z.string(),
      description: z.string(),
      currency: z.string(),
      financedAmountMinor: amount(false),
      startDate: z.string(),
      noOfInstallments: z.string().transform(readCount),
      monthlyFee: amount(true),
      initialFee: amount(true),
      administrationFee: amount(true),
      signees: z.array(z.custom<PartyValues>()),
      securities: z.array(z.custom<PartyValues>()),
    })
    .transform(
      // The contract checks every value next, the currency among them.
      ({ recipientName: _name, replacesPlanID, ...body }): InstallmentPlanBody => ({
        ...body,
        currency: body.currency as Currency,
        replacesPlanID: replacesPlanID === '' ? null : replacesPlanID,
      }),
    )
    .pipe(installmentPlanBodySchema);
}

/** The schedule the form shows as it is typed, or why there is none yet. */
export type LiveSchedule =
  | { kind: 'schedule'; schedule: InstallmentSchedule }
  | { kind: 'incomplete' }
  | { kind: 'too_large' };

/**
 * The schedule of the typed terms: `computeInstallmentSchedule`, the function the server stores the
 * plan's rows with, so the preview and the saved plan agree to the öre.
 */
export function liveSchedule(values: PlanFormValues, language: Language): LiveSchedule {
  const read = (text: string, emptyIsZero: boolean) =>
    emptyIsZero && isBlank(text) ? 0 : parseMoneyOrNull(text, { locale: language });
  const financed = read(values.financedAmountMinor, false);
  const fees = [values.monthlyFee, values.initialFee, values.administrationFee].map((f) => read(f, true));
  const count = readCount(values.noOfInstallments);
  const [monthlyFee, initialFee, administrationFee] = fees;
  if (
    financed === null ||
    financed <= 0 ||
    monthlyFee == null ||
    initialFee == null ||
    administrationFee == null ||
    !(count >= 1 && count <= MAX_PLAN_INSTALLMENTS) ||
    !isValidIsoDate(values.startDate) ||
    !isCurrency(values.currency)
  )
    return { kind: 'incomplete' };
  try {
    const schedule = computeInstallmentSchedule(
      installmentPlanTerms({
        financedAmountMinor: financed,
        noOfInstallments: count,
        startDate: values.startDate,
        monthlyFee,
        initialFee,
        administrationFee,
        currency: values.currency,
      }),
    );
    return { kind: 'schedule', schedule };
  } catch {
    // Every part is a valid amount on its own, so only the sum can be too large.
    return { kind: 'too_large' };
  }
}

const TOP_FIELDS = new Set<string>([
  'replacesPlanID',
  'recipientID',
  'description',
  'currency',
  'financedAmountMinor',
  'startDate',
  'noOfInstallments',
  'monthlyFee',
  'initialFee',
  'administrationFee',
  'signees',
  'securities',
]);

/**
 * Where a server issue's path (a body field) shows in the form: the same name, a party's field, the
 * total's rules on the financed amount; null for what no field shows (the banner says it).
 */
export function planFormPathOf(path: string): string | null {
  if (path === 'total' || path === 'endDate') return 'financedAmountMinor';
  if (/^(signees|securities)\.\d+\.(name|identityNumber|email|phone)$/.test(path)) return path;
  if (path === 'signees' || path === 'securities') return `${path}.root`;
  return TOP_FIELDS.has(path) ? path : null;
}

/**
 * The error codes of a replacing plan (docs/INSTALLMENTS.md) and the field each is shown at: what is
 * wrong with the plan to replace at its choice, a financed amount that is not its open principal at
 * the amount.
 */
export const REPLACEMENT_ERROR_FIELDS = {
  'installmentPlans.not_found': 'replacesPlanID',
  'installmentPlans.not_replaceable': 'replacesPlanID',
  'installmentPlans.already_being_replaced': 'replacesPlanID',
  'installmentPlans.replace_other_buyer': 'replacesPlanID',
  'installmentPlans.replace_amount_mismatch': 'financedAmountMinor',
} as const satisfies Record<string, keyof PlanFormValues>;
