import { addMonths, isValidIsoDate, parseIsoDate } from './calendar-date';
import { assertMinorUnits, type Currency, isCurrency } from './money';

/**
 * The payment schedule of an installment plan (contract financing, spec §3: startDate, endDate,
 * monthlyFee, noOfInstallments, initialFee, administrationFee, total), in integer minor units (öre,
 * cents). The web shows it live while the plan is typed and the server stores the same rows, so both
 * agree to the öre; each row later becomes one invoice to the buyer.
 *
 * How the plan is charged (the way Nordic sellers' part-payment and contract-financing plans show it
 * to the buyer: a set-up fee once, and a fixed cost on every monthly notice, e.g. "uppläggningsavgift"
 * and "aviavgift/administrationsavgift" in Sweden, "avausmaksu" and "laskutusmaksu" in Finland):
 * - Principal: the financed amount, split into `noOfInstallments` equal parts without interest. Each
 *   part is ⌊financed / n⌋; the rounding rest (0 to n − 1 öre) goes to the LAST installment
 *   (`PRINCIPAL_REST_INSTALLMENT`), so every regular installment is the same and the last one settles
 *   the plan exactly, as a final payment usually does.
 * - Initial fee (`initialFee`): once, with the first installment.
 * - Monthly fee (`monthlyFee`): with every installment.
 * - Administration fee (`administrationFee`): with every installment, the cost of the notice (the
 *   invoice) that asks for it; it is stated apart from the monthly fee because the buyer's invoice and
 *   the credit information show each kind of cost on its own line.
 * No fee bears VAT: credit and its fees are an exempt financial service (shared/domain/vat-rot-rut.md
 * §1, the 0 % row: "exempt financial services"), so an installment's invoice states why no VAT is
 * charged.
 *
 * Due dates: installment k is due k calendar months after the start date (`addMonths`, counted from the
 * start each time, so a start on 31 January gives 28/29 February, 31 March, 30 April, ...). The start
 * date is the day the agreement begins and the money is lent; the first installment falls due a month
 * later. The end date is the last installment's due date, so it is always after the start (spec §5:
 * "start before end").
 *
 * Totals: total = financed + initial fee + n × (monthly fee + administration fee), and the rows add up
 * to it exactly. Every amount is bounded so that each installment is a valid invoice: the total is at
 * most `MAX_PLAN_TOTAL_MINOR`, the same maximum as one invoice's total (contracts
 * `MAX_INVOICE_TOTAL_MINOR`, docs/MONEY.md "Money bounds"), and the plan has 1 to
 * `MAX_PLAN_INSTALLMENTS` installments.
 */

/** Most installments in one plan: ten years of monthly payments. */
export const MAX_PLAN_INSTALLMENTS = 120;

/**
 * Largest total of a plan in minor units (100 million SEK or EUR): the maximum of one invoice's total,
 * so no installment can exceed what an invoice may be, and sums over plans stay exact.
 */
export const MAX_PLAN_TOTAL_MINOR = 10_000_000_000;

/** Which installment carries the rounding rest of the principal split: the last one (see the module comment). */
export const PRINCIPAL_REST_INSTALLMENT = 'last';

/** What a schedule is computed from; all amounts are non-negative integer minor units of `currency`. */
export interface InstallmentPlanTerms {
  /** The financed amount (the principal), split over the installments. */
  financedMinor: number;
  /** How many monthly installments, 1 to `MAX_PLAN_INSTALLMENTS`. */
  noOfInstallments: number;
  /** The day the agreement begins, `YYYY-MM-DD`; the first installment is due a month later. */
  startDate: string;
  /** Charged with every installment. */
  monthlyFeeMinor: number;
  /** Charged once, with the first installment. */
  initialFeeMinor: number;
  /** Charged with every installment (the notice's cost). */
  administrationFeeMinor: number;
  currency: Currency;
}

/** One installment: what the buyer pays on `dueDate`, split by kind, in minor units. */
export interface InstallmentRow {
  /** 1-based position in the plan. */
  number: number;
  /** `YYYY-MM-DD`, `number` months after the start date. */
  dueDate: string;
  /** This installment's part of the financed amount. */
  principalMinor: number;
  /** The initial fee on the first installment, 0 on the others. */
  initialFeeMinor: number;
  monthlyFeeMinor: number;
  administrationFeeMinor: number;
  /** `initialFeeMinor + monthlyFeeMinor + administrationFeeMinor`. */
  feeMinor: number;
  /** `principalMinor + feeMinor`: what this installment's invoice asks for. */
  amountMinor: number;
  /** The financed amount still unpaid once this installment is paid (0 after the last). */
  remainingPrincipalMinor: number;
}

/** A plan's schedule and its totals, in minor units of `currency`; the sums of the rows equal the totals. */
export interface InstallmentSchedule {
  currency: Currency;
  startDate: string;
  /** The last installment's due date. */
  endDate: string;
  noOfInstallments: number;
  rows: InstallmentRow[];
  /** The financed amount: Σ principal of the rows. */
  principalMinor: number;
  /** Σ initial fee of the rows (the initial fee once). */
  initialFeeMinor: number;
  /** Σ monthly fee of the rows. */
  monthlyFeesMinor: number;
  /** Σ administration fee of the rows. */
  administrationFeesMinor: number;
  /** Σ fee of the rows: every fee together. */
  feesMinor: number;
  /** Σ amount of the rows: what the buyer pays in all (spec §3 `total`). */
  totalMinor: number;
}

