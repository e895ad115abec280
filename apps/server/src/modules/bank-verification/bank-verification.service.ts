// Over 500 lines on purpose: one flow with its states (start, callback or webhook, result, the
// two-factor confirmation of a changed account, expiry), kept together so every way into a state is
// in one place.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  BANK_VERIFICATION_MINUTES,
  type BankVerificationFailureReason,
  type CompleteBankVerificationBody,
  type CompleteBankVerificationResponse,
  type ConfirmBankAccountChangeBody,
  type ListVerificationBanksResponse,
  type VerifiedBankAccount,
} from '@portal/contracts';
import type { Locale } from '@portal/i18n';
import type { AppContext, BankProvider } from '../../context';
import type { Db, Tx } from '../../db/client';
import { audit, auditCaller, type Caller } from '../../lib/audit';
import { ApiError } from '../../lib/errors';
import { noticeColumns } from '../../services/notices';
import { claimAccountCheck, clearAccountChecks } from '../../services/throttle';
import { hasTwoFactor, issuerIdentity, spendTwoFactorCode } from '../../services/users';
import { type AccountIdentifier, accountKey, holderIsIssuer, isPayableTo, maskAccount } from './bank-account';
import { BankProviderError, type ReportAccount } from './bank-verification.client';
import {
  accountOfVerification,
  type BankVerificationRow,
  closeConfirmation,
  closeVerification,
  confirmAccount,
  currentAccount,
  currentAccounts,
  findVerification,
  findVerificationBySession,
  findVerificationByState,
  giveUpAccount,
  insertMessage,
  insertVerification,
  storeUnconfirmedAccount,
  storeVerifiedAccount,
  type VerifiedAccountRow,
} from './bank-verification.repository';

/**
 * The rules of bank-account verification (issue #13, shared/domain/bank-verification.md): the state
 * is random, stored as its hash, bound to the user and short-lived; the result is read server-side
 * from the provider, never taken from the browser; the callback and the webhook each close an attempt
 * at most once; whatever is refused (an unknown, foreign, expired or replayed state, a bad signature)
 * changes nothing and is written to the audit log.
 */

/** The page the provider sends the browser back to (spec §2 `/verify-bank-account-success`). */
export const CALLBACK_PATH = '/verify-bank-account-success';
/** A webhook signed longer ago than this (or that far in the future) is refused as a replay. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export type { Caller };

const hashState = (state: string) => createHash('sha256').update(state).digest('hex');

function providerOf(ctx: AppContext, step: 'banks' | 'start' | 'result'): BankProvider {
  if (ctx.bankProvider) return ctx.bankProvider;
  throw new ApiError(
    step === 'banks'
      ? 'bankVerification.banks_unavailable'
      : step === 'start'
        ? 'bankVerification.start_failed'
        : 'bankVerification.result_unavailable',
  );
}

/** The language of our messages to an issuer: Finnish for a Finnish company, else Swedish. */
function localeOf(country: 'SE' | 'FI'): Locale {
  return country === 'FI' ? 'fi-FI' : 'sv-SE';
}

async function issuerOf(db: Db, issuerId: string) {
  const issuer = await issuerIdentity(db, issuerId);
  if (!issuer) throw new ApiError('issuer.not_found');
  return issuer;
}

export function accountView(row: VerifiedAccountRow): VerifiedBankAccount {
  return {
    kind: row.kind,
    masked: row.masked,
    bankName: row.bankName,
    holderName: row.holderName,
    currency: row.currency,
    verifiedAt: row.verifiedAt.toISOString(),
  };
}

/**
 * The account payouts go to, per issuer (docs/MONEY.md "Payout holds"): the current verified one. An
 * issuer without one is missing from the map, and its payouts are held. Read in the payout run's
 * transaction, under its lock.
 */
export async function payoutAccountsOf(
  db: Db | Tx,
  issuerIds: string[],
): Promise<Map<string, { id: string; masked: string }>> {
  const found = await currentAccounts(db, issuerIds);
  return new Map([...found].map(([issuerId, a]) => [issuerId, { id: a.id, masked: a.masked }]));
}

export async function getBankVerification(db: Db, issuerId: string) {
  const issuer = await issuerOf(db, issuerId);
  const account = await currentAccount(db, issuerId);
  return { country: issuer.country, account: account ? accountView(account) : null };
}

