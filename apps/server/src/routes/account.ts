import {
  changePasswordBodySchema,
  disableTwoFactorBodySchema,
  enableTwoFactorResponseSchema,
  getSelfResponseSchema,
  okResponseSchema,
  saveIssuerInfoBodySchema,
  saveIssuerInfoResponseSchema,
  verifyTwoFactorBodySchema,
} from '@portal/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import QRCode from 'qrcode';
import { issuers, passwordResets, users } from '../db/schema';
import { audit } from '../lib/audit';
import { ApiError } from '../lib/errors';
import { hashPassword, verifyPassword } from '../lib/passwords';
import { seal, unseal } from '../lib/tokens';
import { newTotpSecret, otpauthUri, verifyTotp } from '../lib/totp';
import { readerLanguage } from '../services/notices';
import { revokeUserSessions } from '../services/sessions';
import { claimAccountCheck, clearAccountChecks } from '../services/throttle';
import { buildSelf, loadUser, toIssuer } from '../services/users';
import { errorResponses, routeOf, signedIn } from './define';

/** The name authenticator apps show next to the code. */
const TOTP_ISSUER = 'Kundportalen';

export async function accountRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;

  app.route({
    ...routeOf('getSelf'),
    schema: {
      tags: ['account'],
      summary: 'The signed-in user with abilities, issuer, group, tax rates, currencies and messages',
      response: { 200: getSelfResponseSchema, ...errorResponses },
    },
    handler: async (request) =>
      buildSelf(ctx.db, signedIn(request).userId, (stored) => readerLanguage(request, stored)),
  });

  app.route({
    ...routeOf('changePassword', { validationCode: 'account.invalid_new_password' }),
    schema: {
      tags: ['account'],
      summary: 'Change the password (412 wrong old, 400 invalid new); ends the other sessions',
      body: changePasswordBodySchema,
      response: { 200: okResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const auth = signedIn(request);
      const now = ctx.now();
      const user = await loadUser(ctx.db, auth.userId);
      // Counted before the old password is checked, so guesses arriving together cannot pass the limit.
      const claim = await claimAccountCheck(ctx.db, ctx.throttle, 'password', user.id, now);
      if (claim.wait > 0) throw new ApiError('account.too_many_attempts', { retryAfterSeconds: claim.wait });
      if (!(await verifyPassword(user.passwordHash, request.body.old))) {
        await audit(ctx.db, 'password.change_failed', {
          userId: user.id,
          issuerId: user.issuerId,
          ip: request.ip,
        });
        throw new ApiError('account.wrong_old_password');
      }
      await clearAccountChecks(ctx.db, 'password', user.id);
      const passwordHash = await hashPassword(request.body.new);
      await ctx.db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash, lastPasswordChange: now }).where(eq(users.id, user.id));
        await revokeUserSessions(tx, user.id, now, auth.sessionId);
        // A reset link asked for before the change must not undo it.
        await tx
          .update(passwordResets)
          .set({ usedAt: now })
          .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
        await audit(tx, 'password.changed', { userId: user.id, issuerId: user.issuerId, ip: request.ip });
      });
      return { ok: true as const };
    },
  });

  app.route({
    ...routeOf('saveIssuerInfo', { validationCode: 'issuer.invalid' }),
    schema: {
      tags: ['account'],
      summary: "Save the caller's company details (the organisation number cannot change)",
      body: saveIssuerInfoBodySchema,
      response: { 200: saveIssuerInfoResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const auth = signedIn(request);
      const b = request.body;
      const saved = await ctx.db.transaction(async (tx) => {
        const [row] = await tx
          .update(issuers)
          .set({
            name: b.name,
            email: b.email,
            vat: b.VAT,
            telephone: b.telephone,
            address1: b.address,
            city: b.city,
            zipcode: b.zipcode,
          })
          .where(eq(issuers.id, auth.issuerId))
          .returning();
        if (!row) throw new ApiError('issuer.invalid');
        await audit(tx, 'issuer.updated', { userId: auth.userId, issuerId: auth.issuerId, ip: request.ip });
        return row;
      });
      return toIssuer(saved);
    },
  });

  app.route({
    ...routeOf('enableTwoFactor'),
    schema: {
      tags: ['two-factor'],
      summary: 'Start two-factor setup: a new secret, its QR image (data URL) and the secret for typing',
      response: { 200: enableTwoFactorResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const auth = signedIn(request);
      const user = await loadUser(ctx.db, auth.userId);
      if (user.totpSecret !== null) throw new ApiError('twoFactor.already_enabled');
      const secret = newTotpSecret();
      await ctx.db
        .update(users)
        .set({ totpPendingSecret: seal(ctx.config.secretKey, secret) })
        .where(eq(users.id, user.id));
      await audit(ctx.db, 'two_factor.setup_started', {
        userId: user.id,
        issuerId: user.issuerId,
        ip: request.ip,
      });
      const qrCodeUrl = await QRCode.toDataURL(otpauthUri(secret, user.username, TOTP_ISSUER), {
        errorCorrectionLevel: 'M',
        margin: 2,
        width: 220,
      });
      return { qrCodeUrl, secret };
    },
  });

  app.route({
    ...routeOf('cancelTwoFactorSetup'),
    schema: {
      tags: ['two-factor'],
      summary: 'Cancel a two-factor setup in progress',
      response: { 200: okResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const auth = signedIn(request);
      await ctx.db.update(users).set({ totpPendingSecret: null }).where(eq(users.id, auth.userId));
      await audit(ctx.db, 'two_factor.setup_cancelled', {
        userId: auth.userId,
        issuerId: auth.issuerId,
        ip: request.ip,
      });
      return { ok: true as const };
    },
  });

  app.route({
    ...routeOf('verifyTwoFactor', { validationCode: 'twoFactor.invalid_code' }),
    schema: {
      tags: ['two-factor'],
      summary: 'Finish setup with a code from the app: two-factor is on from now',
      body: verifyTwoFactorBodySchema,
      response: { 200: okResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const auth = signedIn(request);
      const user = await loadUser(ctx.db, auth.userId);
      if (user.totpSecret !== null) throw new ApiError('twoFactor.already_enabled');
      if (user.totpPendingSecret === null) throw new ApiError('twoFactor.not_in_setup');
      const secret = unseal(ctx.config.secretKey, user.totpPendingSecret);
      const step = verifyTotp(secret, request.body.code, ctx.now().getTime(), null);
      if (step === null) throw new ApiError('twoFactor.invalid_code');
      await ctx.db
        .update(users)
        .set({ totpSecret: user.totpPendingSecret, totpPendingSecret: null, totpLastStep: step })
        .where(eq(users.id, user.id));
      await audit(ctx.db, 'two_factor.enabled', { userId: user.id, issuerId: user.issuerId, ip: request.ip });
      return { ok: true as const };
    },
  });

  app.route({
    ...routeOf('disableTwoFactor', { validationCode: 'twoFactor.invalid_code' }),
    schema: {
      tags: ['two-factor'],
      summary:
        'Turn two-factor off with a current code (refused when the account must use it; wrong codes are throttled)',
      body: disableTwoFactorBodySchema,
      response: { 200: okResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const auth = signedIn(request);
      const now = ctx.now();
      const user = await loadUser(ctx.db, auth.userId);
      if (user.totpSecret === null) throw new ApiError('twoFactor.not_enabled');
      if (user.force2fa) throw new ApiError('twoFactor.required');
      // Counted before the code is checked, like the old password of a password change.
      const claim = await claimAccountCheck(ctx.db, ctx.throttle, 'two_factor', user.id, now);
      if (claim.wait > 0) throw new ApiError('account.too_many_attempts', { retryAfterSeconds: claim.wait });
      const done = await ctx.db.transaction(async (tx) => {
        // Locked, so two requests cannot both spend the same code (the replay check of the sign-in).
        const [row] = await tx.select().from(users).where(eq(users.id, user.id)).for('update').limit(1);
        if (!row || row.totpSecret === null) throw new ApiError('twoFactor.not_enabled');
        const secret = unseal(ctx.config.secretKey, row.totpSecret);
        if (verifyTotp(secret, request.body.code, now.getTime(), row.totpLastStep) === null) return false;
        await tx
          .update(users)
          .set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null })
          .where(eq(users.id, user.id));
        await audit(tx, 'two_factor.disabled', { userId: user.id, issuerId: user.issuerId, ip: request.ip });
        return true;
      });
      if (!done) {
        await audit(ctx.db, 'two_factor.disable_failed', {
          userId: user.id,
          issuerId: user.issuerId,
          ip: request.ip,
        });
        throw new ApiError('twoFactor.invalid_code');
      }
      await clearAccountChecks(ctx.db, 'two_factor', user.id);
      return { ok: true as const };
    },
  });
}
