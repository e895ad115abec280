import {
  backofficeLogin2faBodySchema,
  backofficeLogin2faResponseSchema,
  backofficeLoginBodySchema,
  backofficeLoginResponseSchema,
  creditDecisionResponseSchema,
  INVOICE_STATE,
  idParamsSchema,
  listPendingDecisionsQuerySchema,
  listPendingDecisionsResponseSchema,
  type Operator,
  okResponseSchema,
  rejectInvoiceBodySchema,
  type ServiceType,
  TWO_FACTOR_STEP_MAX_ATTEMPTS,
} from '@portal/contracts';
import { and, asc, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { OperatorContext } from '../context';
import { invoices, issuers, operatorSessions, operators, recipients } from '../db/schema';
import { audit } from '../lib/audit';
import { ApiError } from '../lib/errors';
import { burnPasswordCheck, verifyPassword } from '../lib/passwords';
import { hashToken, unseal } from '../lib/tokens';
import { verifyTotp } from '../lib/totp';
import { decideCredit } from '../modules/invoices/invoices.service';
import { createOperatorSession, revokeOperatorSession } from '../services/operator-sessions';
import { claimSignIn, clearFailures, refundAttempt } from '../services/throttle';
import { clientOf, errorResponses, operatorOf, routeOf } from './define';

/** An operator as the sign-in answers show it. */
function operatorView(o: { id: string; username: string; name: string; email: string }): Operator {
  return { operatorID: o.id, username: o.username, name: o.name, email: o.email };
}

/** The back office's API (docs/BACKOFFICE.md): operators only, never a customer's token. */
export async function backofficeRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;
  /** The operator's credit decision on the invoice of the route. */
  const decide = (
    request: { operator: OperatorContext | null; params: { id: string }; ip: string },
    choice: Parameters<typeof decideCredit>[3],
  ) => decideCredit(ctx.db, operatorOf(request), request.params.id, choice, ctx.now(), request.ip);

  app.route({
    ...routeOf('backofficeLogin'),
    schema: {
      tags: ['backoffice'],
      summary: 'Operator sign-in with username and password (throttled like the customer sign-in)',
      body: backofficeLoginBodySchema,
      response: { 200: backofficeLoginResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { username, password } = request.body;
      const now = ctx.now();
      const claim = await claimSignIn(ctx.db, ctx.throttle, username, request.ip, now, 'operator');
      if (claim.wait > 0) {
        await audit(ctx.db, 'backoffice.login.throttled', { username, ip: request.ip });
        throw new ApiError('auth.too_many_attempts', { retryAfterSeconds: claim.wait });
      }
      const [operator] = await ctx.db
        .select()
        .from(operators)
        .where(sql`lower(${operators.username}) = ${username.toLowerCase()}`)
        .limit(1);
      const ok = operator?.active ? await verifyPassword(operator.passwordHash, password) : false;
      if (!operator?.active) await burnPasswordCheck(password);
      if (!operator || !ok) {
        await audit(ctx.db, 'backoffice.login.failed', {
          operatorId: operator?.id,
          username,
          ip: request.ip,
        });
        throw new ApiError('auth.invalid_credentials');
      }
      await refundAttempt(ctx.db, claim);
      await clearFailures(ctx.db, username, ctx.throttle, now, 'operator');
      if (operator.totpSecret !== null) {
        const step = await createOperatorSession(
          ctx.db,
          operator.id,
          now,
          clientOf(request),
          'two_factor_step',
        );
        await audit(ctx.db, 'backoffice.login.two_factor_step', {
          operatorId: operator.id,
          username: operator.username,
          ip: request.ip,
        });
        return { requireTwoFactor: true, token: step };
      }
      if (ctx.config.backofficeTwoFactorRequired) {
        await audit(ctx.db, 'backoffice.login.two_factor_missing', {
          operatorId: operator.id,
          username: operator.username,
          ip: request.ip,
        });
        throw new ApiError('auth.setup_required');
      }
      const token = await createOperatorSession(ctx.db, operator.id, now, clientOf(request));
      await audit(ctx.db, 'backoffice.login.ok', {
        operatorId: operator.id,
        username: operator.username,
        ip: request.ip,
      });
      return {
        requireTwoFactor: false,
        token,
        operator: operatorView(operator),
      };
    },
  });

  app.route({
    ...routeOf('backofficeLogin2fa'),
    schema: {
      tags: ['backoffice'],
      summary: 'Second operator sign-in step: the step token and a TOTP code',
      body: backofficeLogin2faBodySchema,
      response: { 200: backofficeLogin2faResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const now = ctx.now();
      const result = await ctx.db.transaction(async (tx) => {
        const [step] = await tx
          .select()
          .from(operatorSessions)
          .where(
            and(
              eq(operatorSessions.tokenHash, hashToken(request.body.token)),
              eq(operatorSessions.kind, 'two_factor_step'),
              isNull(operatorSessions.revokedAt),
              gt(operatorSessions.expiresAt, now),
            ),
          )
          .for('update')
          .limit(1);
        if (!step) throw new ApiError('auth.two_factor_token_expired');
        const [operator] = await tx
          .select()
          .from(operators)
          .where(eq(operators.id, step.operatorId))
          .for('update')
          .limit(1);
        if (!operator?.active || operator.totpSecret === null)
          throw new ApiError('auth.two_factor_token_expired');
        const secret = unseal(ctx.config.secretKey, operator.totpSecret);
        const matched = verifyTotp(secret, request.body.code, now.getTime(), operator.totpLastStep);
        if (matched === null) {
          const attempts = step.failedAttempts + 1;
          await tx
            .update(operatorSessions)
            .set({
              failedAttempts: attempts,
              revokedAt: attempts >= TWO_FACTOR_STEP_MAX_ATTEMPTS ? now : null,
            })
            .where(eq(operatorSessions.id, step.id));
          await audit(tx, 'backoffice.login.two_factor_failed', {
            operatorId: operator.id,
            username: operator.username,
            ip: request.ip,
            details: { attempts },
          });
          // The failed attempt is kept although the answer is an error: commit first, then answer.
          return { error: new ApiError('auth.invalid_code') } as const;
        }
        await tx.update(operators).set({ totpLastStep: matched }).where(eq(operators.id, operator.id));
        await revokeOperatorSession(tx, step.id, now);
        const token = await createOperatorSession(tx, operator.id, now, clientOf(request));
        await audit(tx, 'backoffice.login.ok', {
          operatorId: operator.id,
          username: operator.username,
          ip: request.ip,
          details: { twoFactor: true },
        });
        return {
          token,
          operator: operatorView(operator),
        };
      });
      if ('error' in result) throw result.error;
      return result;
    },
  });

  app.route({
    ...routeOf('backofficeLogout'),
    schema: {
      tags: ['backoffice'],
      summary: 'End this operator session',
      response: { 200: okResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const operator = operatorOf(request);
      await revokeOperatorSession(ctx.db, operator.sessionId, ctx.now());
      await audit(ctx.db, 'backoffice.logout', {
        operatorId: operator.operatorId,
        username: operator.username,
        ip: request.ip,
      });
      return { ok: true as const };
    },
  });

  app.route({
    ...routeOf('listPendingDecisions'),
    schema: {
      tags: ['backoffice'],
      summary: 'Invoices of every issuer awaiting our credit decision (state 9), oldest sent first',
      querystring: listPendingDecisionsQuerySchema,
      response: { 200: listPendingDecisionsResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      operatorOf(request);
      const { page, pageSize } = request.query;
      const awaiting = eq(invoices.state, INVOICE_STATE.awaitingCreditDecision);
      const [rows, [total]] = await Promise.all([
        ctx.db
          .select({
            invoice: invoices,
            issuerName: issuers.name,
            recipientName: recipients.name,
          })
          .from(invoices)
          .innerJoin(issuers, eq(issuers.id, invoices.issuerId))
          .innerJoin(recipients, eq(recipients.id, invoices.recipientId))
          .where(awaiting)
          .orderBy(asc(invoices.sentAt), asc(invoices.id))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        ctx.db.select({ n: count() }).from(invoices).where(awaiting),
      ]);
      return {
        items: rows.map(({ invoice: i, issuerName, recipientName }) => ({
          invoiceID: i.id,
          invoiceNumber: i.invoiceNumber,
          issuerID: i.issuerId,
          issuerName,
          recipientName,
          service: i.service as ServiceType,
          currency: i.currency,
          grossMinor: i.grossMinor,
          toPayMinor: i.toPayMinor,
          invoiceDate: i.invoiceDate,
          dueDate: i.dueDate,
          sentAt: i.sentAt?.toISOString() ?? null,
        })),
        total: total?.n ?? 0,
        page,
        pageSize,
      };
    },
  });

  app.route({
    ...routeOf('approveInvoice'),
    schema: {
      tags: ['backoffice'],
      summary: 'Approve the credit of an invoice in state 9: it moves to 2 (notPaid); 409 in any other state',
      params: idParamsSchema,
      response: { 200: creditDecisionResponseSchema, ...errorResponses },
    },
    handler: async (request) => decide(request, { decision: 'approved' }),
  });

  app.route({
    ...routeOf('rejectInvoice'),
    schema: {
      tags: ['backoffice'],
      summary:
        'Reject the credit of an invoice in state 9 with a reason the customer sees: it moves back to 1 (pending)',
      params: idParamsSchema,
      body: rejectInvoiceBodySchema,
      response: { 200: creditDecisionResponseSchema, ...errorResponses },
    },
    handler: async (request) => decide(request, { decision: 'rejected', reason: request.body.reason }),
  });
}