/** The banks of the issuer's country, logos inlined; "failure to fetch banks" (spec §8) when the provider fails. */
export async function listVerificationBanks(
  ctx: AppContext,
  issuerId: string,
  log: { warn(obj: object, msg: string): void },
): Promise<ListVerificationBanksResponse> {
  const issuer = await issuerOf(ctx.db, issuerId);
  const provider = providerOf(ctx, 'banks');
  try {
    const banks = await provider.client.listBanks(issuer.country);
    const logos = await Promise.all(
      banks.map((b) => (b.logoUrl ? provider.client.fetchLogo(b.logoUrl) : Promise.resolve(null))),
    );
    return {
      country: issuer.country,
      demo: provider.demo,
      banks: banks.map((b, i) => ({ id: b.id, name: b.name, bic: b.bic ?? null, logo: logos[i] ?? null })),
    };
  } catch (err) {
    if (!(err instanceof BankProviderError)) throw err;
    log.warn({ step: err.step, status: err.status, providerCode: err.providerCode }, 'bank provider failed');
    throw new ApiError('bankVerification.banks_unavailable');
  }
}

/**
 * Starts a verification at the provider for the chosen bank of the issuer's country ("failure to start
 * the onboarding flow", spec §8, when the provider fails) and answers where the browser goes next.
 */
export async function startBankVerification(
  ctx: AppContext,
  caller: Caller,
  input: { bankId: string; language: Locale },
  log: { warn(obj: object, msg: string): void },
): Promise<{ redirectUrl: string }> {
  const issuer = await issuerOf(ctx.db, caller.issuerId);
  // Once the issuer has a verified account, a verification may replace it, which needs the user's
  // two-factor: a user without it is told before going to the bank (docs/INTEGRATIONS.md).
  if ((await currentAccount(ctx.db, caller.issuerId)) && !(await hasTwoFactor(ctx.db, caller.userId)))
    throw new ApiError('bankVerification.two_factor_required');
  const provider = providerOf(ctx, 'start');
  const state = randomBytes(32).toString('base64url');
  let started: Awaited<ReturnType<typeof provider.client.createSession>>;
  let bankName: string;
  try {
    const bank = (await provider.client.listBanks(issuer.country)).find((b) => b.id === input.bankId);
    if (!bank) throw new ApiError('bankVerification.bank_not_found');
    bankName = bank.name;
    started = await provider.client.createSession({
      bankId: bank.id,
      country: issuer.country,
      redirectUri: `${ctx.config.publicUrl}${CALLBACK_PATH}`,
      state,
      locale: input.language.slice(0, 2),
    });
  } catch (err) {
    if (!(err instanceof BankProviderError)) throw err;
    log.warn({ step: err.step, status: err.status, providerCode: err.providerCode }, 'bank provider failed');
    throw new ApiError('bankVerification.start_failed');
  }
  const now = ctx.now();
  const ours = now.getTime() + BANK_VERIFICATION_MINUTES * 60_000;
  const row = await insertVerification(ctx.db, {
    issuerId: caller.issuerId,
    userId: caller.userId,
    stateHash: hashState(state),
    provider: provider.name,
    providerSessionId: started.sessionId,
    bankId: input.bankId,
    bankName,
    createdAt: now,
    expiresAt: new Date(Math.min(ours, started.expiresAt.getTime())),
  });
  await auditCaller(ctx.db, 'bank_verification.started', caller, {
    verificationId: row.id,
    bank: input.bankId,
    provider: provider.name,
  });
  return { redirectUrl: started.redirectUrl };
}

type Outcome =
  | { status: 'verified'; account: ReportAccount & { identifier: NonNullable<ReportAccount['identifier']> } }
  | { status: 'failed'; reason: BankVerificationFailureReason };

interface Decided {
  outcome: Outcome;
  reportId: string | null;
  report: unknown;
}

/**
 * Reads the session's result from the provider, server-side, and decides (issue #13): the holder must
 * be the issuer, the account one we can pay to. A provider that cannot answer leaves the attempt open
 * (502 `bankVerification.result_unavailable`), so the same callback can be tried again.
 */
