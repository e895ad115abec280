import { TWO_FACTOR_STEP_MAX_ATTEMPTS } from '@portal/contracts';
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import type { Db, Tx } from '../db/client';
import { lockById } from '../db/locks';
import { operatorSessions, operators, sessions, users } from '../db/schema';
import { type AuditEvent, audit } from '../lib/audit';
import { ApiError } from '../lib/errors';
import { burnPasswordCheck, verifyPassword } from '../lib/passwords';
import { unseal } from '../lib/tokens';
import { verifyTotp } from '../lib/totp';
import { createOperatorSession, revokeOperatorSession } from './operator-sessions';
import { createSession, liveSessionOf, revokeSession } from './sessions';
import { claimSignIn, clearFailures, refundAttempt, type ThrottleRealm } from './throttle';

/**
 * Signing in with a password and, for an account with TOTP on, a second step (spec §8), written once for
 * the two kinds of account that sign in: the customers' users (`users`, `sessions`, modules/auth) and our
 * operators (`operators`, `operator_sessions`, modules/backoffice). A kind (CUSTOMER, OPERATOR) names its
 * tables, its throttle realm, its audit events and how the audit log names one of its accounts; the rules
 * are the same: every guess is counted before it is checked (services/throttle.ts), a wrong code is
 * counted on its step (revoked after TWO_FACTOR_STEP_MAX_ATTEMPTS) and a code is never accepted twice.
 */

/** Who is calling: written to the session row and the audit log. */
export interface Client {
  ip: string;
  userAgent?: string;
}

type AccountTable = typeof users | typeof operators;
type StepTable = typeof sessions | typeof operatorSessions;
type AuditFields = Parameters<typeof audit>[2];

/** The kind of account `T` (users or operators) as signing in sees it. */
export interface SignInKind<T extends AccountTable> {
  realm: ThrottleRealm;
  accounts: T;
  /** The table of the kind's sessions and sign-in steps, and its column naming the account. */
  steps: StepTable;
  stepOwner: typeof sessions.userId | typeof operatorSessions.operatorId;
  /** The audit log's column of the account's id. */
  idField: 'userId' | 'operatorId';
  events: Record<'throttled' | 'failed' | 'twoFactorStep' | 'twoFactorFailed' | 'ok', AuditEvent>;
  /** How the audit log names a signed-in account (besides its address). */
  who(account: T['$inferSelect']): AuditFields;
  /** A new full session or sign-in step of the account; its token. */
  createSession(
    db: Db | Tx,
    accountId: string,
    kind: 'session' | 'two_factor_step',
    now: Date,
    client: Client,
  ): Promise<string>;
  revokeSession(db: Db | Tx, sessionId: string, now: Date): Promise<void>;
}

export const CUSTOMER: SignInKind<typeof users> = {
  realm: 'customer',
  accounts: users,
  steps: sessions,
  stepOwner: sessions.userId,
  idField: 'userId',
  events: {
    throttled: 'login.throttled',
    failed: 'login.failed',
    twoFactorStep: 'login.two_factor_step',
    twoFactorFailed: 'login.two_factor_failed',
    ok: 'login.ok',
  },
  who: (user) => ({ userId: user.id, issuerId: user.issuerId }),
  createSession,
  revokeSession,
};

export const OPERATOR: SignInKind<typeof operators> = {
  realm: 'operator',
  accounts: operators,
  steps: operatorSessions,
  stepOwner: operatorSessions.operatorId,
  idField: 'operatorId',
  events: {
    throttled: 'backoffice.login.throttled',
    failed: 'backoffice.login.failed',
    twoFactorStep: 'backoffice.login.two_factor_step',
    twoFactorFailed: 'backoffice.login.two_factor_failed',
    ok: 'backoffice.login.ok',
  },
  who: (operator) => ({ operatorId: operator.id, username: operator.username }),
  createSession: (db, operatorId, kind, now, client) =>
    createOperatorSession(db, operatorId, now, client, kind),
  revokeSession: revokeOperatorSession,
};

/** The account of a username, whatever its case. */
export async function findByUsername<T extends AccountTable>(
  db: Db,
  kind: SignInKind<T>,
  username: string,
): Promise<T['$inferSelect'] | undefined> {
  const table: AccountTable = kind.accounts;
  const [account] = await db
    .select()
    .from(table)
    .where(sql`lower(${table.username}) = ${username.toLowerCase()}`)
    .limit(1);
  return account as T['$inferSelect'] | undefined;
}

/**
 * The password step: the attempt is counted first (so guesses arriving together cannot pass the limit),
 * then the password checked; an unknown or inactive account costs the same hash. A success clears the
 * username's failures and gives back its own row of the address; the account is returned.
 */