function assertInstallmentCount(noOfInstallments: number): void {
  if (
    !Number.isInteger(noOfInstallments) ||
    noOfInstallments < 1 ||
    noOfInstallments > MAX_PLAN_INSTALLMENTS
  ) {
    throw new RangeError(
      `noOfInstallments must be an integer 1-${MAX_PLAN_INSTALLMENTS}, got ${String(noOfInstallments)}`,
    );
  }
}

function assertNonNegativeMinor(value: number, name: string): void {
  assertMinorUnits(value, name);
  if (value < 0) throw new RangeError(`${name} must not be negative, got ${String(value)}`);
}

/**
 * The due date of installment `number` (1-based) of a plan starting on `startDate`: `number` calendar
 * months later, on the start's day of the month or the month's last day ("2025-01-31", 1 →
 * "2025-02-28"; 2 → "2025-03-31"). Throws a RangeError on an invalid date or a number outside
 * 1..`MAX_PLAN_INSTALLMENTS`.
 */
export function installmentDueDate(startDate: string, number: number): string {
  assertInstallmentCount(number);
  return addMonths(startDate, number);
}

/**
 * The end date of a plan: the due date of its last installment, `noOfInstallments` months after the
 * start ("2025-01-31", 12 → "2026-01-31"). Always after the start. Throws a RangeError on an invalid
 * date or a count outside 1..`MAX_PLAN_INSTALLMENTS`.
 */
export function installmentEndDate(startDate: string, noOfInstallments: number): string {
  return installmentDueDate(startDate, noOfInstallments);
}

/**
 * The number of installments of a plan from its start to its end date: how many monthly due dates
 * (`installmentDueDate`) fall on or before `endDate`. The inverse of `installmentEndDate`
 * (`installmentCountBetween(s, installmentEndDate(s, n)) === n`); an end date between two due dates
 * counts the earlier one ("2025-01-10" to "2025-06-15" → 5), and an end before the first due date gives 0
 * (a caller refuses that with spec §5's date-range rule). The count is not capped: a caller checks it
 * against `MAX_PLAN_INSTALLMENTS`. Throws a RangeError on an invalid date.
 */
export function installmentCountBetween(startDate: string, endDate: string): number {
  const start = parseIsoDate(startDate);
  const end = parseIsoDate(endDate);
  if (start === null || end === null) throw new RangeError('startDate and endDate must be YYYY-MM-DD dates');
  const months = (end.year - start.year) * 12 + (end.month - start.month);
  if (months <= 0) return 0;
  // The due date `months` months on is in the end date's month; it counts when it is not after the end.
  return addMonths(startDate, months) <= endDate ? months : months - 1;
}

/**
 * The schedule of a plan (see the module comment for how each fee is charged and where the rounding
 * rest goes): one row per installment and the totals, all exact integers, Σ rows = totals. Throws a
 * RangeError when an amount is not a non-negative safe integer, the count is outside
 * 1..`MAX_PLAN_INSTALLMENTS`, the start date is not a valid `YYYY-MM-DD`, the currency is unknown or
 * the total exceeds `MAX_PLAN_TOTAL_MINOR`.
 */
export function computeInstallmentSchedule(terms: InstallmentPlanTerms): InstallmentSchedule {
  const { financedMinor, noOfInstallments: n, startDate, currency } = terms;
  const { monthlyFeeMinor, initialFeeMinor, administrationFeeMinor } = terms;
  assertNonNegativeMinor(financedMinor, 'financedMinor');
  assertNonNegativeMinor(monthlyFeeMinor, 'monthlyFeeMinor');
  assertNonNegativeMinor(initialFeeMinor, 'initialFeeMinor');
  assertNonNegativeMinor(administrationFeeMinor, 'administrationFeeMinor');
  assertInstallmentCount(n);
  if (!isValidIsoDate(startDate)) throw new RangeError(`startDate is not a YYYY-MM-DD date: ${startDate}`);
  if (!isCurrency(currency)) throw new RangeError(`unknown currency ${String(currency)}`);

  // Each term is a safe integer and n ≤ 120: a sum that leaves the safe range is far above the bound,
  // so the check below refuses it even where the float is no longer exact.
  const monthlyFeesMinor = n * monthlyFeeMinor;
  const administrationFeesMinor = n * administrationFeeMinor;
  const feesMinor = initialFeeMinor + monthlyFeesMinor + administrationFeesMinor;
  const totalMinor = financedMinor + feesMinor;
  if (!(totalMinor <= MAX_PLAN_TOTAL_MINOR)) {
    throw new RangeError(`the plan's total exceeds ${MAX_PLAN_TOTAL_MINOR} minor units`);
  }

  const regularPrincipal = Math.floor(financedMinor / n);
  const lastPrincipal = financedMinor - regularPrincipal * (n - 1);
  const rows: InstallmentRow[] = [];
  let remaining = financedMinor;
  for (let number = 1; number <= n; number++) {
    const principalMinor = number === n ? lastPrincipal : regularPrincipal;
    const initialFee = number === 1 ? initialFeeMinor : 0;
    const feeMinor = initialFee + monthlyFeeMinor + administrationFeeMinor;
    remaining -= principalMinor;
    rows.push({
      number,
      dueDate: addMonths(startDate, number),
      principalMinor,
      initialFeeMinor: initialFee,
      monthlyFeeMinor,
      administrationFeeMinor,
      feeMinor,
      amountMinor: principalMinor + feeMinor,
      remainingPrincipalMinor: remaining,
    });
  }

  return {
    currency,
    startDate,
    endDate: addMonths(startDate, n),
    noOfInstallments: n,
    rows,
    principalMinor: financedMinor,
    initialFeeMinor,
    monthlyFeesMinor,
    administrationFeesMinor,
    feesMinor,
    totalMinor,
  };
}
