import { z } from 'zod';
import { plainText, twoFactorCodeSchema } from './rules';

/**
 * Bank-account verification through an open-banking provider (spec §1, §2; issue #13). The portal
 * lists the banks of the issuer's country, starts a session at the provider for the chosen bank, and
 * takes the result when the browser comes back to `/verify-bank-account-success` (the callback) or
 * when the provider's webhook arrives, whichever comes first.
 */

/** Minutes a started verification waits for its callback; after it the state is refused as expired. */
export const BANK_VERIFICATION_MINUTES = 15;

/** Why a verification did not verify an account; the success page words each in the user's language. */
export const BANK_VERIFICATION_FAILURE_REASONS = [
  'holder_mismatch',
  'account_not_payable',
  'cancelled',
  'expired',
  'provider_error',
  /**
   * The account differs from the issuer's verified one, and the user who verified it has no
   * two-factor to confirm the change with (docs/INTEGRATIONS.md "Changing the account").
   */
  'two_factor_required',
] as const;
export const bankVerificationFailureReasonSchema = z.enum(BANK_VERIFICATION_FAILURE_REASONS);
export type BankVerificationFailureReason = z.infer<typeof bankVerificationFailureReasonSchema>;

/** A verified account as users see it: the number masked to its last four digits. */
export const verifiedBankAccountSchema = z.object({
  kind: z.enum(['se-bban', 'bankgiro', 'iban']),
  masked: z.string(),
  bankName: z.string(),
  holderName: z.string(),
  currency: z.string().nullable(),
  verifiedAt: z.string(),
});
export type VerifiedBankAccount = z.infer<typeof verifiedBankAccountSchema>;

/** `GET limited/bank-verification`: the issuer's current verified account, if any. */
export const getBankVerificationResponseSchema = z.object({
  country: z.enum(['SE', 'FI']),
  account: verifiedBankAccountSchema.nullable(),
});
export type GetBankVerificationResponse = z.infer<typeof getBankVerificationResponseSchema>;

export const verificationBankSchema = z.object({
  id: z.string(),
  name: z.string(),
  bic: z.string().nullable(),
  /** The bank's logo as a `data:` URL (the portal loads images from itself only), or null. */
  logo: z.string().nullable(),
});
export type VerificationBank = z.infer<typeof verificationBankSchema>;

/** `GET limited/bank-verification/banks`: the banks of the issuer's country (SE or FI). */
export const listVerificationBanksResponseSchema = z.object({
  country: z.enum(['SE', 'FI']),
  /** True when the provider is the demo stand-in of the embedded demo: the page shows a demo badge. */
  demo: z.boolean(),
  banks: z.array(verificationBankSchema),
});
export type ListVerificationBanksResponse = z.infer<typeof listVerificationBanksResponseSchema>;

/** `POST limited/bank-verification/start`: a session for the chosen bank; the browser goes to `redirectUrl`. */
export const startBankVerificationBodySchema = z.object({
  bankId: plainText().min(1).max(100),
  language: z.enum(['sv-SE', 'en-US', 'fi-FI']).optional(),
});
export type StartBankVerificationBody = z.infer<typeof startBankVerificationBodySchema>;
export const startBankVerificationResponseSchema = z.object({ redirectUrl: z.string() });

/**
 * `POST limited/bank-verification/callback`: the query the provider sent the browser back with, as
 * the success page read it. The state must be one this user started, not expired; a state seen before
 * answers the outcome it had and changes nothing.
 */
export const completeBankVerificationBodySchema = z.object({
  state: plainText().min(16).max(200),
  session_id: plainText().max(200).optional(),
  account_verification_report_id: plainText().max(200).optional(),
  error: plainText().max(100).optional(),
});
export type CompleteBankVerificationBody = z.infer<typeof completeBankVerificationBodySchema>;

/**
 * The outcome of a verification. `confirmation_required`: the bank verified an account other than the
 * issuer's verified one; `account` is the new one, `replaces` the one payouts still go to until the
 * user confirms the change with a two-factor code (`confirmBankAccountChange`).
 */
export const completeBankVerificationResponseSchema = z.object({
  status: z.enum(['verified', 'confirmation_required', 'failed']),
  reason: bankVerificationFailureReasonSchema.nullable(),
  account: verifiedBankAccountSchema.nullable(),
  replaces: verifiedBankAccountSchema.optional(),
});
export type CompleteBankVerificationResponse = z.infer<typeof completeBankVerificationResponseSchema>;

/**
 * `POST limited/bank-verification/confirm`: the user's two-factor code makes the new account of the
 * verification with this state the issuer's (within `BANK_VERIFICATION_MINUTES` of its verification).
 * Answers the outcome as the callback does: `verified`, or `failed` with `expired`.
 */
export const confirmBankAccountChangeBodySchema = z.object({
  state: plainText().min(16).max(200),
  code: twoFactorCodeSchema,
});
export type ConfirmBankAccountChangeBody = z.infer<typeof confirmBankAccountChangeBodySchema>;

/** `POST bank-verification/webhook`: the provider's signed notice that a session has ended. */
export const receiveBankVerificationWebhookBodySchema = z.object({
  event: plainText().max(100),
  session_id: plainText().min(1).max(200),
  status: plainText().max(50).optional(),
});