export async function checkPassword<T extends AccountTable>(
  ctx: AppContext,
  kind: SignInKind<T>,
  body: { username: string; password: string },
  ip: string,
): Promise<T['$inferSelect']> {
  const { username, password } = body;
  const now = ctx.now();
  const claim = await claimSignIn(ctx.db, ctx.throttle, username, ip, now, kind.realm);
  if (claim.wait > 0) {
    await audit(ctx.db, kind.events.throttled, { username, ip });
    throw new ApiError('auth.too_many_attempts', { retryAfterSeconds: claim.wait });
  }
  const account = await findByUsername(ctx.db, kind, username);
  const ok = account?.active ? await verifyPassword(account.passwordHash, password) : false;
  if (!account?.active) await burnPasswordCheck(password);
  if (!account || !ok) {
    // The claimed rows stay: they are this failure.
    await audit(ctx.db, kind.events.failed, { [kind.idField]: account?.id, username, ip });
    throw new ApiError('auth.invalid_credentials');
  }
  await refundAttempt(ctx.db, claim);
  await clearFailures(ctx.db, username, ctx.throttle, now, kind.realm);
  return account;
}

/** After the password: a sign-in step's token when the account has TOTP on, else null. */
export async function startSecondStep<T extends AccountTable>(
  ctx: AppContext,
  kind: SignInKind<T>,
  account: T['$inferSelect'],
  client: Client,
): Promise<string | null> {
  if (account.totpSecret === null) return null;
  const token = await kind.createSession(ctx.db, account.id, 'two_factor_step', ctx.now(), client);
  await audit(ctx.db, kind.events.twoFactorStep, { ...kind.who(account), ip: client.ip });
  return token;
}

/** A full session of an account that passed every step; its token. */
export async function openSession<T extends AccountTable>(
  ctx: AppContext,
  kind: SignInKind<T>,
  account: T['$inferSelect'],
  client: Client,
): Promise<string> {
  const token = await kind.createSession(ctx.db, account.id, 'session', ctx.now(), client);
  await audit(ctx.db, kind.events.ok, { ...kind.who(account), ip: client.ip });
  return token;
}

/** The live sign-in step of `token`, locked until the transaction ends. */
async function lockStep(
  tx: Tx,
  { steps, stepOwner }: Pick<SignInKind<AccountTable>, 'steps' | 'stepOwner'>,
  token: string,
  now: Date,
) {
  const [step] = await tx
    .select({ id: steps.id, failedAttempts: steps.failedAttempts, accountId: stepOwner })
    .from(steps)
    .where(liveSessionOf(steps, token, now, 'two_factor_step'))
    .for('update')
    .limit(1);
  return step;
}

/**
 * The second step: the first step's token and a code. A right code spends the step and opens a full
 * session (the account is returned with the code's time step as its last); a wrong one is counted on
 * the step, which ends after TWO_FACTOR_STEP_MAX_ATTEMPTS.
 */
export async function completeSecondStep<T extends AccountTable>(
  ctx: AppContext,
  kind: SignInKind<T>,
  body: { token: string; code: string },
  client: Client,
): Promise<{ token: string; account: T['$inferSelect'] }> {
  const now = ctx.now();
  const { ip } = client;
  const accounts: AccountTable = kind.accounts;
  const result = await ctx.db.transaction(async (tx) => {
    const step = await lockStep(tx, kind, body.token, now);
    if (!step) throw new ApiError('auth.two_factor_token_expired');
    const account = (await lockById(tx, accounts, step.accountId)) as T['$inferSelect'] | undefined;
    if (!account?.active || account.totpSecret === null) throw new ApiError('auth.two_factor_token_expired');
    const secret = unseal(ctx.config.secretKey, account.totpSecret);
    const matched = verifyTotp(secret, body.code, now.getTime(), account.totpLastStep);
    if (matched === null) {
      const attempts = step.failedAttempts + 1;
      const revokedAt = attempts >= TWO_FACTOR_STEP_MAX_ATTEMPTS ? now : null;
      await tx
        .update(kind.steps)
        .set({ failedAttempts: attempts, revokedAt })
        .where(eq(kind.steps.id, step.id));
      await audit(tx, kind.events.twoFactorFailed, { ...kind.who(account), ip, details: { attempts } });
      // The wrong code is remembered even though the answer is an error: commit, then answer.
      return { error: new ApiError('auth.invalid_code') } as const;
    }
    await tx.update(accounts).set({ totpLastStep: matched }).where(eq(accounts.id, account.id));
    await kind.revokeSession(tx, step.id, now);
    const token = await kind.createSession(tx, account.id, 'session', now, client);
    await audit(tx, kind.events.ok, { ...kind.who(account), ip, details: { twoFactor: true } });
    return { token, account: { ...account, totpLastStep: matched } };
  });
  if ('error' in result) throw result.error;
  return result;
}
