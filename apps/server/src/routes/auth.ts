import {
  checkPasswordResetParamsSchema,
  getGroupQuerySchema,
  getGroupResponseSchema,
  login2faBodySchema,
  login2faResponseSchema,
  loginBodySchema,
  loginResponseSchema,
  okResponseSchema,
  PASSWORD_RESET_MAX_PER_WINDOW,
  PASSWORD_RESET_MINUTES,
  requestPasswordResetBodySchema,
  resetPasswordBodySchema,
  TWO_FACTOR_STEP_MAX_ATTEMPTS,
} from '@portal/contracts';
import { translate } from '@portal/i18n';
import { and, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { groups, passwordResets, sessions, users } from '../db/schema';
import { audit } from '../lib/audit';
import { ApiError } from '../lib/errors';
import { burnPasswordCheck, hashPassword, verifyPassword } from '../lib/passwords';
import { hashToken, newToken, unseal } from '../lib/tokens';
import { verifyTotp } from '../lib/totp';
import { createSession, revokeSession, revokeUserSessions } from '../services/sessions';
import { claimResetLinkUse, claimSignIn, clearFailures, refundAttempt } from '../services/throttle';
import { toGroup, toUser } from '../services/users';
import { clientOf, errorResponses, routeOf, signedIn } from './define';

export async function authRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;

  app.route({
    ...routeOf('getGroup'),
    schema: {
      tags: ['auth'],
      summary: 'Branding of a login group (`limited/group&group=` works as well as `?group=`)',
      querystring: getGroupQuerySchema,
      response: { 200: getGroupResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const [group] = await ctx.db.select().from(groups).where(eq(groups.id, request.query.group)).limit(1);
      if (!group) throw new ApiError('group.not_found');
      return toGroup(group);
    },
  });

  app.route({
    ...routeOf('login'),
    schema: {
      tags: ['auth'],
      summary: 'Sign in with username and password',
      body: loginBodySchema,
      response: { 200: loginResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { username, password } = request.body;
      const now = ctx.now();
      // Counted before the password is checked, so guesses arriving together cannot pass the limit.
      const claim = await claimSignIn(ctx.db, ctx.throttle, username, request.ip, now);
      if (claim.wait > 0) {
        await audit(ctx.db, 'login.throttled', { username, ip: request.ip });
        throw new ApiError('auth.too_many_attempts', { retryAfterSeconds: claim.wait });
      }
      const [user] = await ctx.db
        .select()
        .from(users)
        .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
        .limit(1);
      const ok = user?.active ? await verifyPassword(user.passwordHash, password) : false;
      if (!user?.active) await burnPasswordCheck(password);
      if (!user || !ok) {
        // The claimed rows stay: they are this failure.
        await audit(ctx.db, 'login.failed', { userId: user?.id, username, ip: request.ip });
        throw new ApiError('auth.invalid_credentials');
      }
      // A success clears the username's failures and gives back its own row of the address.
      await refundAttempt(ctx.db, claim);
      await clearFailures(ctx.db, username, ctx.throttle, now);
      if (user.totpSecret !== null) {
        const token = await createSession(ctx.db, user.id, 'two_factor_step', now, clientOf(request));
        await audit(ctx.db, 'login.two_factor_step', {
          userId: user.id,
          issuerId: user.issuerId,
          ip: request.ip,
        });
        return { requireTwoFactor: true, token };
      }
      const token = await createSession(ctx.db, user.id, 'session', now, clientOf(request));
      await audit(ctx.db, 'login.ok', { userId: user.id, issuerId: user.issuerId, ip: request.ip });
      return { requireTwoFactor: false, token, user: toUser(user) };
    },
  });

  app.route({
    ...routeOf('login2fa'),
    schema: {
      tags: ['auth'],
      summary: 'Second sign-in step: the first-step token and a TOTP code',
      body: login2faBodySchema,
      response: { 200: login2faResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const now = ctx.now();
      return ctx.db
        .transaction(async (tx) => {
          const [step] = await tx
            .select()
            .from(sessions)
            .where(
              and(
                eq(sessions.tokenHash, hashToken(request.body.token)),
                eq(sessions.kind, 'two_factor_step'),
                isNull(sessions.revokedAt),
                gt(sessions.expiresAt, now),
              ),
            )
            .for('update')
            .limit(1);
          if (!step) throw new ApiError('auth.two_factor_token_expired');
          const [user] = await tx
            .select()
            .from(users)
            .where(eq(users.id, step.userId))
            .for('update')
            .limit(1);
          if (!user?.active || user.totpSecret === null) throw new ApiError('auth.two_factor_token_expired');
          const secret = unseal(ctx.config.secretKey, user.totpSecret);
          const matched = verifyTotp(secret, request.body.code, now.getTime(), user.totpLastStep);
          if (matched === null) {
            const attempts = step.failedAttempts + 1;
            await tx
              .update(sessions)
              .set({
                failedAttempts: attempts,
                revokedAt: attempts >= TWO_FACTOR_STEP_MAX_ATTEMPTS ? now : null,
              })
              .where(eq(sessions.id, step.id));
            await audit(tx, 'login.two_factor_failed', {
              userId: user.id,
              issuerId: user.issuerId,
              ip: request.ip,
              details: { attempts },
            });
            // The wrong code is remembered even though the answer is an error: commit, then answer.
            return { error: new ApiError('auth.invalid_code') } as const;
          }
          await tx.update(users).set({ totpLastStep: matched }).where(eq(users.id, user.id));
          await revokeSession(tx, step.id, now);
          const token = await createSession(tx, user.id, 'session', now, clientOf(request));
          await audit(tx, 'login.ok', {
            userId: user.id,
            issuerId: user.issuerId,
            ip: request.ip,
            details: { twoFactor: true },
          });
          return { token, user: toUser({ ...user, totpLastStep: matched }) };
        })
        .then((result) => {
          if ('error' in result) throw result.error;
          return result;
        });
    },
  });

  app.route({
    ...routeOf('logout'),
    schema: {
      tags: ['auth'],
      summary: 'End this session',
      response: { 200: okResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const auth = signedIn(request);
      await revokeSession(ctx.db, auth.sessionId, ctx.now());
      await audit(ctx.db, 'logout', { userId: auth.userId, issuerId: auth.issuerId, ip: request.ip });
      return { ok: true as const };
    },
  });

  app.route({
    ...routeOf('requestPasswordReset'),
    schema: {
      tags: ['auth'],
      summary: 'E-mail a single-use password reset link (404 for an unknown username, spec §8)',
      body: requestPasswordResetBodySchema,
      response: { 200: okResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const now = ctx.now();
      const { username } = request.body;
      // The spec answers 404 for an unknown name, so guessing names is throttled like guessing passwords.
      const claim = await claimSignIn(ctx.db, ctx.throttle, username, request.ip, now);
      if (claim.wait > 0) throw new ApiError('auth.too_many_attempts', { retryAfterSeconds: claim.wait });
      const [user] = await ctx.db
        .select()
        .from(users)
        .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
        .limit(1);
      // An unknown name keeps its claimed rows as a failure; a known one is not a guess.
      if (!user?.active) throw new ApiError('password.user_not_found');
      await refundAttempt(ctx.db, claim);
      // At most a few links per user and window, so nobody can flood a user's inbox with reset mails.
      const [recent] = await ctx.db
        .select({ n: count() })
        .from(passwordResets)
        .where(
          and(
            eq(passwordResets.userId, user.id),
            gt(passwordResets.createdAt, new Date(now.getTime() - ctx.throttle.windowMinutes * 60_000)),
          ),
        );
      if ((recent?.n ?? 0) >= PASSWORD_RESET_MAX_PER_WINDOW)
        throw new ApiError('auth.too_many_attempts', { retryAfterSeconds: ctx.throttle.windowMinutes * 60 });
      const token = newToken();
      await ctx.db.insert(passwordResets).values({
        tokenHash: hashToken(token),
        userId: user.id,
        createdAt: now,
        expiresAt: new Date(now.getTime() + PASSWORD_RESET_MINUTES * 60_000),
      });
      await audit(ctx.db, 'password.reset_requested', {
        userId: user.id,
        issuerId: user.issuerId,
        ip: request.ip,
      });
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
      if (ctx.mailer.kind === 'outbox') request.log.info(`password reset link: ${link} `);
      return { ok: true as const };
    },
  });

  app.route({
    ...routeOf('checkPasswordReset'),
    schema: {
      tags: ['auth'],
      summary: 'Whether a reset link can still be used',
      params: checkPasswordResetParamsSchema,
      response: { 200: okResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const [found] = await ctx.db
        .select({ id: passwordResets.id })
        .from(passwordResets)
        .where(
          and(
            eq(passwordResets.tokenHash, hashToken(request.params.hash)),
            isNull(passwordResets.usedAt),
            gt(passwordResets.expiresAt, ctx.now()),
          ),
        )
        .limit(1);
      if (!found) throw new ApiError('password.reset_not_found');
      return { ok: true as const };
    },
  });

  app.route({
    ...routeOf('resetPassword', { validationCode: 'account.invalid_new_password' }),
    schema: {
      tags: ['auth'],
      summary: 'Set a new password through a reset link; ends every session of the user',
      body: resetPasswordBodySchema,
      response: { 200: okResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const now = ctx.now();
      // Counted before any work, per address: a flood of made-up links costs a query each, no hash.
      const claim = await claimResetLinkUse(ctx.db, ctx.throttle, request.ip, now);
      if (claim.wait > 0) throw new ApiError('auth.too_many_attempts', { retryAfterSeconds: claim.wait });
      const openLink = and(
        eq(passwordResets.tokenHash, hashToken(request.body.hash)),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, now),
      );
      // The link first (an index probe), the argon2 hash only for a link that exists.
      const [found] = await ctx.db
        .select({ id: passwordResets.id })
        .from(passwordResets)
        .where(openLink)
        .limit(1);
      if (!found) throw new ApiError('password.reset_not_found');
      const passwordHash = await hashPassword(request.body.new);
      await ctx.db.transaction(async (tx) => {
        // Again under a lock: another request may have used the link while this one hashed.
        const [reset] = await tx.select().from(passwordResets).where(openLink).for('update').limit(1);
        if (!reset) throw new ApiError('password.reset_not_found');
        // This link and every other open link of the user end here.
        await tx
          .update(passwordResets)
          .set({ usedAt: now })
          .where(and(eq(passwordResets.userId, reset.userId), isNull(passwordResets.usedAt)));
        await tx
          .update(users)
          .set({ passwordHash, lastPasswordChange: now })
          .where(eq(users.id, reset.userId));
        await revokeUserSessions(tx, reset.userId, now);
        await audit(tx, 'password.reset', { userId: reset.userId, ip: request.ip });
      });
      // A link that worked was no guess: it does not count against the address.
      await refundAttempt(ctx.db, claim);
      return { ok: true as const };
    },
  });
}