async function decide(
  provider: BankProvider,
  row: BankVerificationRow,
  issuer: NonNullable<Awaited<ReturnType<typeof issuerIdentity>>>,
): Promise<Decided> {
  try {
    const session = await provider.client.getSession(row.providerSessionId);
    const failed = (reason: BankVerificationFailureReason): Decided => ({
      outcome: { status: 'failed', reason },
      reportId: null,
      report: null,
    });
    if (session.status === 'cancelled') return failed('cancelled');
    if (session.status === 'expired') return failed('expired');
    if (session.status === 'failed') return failed('provider_error');
    if (session.status === 'pending' || !session.reportId)
      throw new ApiError('bankVerification.result_unavailable');
    const report = await provider.client.getReport(session.reportId);
    const base = { reportId: report.id, report: report.raw };
    // A report of another session is not this attempt's result, whatever the provider says.
    if (report.sessionId !== row.providerSessionId)
      return { ...base, outcome: { status: 'failed', reason: 'provider_error' } };
    const account = report.accounts[0];
    if (!account) return { ...base, outcome: { status: 'failed', reason: 'provider_error' } };
    if (!holderIsIssuer(account.holders, issuer))
      return { ...base, outcome: { status: 'failed', reason: 'holder_mismatch' } };
    if (!account.identifier || !isPayableTo(issuer.country, account.identifier))
      return { ...base, outcome: { status: 'failed', reason: 'account_not_payable' } };
    return {
      ...base,
      outcome: { status: 'verified', account: { ...account, identifier: account.identifier } },
    };
  } catch (err) {
    if (err instanceof BankProviderError) throw new ApiError('bankVerification.result_unavailable');
    throw err;
  }
}

async function outcomeOf(db: Db, row: BankVerificationRow): Promise<CompleteBankVerificationResponse> {
  if (row.status === 'verified') {
    const account = await accountOfVerification(db, row.id);
    return { status: 'verified', reason: null, account: account ? accountView(account) : null };
  }
  if (row.status === 'confirming') {
    const account = await accountOfVerification(db, row.id);
    const current = await currentAccount(db, row.issuerId);
    return {
      status: 'confirmation_required',
      reason: null,
      account: account ? accountView(account) : null,
      ...(current ? { replaces: accountView(current) } : {}),
    };
  }
  return {
    status: 'failed',
    reason: (row.reason as BankVerificationFailureReason | null) ?? 'provider_error',
    account: null,
  };
}

/**
 * Closes the attempt with its outcome in one transaction: the row leaves 'started' (or, when the other
 * path got there first, nothing is written and the stored outcome is answered). On success the account
 * is stored as the issuer's current one, with an audit row and a message to the issuer, when the
 * issuer had none or had this same account; an account other than the current one is stored
 * unconfirmed and the attempt waits in 'confirming' for the user's two-factor code
 * (`confirmBankAccountChange`), or fails with `two_factor_required` when the user has no two-factor.
 */
