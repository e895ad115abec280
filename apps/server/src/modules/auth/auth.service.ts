import {
  type login2faBodySchema,
  PASSWORD_RESET_MAX_PER_WINDOW,
  PASSWORD_RESET_MINUTES,
} from '@portal/contracts';
import { translate } from '@portal/i18n';
import type { z } from 'zod';
import type { AppContext, AuthContext } from '../../context';
import { audit } from '../../lib/audit';
import { ApiError } from '../../lib/errors';
import { hashPassword } from '../../lib/passwords';
import { hashToken, newToken } from '../../lib/tokens';
import { revokeSession, revokeUserSessions } from '../../services/sessions';
import {
  type Client,
  CUSTOMER,
  checkPassword,
  completeSecondStep,
  findByUsername,
  openSession,
  startSecondStep,
} from '../../services/sign-in';
import { claimResetLinkUse, claimSignIn, refundAttempt } from '../../services/throttle';
import { toGroup, toUser } from '../../services/users';
import * as repo from './auth.repository';

/**
 * Signing in and out (spec §8): the login group's branding, the password and two-factor steps, and the
 * password reset links. Every attempt that guesses is counted before it is checked (services/throttle.ts).
 */

/** `getGroup`: a login group's branding. */
export async function getGroup(ctx: AppContext, groupId: string) {
  const group = await repo.findGroup(ctx.db, groupId);
  if (!group) throw new ApiError('group.not_found');
  return toGroup(group);
}

/** `login`: a session, or a first step when the user has two-factor on. */
export async function login(ctx: AppContext, body: { username: string; password: string }, client: Client) {
  const user = await checkPassword(ctx, CUSTOMER, body, client.ip);
  const step = await startSecondStep(ctx, CUSTOMER, user, client);
  if (step !== null) return { requireTwoFactor: true, token: step };
  const token = await openSession(ctx, CUSTOMER, user, client);
  return { requireTwoFactor: false, token, user: toUser(user) };
}

/** `login2fa`: the first step's token and a code (services/sign-in.ts). */
export async function login2fa(ctx: AppContext, body: z.output<typeof login2faBodySchema>, client: Client) {
  const { token, account } = await completeSecondStep(ctx, CUSTOMER, body, client);
  return { token, user: toUser(account) };
}

/** `logout`: this session ends. */
export async function logout(ctx: AppContext, auth: AuthContext, ip: string): Promise<void> {
  await revokeSession(ctx.db, auth.sessionId, ctx.now());
  await audit(ctx.db, 'logout', { userId: auth.userId, issuerId: auth.issuerId, ip });
}

/**
 * `requestPasswordReset`: a single-use link mailed to the user (404 for an unknown username, spec §8,
 * so guessing names is throttled like guessing passwords). `log` gets the link when mail goes to the
 * outbox, where it would otherwise be lost.
 */
export async function requestPasswordReset(
  ctx: AppContext,
  username: string,
  ip: string,
  log: (line: string) => void,
): Promise<void> {
  const now = ctx.now();
  const claim = await claimSignIn(ctx.db, ctx.throttle, username, ip, now);
  if (claim.wait > 0) throw new ApiError('auth.too_many_attempts', { retryAfterSeconds: claim.wait });
  const user = await findByUsername(ctx.db, CUSTOMER, username);
  // An unknown name keeps its claimed rows as a failure; a known one is not a guess.
  if (!user?.active) throw new ApiError('password.user_not_found');
  await refundAttempt(ctx.db, claim);
  // At most a few links per user and window, so nobody can flood a user's inbox with reset mails.
  const since = new Date(now.getTime() - ctx.throttle.windowMinutes * 60_000);
  if ((await repo.countResetsSince(ctx.db, user.id, since)) >= PASSWORD_RESET_MAX_PER_WINDOW)
    throw new ApiError('auth.too_many_attempts', { retryAfterSeconds: ctx.throttle.windowMinutes * 60 });
  const token = newToken();
  await repo.insertPasswordReset(ctx.db, {
    tokenHash: hashToken(token),
    userId: user.id,
    createdAt: now,
    expiresAt: new Date(now.getTime() + PASSWORD_RESET_MINUTES * 60_000),
  });
  await audit(ctx.db, 'password.reset_requested', { userId: user.id, issuerId: user.issuerId, ip });
  const link = `${ctx.config.publicUrl}/password/reset/${token}`;
  const locale = user.language ?? 'sv-SE';
  const values = {
    firstName: user.firstName,
    username: user.username,
    link,
    minutes: PASSWORD_RESET_MINUTES,
  };
  await ctx.mailer.send({
    to: user.email,
    subject: translate(locale, 'email', 'passwordReset.subject', values),
    text: translate(locale, 'email', 'passwordReset.body', values),
  });
  // Without an SMTP server the link would be lost: a developer reads it from the log instead.
  if (ctx.mailer.kind === 'outbox') log(`password reset link: ${link} `);
}

/** `checkPasswordReset`: whether a reset link can still be used. */
export async function checkPasswordReset(ctx: AppContext, token: string): Promise<void> {
  if (!(await repo.hasOpenReset(ctx.db, hashToken(token), ctx.now())))
    throw new ApiError('password.reset_not_found');
}

/** `resetPassword`: a new password through a reset link; every session of the user ends. */
export async function resetPassword(
  ctx: AppContext,
  body: { hash: string; new: string },
  ip: string,
): Promise<void> {
  const now = ctx.now();
  // Counted before any work, per address: a flood of made-up links costs a query each, no hash.
  const claim = await claimResetLinkUse(ctx.db, ctx.throttle, ip, now);
  if (claim.wait > 0) throw new ApiError('auth.too_many_attempts', { retryAfterSeconds: claim.wait });
  const tokenHash = hashToken(body.hash);
  // The link first (an index probe), the argon2 hash only for a link that exists.
  if (!(await repo.hasOpenReset(ctx.db, tokenHash, now))) throw new ApiError('password.reset_not_found');
  const passwordHash = await hashPassword(body.new);
  await ctx.db.transaction(async (tx) => {
    // Again under a lock: another request may have used the link while this one hashed.
    const reset = await repo.lockOpenReset(tx, tokenHash, now);
    if (!reset) throw new ApiError('password.reset_not_found');
    // This link and every other open link of the user end here.
    await repo.spendUserResets(tx, reset.userId, now);
    await repo.setPassword(tx, reset.userId, passwordHash, now);
    await revokeUserSessions(tx, reset.userId, now);
    await audit(tx, 'password.reset', { userId: reset.userId, ip });
  });
  // A link that worked was no guess: it does not count against the address.
  await refundAttempt(ctx.db, claim);
}
