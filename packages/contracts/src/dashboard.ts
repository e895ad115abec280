import { z } from 'zod';

/** The overdue buckets of the dashboard (spec §1), in days past the due date. */
export const OVERDUE_BUCKETS = ['1-5', '6-15', '16-30', '30+'] as const;
export type OverdueBucket = (typeof OVERDUE_BUCKETS)[number];
/** The first and last day past due of each bucket; `30+` means 31 days or more (30 is in `16-30`). */
export const OVERDUE_BUCKET_DAYS: Record<OverdueBucket, { min: number; max: number | null }> = {
  '1-5': { min: 1, max: 5 },
  '6-15': { min: 6, max: 15 },
  '16-30': { min: 16, max: 30 },
  '30+': { min: 31, max: null },
};
export const overdueBucketSchema = z.enum(OVERDUE_BUCKETS);

/**
 * `GET limited/dashboard`: the issuer's money at a glance (spec §1), all amounts in minor units of
 * `currency`, the issuer's main currency (the one most of its invoices use). Invoiced = amount to pay
 * of sent invoices (every state but 1 draft, 7 temporary and 11 deleted).
 */
export const dashboardResponseSchema = z.object({
  currency: z.string().length(3),
  /** Up to 10 recipients by invoiced amount over the last 12 months, largest first. */
  topCustomers: z.array(
    z.object({
      recipientID: z.string(),
      name: z.string(),
      invoiceCount: z.number().int(),
      grossMinor: z.number().int(),
    }),
  ),
  /** One entry per day of the last 30 days (today included), oldest first, zero days included. */
  sales30Days: z.array(z.object({ date: z.string(), grossMinor: z.number().int(), count: z.number().int() })),
  /** One entry per month of the last 12 months (this month included), oldest first. */
  sales12Months: z.array(
    z.object({ month: z.string(), grossMinor: z.number().int(), count: z.number().int() }),
  ),
  /** Unpaid invoices (states 2 and 3) by days past due as of today, in every bucket even when empty. */
  overdueBuckets: z.array(
    z.object({ bucket: overdueBucketSchema, count: z.number().int(), remainingMinor: z.number().int() }),
  ),
  /**
   * What we and the issuer owe each other in `currency` (docs/MONEY.md "Debt claims"):
   * `owedToYouMinor` what the next payout run pays (before fees), `owedByYouMinor` what the issuer
   * owes us (its open debt claims' remaining amounts and a debt not yet claimed), `openClaims` how
   * many claims are open.
   */
  balance: z.object({
    owedToYouMinor: z.number().int(),
    owedByYouMinor: z.number().int(),
    openClaims: z.number().int(),
  }),
  /**
   * The issuer's installment plans (issue #14), only for a user with `limited_contract_financing`:
   * how many plans are in each group of states (`PLAN_STATE_GROUPS`) and the principal still owed on
   * the plans being collected (active, final notice, recalled), in `currency`: the principal of every
   * installment whose invoice is not paid yet (not invoiced, or invoiced and open). Plans in another
   * currency are counted but not summed.
   */
  installmentPlans: z
    .object({
      counts: z.object({
        signing: z.number().int(),
        active: z.number().int(),
        arrears: z.number().int(),
        ended: z.number().int(),
      }),
      openPrincipalMinor: z.number().int(),
    })
    .optional(),
});
export type DashboardResponse = z.infer<typeof dashboardResponseSchema>;