async function close(
  ctx: AppContext,
  row: BankVerificationRow,
  decided: Decided,
  by: 'callback' | 'webhook',
  ip: string | null,
): Promise<CompleteBankVerificationResponse> {
  const issuer = await issuerOf(ctx.db, row.issuerId);
  const now = ctx.now();
  const done = await ctx.db.transaction(async (tx) => {
    const who = { userId: row.userId, issuerId: row.issuerId, ip };
    const base = { completedBy: by, reportId: decided.reportId, report: decided.report, completedAt: now };
    if (decided.outcome.status === 'failed') {
      if (
        !(await closeVerification(tx, row.id, { ...base, status: 'failed', reason: decided.outcome.reason }))
      )
        return false;
      await audit(tx, 'bank_verification.failed', {
        ...who,
        details: { verificationId: row.id, reason: decided.outcome.reason, by, bank: row.bankId },
      });
      return true;
    }
    const { identifier, holders, currency } = decided.outcome.account;
    const before = await currentAccount(tx, row.issuerId);
    const masked = maskAccount(identifier);
    const account = accountColumns(row, identifier, {
      holderName: holders[0]?.name ?? issuer.name,
      currency,
      reportId: decided.reportId ?? '',
      at: now,
    });
    const sameAccount = before ? accountKey(identifier) === accountKeyOf(before) : null;
    if (before && !sameAccount) {
      // Another account than the one payouts go to: it waits for the user's two-factor code. A user
      // without two-factor (turned off since the start) cannot confirm: refused, nothing stored.
      if (!(await hasTwoFactor(tx, row.userId))) {
        const reason = 'two_factor_required' as const;
        if (!(await closeVerification(tx, row.id, { ...base, status: 'failed', reason }))) return false;
        await audit(tx, 'bank_verification.failed', {
          ...who,
          details: { verificationId: row.id, reason, by, bank: row.bankId, account: masked },
        });
        return true;
      }
      if (!(await closeVerification(tx, row.id, { ...base, status: 'confirming', reason: null })))
        return false;
      await storeUnconfirmedAccount(tx, account);
      await audit(tx, 'bank_verification.confirmation_required', {
        ...who,
        details: { verificationId: row.id, by, bank: row.bankId, account: masked, current: before.masked },
      });
      return true;
    }
    if (!(await closeVerification(tx, row.id, { ...base, status: 'verified', reason: null }))) return false;
    await storeVerifiedAccount(tx, account);
    // Masked only: the audit log never carries a full account number (domain note §3).
    await audit(tx, 'bank_verification.verified', {
      ...who,
      details: {
        verificationId: row.id,
        by,
        bank: row.bankId,
        account: masked,
        reportId: decided.reportId,
        replaced: before ? before.masked : null,
        sameAccount,
      },
    });
    await insertMessage(tx, {
      issuerId: row.issuerId,
      ...noticeColumns(
        { code: 'bankAccountVerified', params: { account: masked, bank: row.bankName } },
        localeOf(issuer.country),
      ),
      date: now,
    });
    return true;
  });
  const fresh = await findVerification(ctx.db, row.id);
  if (!fresh) throw new ApiError('bankVerification.not_found');
  if (!done)
    await audit(ctx.db, 'bank_verification.replayed', {
      userId: row.userId,
      issuerId: row.issuerId,
      ip,
      details: { verificationId: row.id, by, closedBy: fresh.completedBy },
    });
  return outcomeOf(ctx.db, fresh);
}

/** The stored columns of an account a verification proved (numbers in full; `masked` for display). */
function accountColumns(
  row: Pick<BankVerificationRow, 'id' | 'issuerId' | 'userId' | 'bankName' | 'provider'>,
  identifier: AccountIdentifier,
  found: { holderName: string; currency: string | null; reportId: string; at: Date },
) {
  return {
    issuerId: row.issuerId,
    verificationId: row.id,
    kind: identifier.kind,
    clearingNumber: identifier.kind === 'se-bban' ? identifier.clearing : null,
    accountNumber: identifier.kind === 'se-bban' ? identifier.account : null,
    bankgiro: identifier.kind === 'bankgiro' ? identifier.number : null,
    iban: identifier.kind === 'iban' ? identifier.iban.replace(/\s+/g, '') : null,
    bic: identifier.kind === 'iban' ? (identifier.bic ?? null) : null,
    currency: found.currency,
    holderName: found.holderName,
    bankName: row.bankName,
    masked: maskAccount(identifier),
    provider: row.provider,
    reportId: found.reportId,
    verifiedByUserId: row.userId,
    verifiedAt: found.at,
  };
}

/**
 * Demo data (db/seed/demo.ts): an account the issuer verified earlier at the sandbox provider, stored
 * as that finished verification would have stored it, so that a verified demo issuer has an account
 * its payouts go to.
 */
export async function storeDemoVerifiedAccount(
  tx: Tx,
  input: {
    issuerId: string;
    userId: string;
    bankId: string;
    bankName: string;
    identifier: AccountIdentifier;
    holderName: string;
    currency: string;
    at: Date;
  },
): Promise<void> {
  const started = await insertVerification(tx, {
    issuerId: input.issuerId,
    userId: input.userId,
    stateHash: hashState(randomBytes(32).toString('base64url')),
    provider: 'sandbox',
    providerSessionId: `demo-${input.issuerId}`,
    bankId: input.bankId,
    bankName: input.bankName,
    createdAt: input.at,
    expiresAt: input.at,
  });
  const reportId = `demo-${input.issuerId}`;
  await closeVerification(tx, started.id, {
    status: 'verified',
    reason: null,
    completedBy: 'callback',
    reportId,
    report: null,
    completedAt: input.at,
  });
  await storeVerifiedAccount(tx, accountColumns(started, input.identifier, { ...input, reportId }));
}

