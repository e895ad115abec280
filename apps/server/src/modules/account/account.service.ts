import type { Issuer, saveIssuerInfoBodySchema } from '@portal/contracts';
import type { Locale } from '@portal/i18n';
import QRCode from 'qrcode';
import type { z } from 'zod';
import type { AppContext, AuthContext } from '../../context';
import { audit } from '../../lib/audit';
import { ApiError } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { seal, unseal } from '../../lib/tokens';
import { newTotpSecret, otpauthUri, verifyTotp } from '../../lib/totp';
import { revokeUserSessions } from '../../services/sessions';
import { claimAccountCheck, clearAccountChecks } from '../../services/throttle';
import { buildSelf, loadUser, toIssuer } from '../../services/users';
import * as repo from './account.repository';

/**
 * The signed-in user's own account (spec §2): the self answer, the password, the company details and
 * two-factor. `ip` is the caller's address, written to the audit log.
 */

/** The name authenticator apps show next to the code. */
const TOTP_ISSUER = 'Kundportalen';

/** `getSelf`, worded in `language` (the request's, else the user's stored one). */
export function getSelf(ctx: AppContext, userId: string, language: (stored: Locale | null) => Locale) {
  return buildSelf(ctx.db, userId, language);
}

/**
 * `changePassword`: the old password checked (the checks counted before, so guesses arriving together
 * cannot pass the limit); the other sessions end and open reset links are spent with the change.
 */
export async function changePassword(
  ctx: AppContext,
  auth: AuthContext,
  body: { old: string; new: string },
  ip: string,
): Promise<void> {
  const now = ctx.now();
  const user = await loadUser(ctx.db, auth.userId);
  // Counted before the old password is checked, so guesses arriving together cannot pass the limit.
  const claim = await claimAccountCheck(ctx.db, ctx.throttle, 'password', user.id, now);
  if (claim.wait > 0) throw new ApiError('account.too_many_attempts', { retryAfterSeconds: claim.wait });
  if (!(await verifyPassword(user.passwordHash, body.old))) {
    await audit(ctx.db, 'password.change_failed', { userId: user.id, issuerId: user.issuerId, ip });
    throw new ApiError('account.wrong_old_password');
  }
  await clearAccountChecks(ctx.db, 'password', user.id);
  const passwordHash = await hashPassword(body.new);
  await ctx.db.transaction(async (tx) => {
    await repo.setPassword(tx, user.id, passwordHash, now);
    await revokeUserSessions(tx, user.id, now, auth.sessionId);
    // A reset link asked for before the change must not undo it.
    await repo.spendPasswordResets(tx, user.id, now);
    await audit(tx, 'password.changed', { userId: user.id, issuerId: user.issuerId, ip });
  });
}

/** `saveIssuerInfo`: the caller's company details (the organisation number cannot change). */
export async function saveIssuerInfo(
  ctx: AppContext,
  auth: AuthContext,
  b: z.output<typeof saveIssuerInfoBodySchema>,
  ip: string,
): Promise<Issuer> {
  const saved = await ctx.db.transaction(async (tx) => {
    const row = await repo.updateIssuer(tx, auth.issuerId, {
      name: b.name,
      email: b.email,
      vat: b.VAT,
      telephone: b.telephone,
      address1: b.address,
      city: b.city,
      zipcode: b.zipcode,
    });
    if (!row) throw new ApiError('issuer.invalid');
    await audit(tx, 'issuer.updated', { userId: auth.userId, issuerId: auth.issuerId, ip });
    return row;
  });
  return toIssuer(saved);
}

/** `enableTwoFactor`: a new secret, kept sealed as pending until a code from the app confirms it. */
export async function enableTwoFactor(ctx: AppContext, auth: AuthContext, ip: string) {
  const user = await loadUser(ctx.db, auth.userId);
  if (user.totpSecret !== null) throw new ApiError('twoFactor.already_enabled');
  const secret = newTotpSecret();
  await repo.setTwoFactorSecrets(ctx.db, user.id, { totpPendingSecret: seal(ctx.config.secretKey, secret) });
  await audit(ctx.db, 'two_factor.setup_started', { userId: user.id, issuerId: user.issuerId, ip });
  const qrCodeUrl = await QRCode.toDataURL(otpauthUri(secret, user.username, TOTP_ISSUER), {
    errorCorrectionLevel: 'M',
    margin: 2,
    width: 220,
  });
  return { qrCodeUrl, secret };
}

/** `cancelTwoFactorSetup`: the pending secret is forgotten. */
export async function cancelTwoFactorSetup(ctx: AppContext, auth: AuthContext, ip: string): Promise<void> {
  await repo.setTwoFactorSecrets(ctx.db, auth.userId, { totpPendingSecret: null });
  await audit(ctx.db, 'two_factor.setup_cancelled', { userId: auth.userId, issuerId: auth.issuerId, ip });
}

/** `verifyTwoFactor`: a code of the pending secret turns two-factor on. */
export async function verifyTwoFactor(
  ctx: AppContext,
  auth: AuthContext,
  code: string,
  ip: string,
): Promise<void> {
  const user = await loadUser(ctx.db, auth.userId);
  if (user.totpSecret !== null) throw new ApiError('twoFactor.already_enabled');
  if (user.totpPendingSecret === null) throw new ApiError('twoFactor.not_in_setup');
  const secret = unseal(ctx.config.secretKey, user.totpPendingSecret);
  const step = verifyTotp(secret, code, ctx.now().getTime(), null);
  if (step === null) throw new ApiError('twoFactor.invalid_code');
  await repo.setTwoFactorSecrets(ctx.db, user.id, {
    totpSecret: user.totpPendingSecret,
    totpPendingSecret: null,
    totpLastStep: step,
  });
  await audit(ctx.db, 'two_factor.enabled', { userId: user.id, issuerId: user.issuerId, ip });
}

/**
 * `disableTwoFactor` with a current code: refused when the account must use two-factor; wrong codes
 * are counted like the old password of a password change.
 */
export async function disableTwoFactor(
  ctx: AppContext,
  auth: AuthContext,
  code: string,
  ip: string,
): Promise<void> {
  const now = ctx.now();
  const user = await loadUser(ctx.db, auth.userId);
  if (user.totpSecret === null) throw new ApiError('twoFactor.not_enabled');
  if (user.force2fa) throw new ApiError('twoFactor.required');
  // Counted before the code is checked, like the old password of a password change.
  const claim = await claimAccountCheck(ctx.db, ctx.throttle, 'two_factor', user.id, now);
  if (claim.wait > 0) throw new ApiError('account.too_many_attempts', { retryAfterSeconds: claim.wait });
  const done = await ctx.db.transaction(async (tx) => {
    // Locked, so two requests cannot both spend the same code (the replay check of the sign-in).
    const row = await repo.lockUser(tx, user.id);
    if (!row || row.totpSecret === null) throw new ApiError('twoFactor.not_enabled');
    const secret = unseal(ctx.config.secretKey, row.totpSecret);
    if (verifyTotp(secret, code, now.getTime(), row.totpLastStep) === null) return false;
    await repo.setTwoFactorSecrets(tx, user.id, {
      totpSecret: null,
      totpPendingSecret: null,
      totpLastStep: null,
    });
    await audit(tx, 'two_factor.disabled', { userId: user.id, issuerId: user.issuerId, ip });
    return true;
  });
  if (!done) {
    await audit(ctx.db, 'two_factor.disable_failed', { userId: user.id, issuerId: user.issuerId, ip });
    throw new ApiError('twoFactor.invalid_code');
  }
  await clearAccountChecks(ctx.db, 'two_factor', user.id);
}