function accountKeyOf(row: VerifiedAccountRow): string {
  if (row.kind === 'iban') return accountKey({ kind: 'iban', iban: row.iban ?? '' });
  if (row.kind === 'bankgiro') return accountKey({ kind: 'bankgiro', number: row.bankgiro ?? '' });
  return accountKey({
    kind: 'se-bban',
    clearing: row.clearingNumber ?? '',
    account: row.accountNumber ?? '',
  });
}

/**
 * The browser came back from the provider (the callback). The state must be one the caller started;
 * an unknown or another user's state answers 404 `bankVerification.not_found`, the same answer, and is
 * logged; a state already closed answers its stored outcome and changes nothing; an expired one closes
 * as 'expired' without asking the provider.
 */
export async function completeBankVerification(
  ctx: AppContext,
  caller: Caller,
  query: CompleteBankVerificationBody,
): Promise<CompleteBankVerificationResponse> {
  const row = await findVerificationByState(ctx.db, hashState(query.state));
  const reject = async (reason: string, verificationId?: string) => {
    await auditCaller(ctx.db, 'bank_verification.rejected', caller, {
      reason,
      by: 'callback',
      ...(verificationId ? { verificationId } : {}),
    });
    return new ApiError('bankVerification.not_found');
  };
  if (!row) throw await reject('unknown_state');
  if (row.userId !== caller.userId || row.issuerId !== caller.issuerId)
    throw await reject('foreign_state', row.id);
  if (query.session_id !== undefined && query.session_id !== row.providerSessionId)
    throw await reject('session_mismatch', row.id);
  if (row.status !== 'started') {
    await auditCaller(ctx.db, 'bank_verification.replayed', caller, {
      verificationId: row.id,
      by: 'callback',
      closedBy: row.completedBy,
    });
    return outcomeOf(ctx.db, row);
  }
  return closeStarted(ctx, row, () => providerOf(ctx, 'result'), 'callback', caller.ip);
}

/**
 * Closes a started attempt for the callback or the webhook: one past its time fails as expired, any
 * other as the provider's result decides (`provider` is asked for only then).
 */
async function closeStarted(
  ctx: AppContext,
  row: BankVerificationRow,
  provider: () => BankProvider,
  by: 'callback' | 'webhook',
  ip: string | null,
): Promise<CompleteBankVerificationResponse> {
  if (ctx.now().getTime() >= row.expiresAt.getTime())
    return close(
      ctx,
      row,
      { outcome: { status: 'failed', reason: 'expired' }, reportId: null, report: null },
      by,
      ip,
    );
  const issuer = await issuerOf(ctx.db, row.issuerId);
  return close(ctx, row, await decide(provider(), row, issuer), by, ip);
}

/**
 * The user confirms, with a two-factor code, that the account a verification found replaces the
 * issuer's verified one (docs/INTEGRATIONS.md "Changing the account"). The state must be the
 * caller's own (else 404, logged, as for the callback) and the attempt waiting ('confirming', else
 * 409 `bankVerification.not_confirming`: a second confirmation changes nothing); a wrong or spent
 * code answers 400 `twoFactor.invalid_code`, is logged and counted like other code checks, and
 * changes nothing. Later than `BANK_VERIFICATION_MINUTES` after the verification the change is given
 * up ('failed', `expired`). On success, in one transaction: the code is spent, the new account is the
 * current one, the old one replaced, and the issuer gets a message and the audit log a row.
 */
export async function confirmBankAccountChange(
  ctx: AppContext,
  caller: Caller,
  body: ConfirmBankAccountChangeBody,
): Promise<CompleteBankVerificationResponse> {
  const row = await findVerificationByState(ctx.db, hashState(body.state));
  if (!row || row.userId !== caller.userId || row.issuerId !== caller.issuerId) {
    await auditCaller(ctx.db, 'bank_verification.rejected', caller, {
      reason: row ? 'foreign_state' : 'unknown_state',
      by: 'confirm',
      ...(row ? { verificationId: row.id } : {}),
    });
    throw new ApiError('bankVerification.not_found');
  }
  if (row.status !== 'confirming') throw new ApiError('bankVerification.not_confirming');
  const now = ctx.now();
  const closedAt = row.completedAt ?? row.createdAt;
  if (now.getTime() >= closedAt.getTime() + BANK_VERIFICATION_MINUTES * 60_000) {
    await ctx.db.transaction(async (tx) => {
      if (!(await closeConfirmation(tx, row.id, { status: 'failed', reason: 'expired' }))) return;
      await giveUpAccount(tx, row.id, now);
      await auditCaller(tx, 'bank_verification.failed', caller, {
        verificationId: row.id,
        reason: 'expired',
        by: 'confirm',
        bank: row.bankId,
      });
    });
    const fresh = await findVerification(ctx.db, row.id);
    if (!fresh) throw new ApiError('bankVerification.not_found');
    return outcomeOf(ctx.db, fresh);
  }
  const claim = await claimAccountCheck(ctx.db, ctx.throttle, 'two_factor', caller.userId, now);
  if (claim.wait > 0) throw new ApiError('account.too_many_attempts', { retryAfterSeconds: claim.wait });
  const issuer = await issuerOf(ctx.db, row.issuerId);
  const result = await ctx.db.transaction(async (tx) => {
    if (!(await spendTwoFactorCode(tx, ctx.config.secretKey, caller.userId, body.code, now)))
      return 'invalid_code' as const;
    const before = await currentAccount(tx, row.issuerId);
    if (!(await closeConfirmation(tx, row.id, { status: 'verified', reason: null })))
      throw new ApiError('bankVerification.not_confirming');
    const account = await confirmAccount(tx, row.id, now);
    if (!account) throw new ApiError('bankVerification.not_confirming');
    await auditCaller(tx, 'bank_verification.account_changed', caller, {
      verificationId: row.id,
      bank: row.bankId,
      account: account.masked,
      replaced: before?.masked ?? null,
    });
    await insertMessage(tx, {
      issuerId: row.issuerId,
      ...noticeColumns(
        {
          code: 'bankAccountChanged',
          params: { account: account.masked, bank: account.bankName, previous: before?.masked ?? '' },
        },
        localeOf(issuer.country),
      ),
      date: now,
    });
    return 'confirmed' as const;
  });
  if (result === 'invalid_code') {
    await auditCaller(ctx.db, 'bank_verification.confirm_failed', caller, {
      verificationId: row.id,
      reason: 'invalid_code',
    });
    throw new ApiError('twoFactor.invalid_code');
  }
  await clearAccountChecks(ctx.db, 'two_factor', caller.userId);
  const fresh = await findVerification(ctx.db, row.id);
  if (!fresh) throw new ApiError('bankVerification.not_found');
  return outcomeOf(ctx.db, fresh);
}

/** Checks `t=<unix>,v1=<hex>` against the raw body and the shared secret, within the tolerance. */
export function isWebhookSignatureValid(secret: string, header: string, body: string, now: Date): boolean {
  const parts = Object.fromEntries(
    header.split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()];
    }),
  );
  const t = Number(parts.t);
  const v1 = String(parts.v1 ?? '');
  if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(v1)) return false;
  if (Math.abs(now.getTime() / 1000 - t) > WEBHOOK_TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}

/**
 * The provider's webhook: signed with the shared secret over the raw body. An attempt still open is
 * decided exactly as by the callback; one closed already is left as it is.
 */
export async function receiveBankVerificationWebhook(
  ctx: AppContext,
  input: { rawBody: string; signature: string; sessionId: string; ip: string | null },
): Promise<{ received: true }> {
  const provider = ctx.bankProvider;
  const rejected = async (reason: string, verificationId?: string) =>
    audit(ctx.db, 'bank_verification.rejected', {
      ip: input.ip,
      details: { reason, by: 'webhook', ...(verificationId ? { verificationId } : {}) },
    });
  if (
    !provider ||
    !isWebhookSignatureValid(provider.webhookSecret, input.signature, input.rawBody, ctx.now())
  ) {
    await rejected('signature_invalid');
    throw new ApiError('bankVerification.signature_invalid');
  }
  const row = await findVerificationBySession(ctx.db, provider.name, input.sessionId);
  if (!row) {
    await rejected('unknown_session');
    throw new ApiError('bankVerification.not_found');
  }
  if (row.status !== 'started') {
    await audit(ctx.db, 'bank_verification.replayed', {
      userId: row.userId,
      issuerId: row.issuerId,
      ip: input.ip,
      details: { verificationId: row.id, by: 'webhook', closedBy: row.completedBy },
    });
    return { received: true };
  }
  await closeStarted(ctx, row, () => provider, 'webhook', input.ip);
  return { received: true };
}
