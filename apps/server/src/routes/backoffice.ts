import {
  backofficeLoginBodySchema,
  backofficeLoginResponseSchema,
  creditDecisionResponseSchema,
  idParamsSchema,
  listPendingDecisionsQuerySchema,
  listPendingDecisionsResponseSchema,
  okResponseSchema,
  rejectInvoiceBodySchema,
  type ServiceType,
} from '@portal/contracts';
import { asc, count, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { OperatorContext } from '../context';
import { invoices, issuers, operators, recipients } from '../db/schema';
import { audit } from '../lib/audit';
import { ApiError } from '../lib/errors';
import { burnPasswordCheck, verifyPassword } from '../lib/passwords';
import { decideCredit } from '../services/credit-decision';
import { createOperatorSession, revokeOperatorSession } from '../services/operator-sessions';
import { clearFailures, recordFailure, throttleWait } from '../services/throttle';
import { clientOf, errorResponses, routeOf } from './define';

/** The caller of an operator route (the auth hook has set it; a route without one is a bug, answered 401). */
function operatorOf(request: { operator: OperatorContext | null }): OperatorContext {
  if (!request.operator) throw new ApiError('auth.unauthorized');
  return request.operator;
}

/** The back office's API (docs/BACKOFFICE.md): operators only, never a customer's token. */
export async function backofficeRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;

  app.route({
    ...routeOf('backofficeLogin'),
    schema: {
      operationId: 'backofficeLogin',
      tags: ['backoffice'],
      summary: 'Operator sign-in with username and password (throttled like the customer sign-in)',
      body: backofficeLoginBodySchema,
      response: { 200: backofficeLoginResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { username, password } = request.body;
      const now = ctx.now();
      const wait = await throttleWait(ctx.db, ctx.throttle, username, request.ip, now, 'operator');
      if (wait > 0) {
        await audit(ctx.db, 'backoffice.login.throttled', { username, ip: request.ip });
        throw new ApiError('auth.too_many_attempts', { retryAfterSeconds: wait });
      }
      const [operator] = await ctx.db
        .select()
        .from(operators)
        .where(sql`lower(${operators.username}) = ${username.toLowerCase()}`)
        .limit(1);
      const ok = operator?.active ? await verifyPassword(operator.passwordHash, password) : false;
      if (!operator?.active) await burnPasswordCheck(password);
      if (!operator || !ok) {
        await recordFailure(ctx.db, username, request.ip, now, 'operator');
        await audit(ctx.db, 'backoffice.login.failed', {
          operatorId: operator?.id,
          username,
          ip: request.ip,
        });
        throw new ApiError('auth.invalid_credentials');
      }
      await clearFailures(ctx.db, username, ctx.throttle, now, 'operator');
      const token = await createOperatorSession(ctx.db, operator.id, now, clientOf(request));
      await audit(ctx.db, 'backoffice.login.ok', {
        operatorId: operator.id,
        username: operator.username,
        ip: request.ip,
      });
      return {
        token,
        operator: {
          operatorID: operator.id,
          username: operator.username,
          name: operator.name,
          email: operator.email,
        },
      };
    },
  });

  app.route({
    ...routeOf('backofficeLogout'),
    schema: {
      operationId: 'backofficeLogout',
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
      operationId: 'listPendingDecisions',
      tags: ['backoffice'],
      summary: 'Invoices of every issuer awaiting our credit decision (state 9), oldest sent first',
      querystring: listPendingDecisionsQuerySchema,
      response: { 200: listPendingDecisionsResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      operatorOf(request);
      const { page, pageSize } = request.query;
      const awaiting = eq(invoices.state, 9);
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
      operationId: 'approveInvoice',
      tags: ['backoffice'],
      summary: 'Approve the credit of an invoice in state 9: it moves to 2 (notPaid); 409 in any other state',
      params: idParamsSchema,
      response: { 200: creditDecisionResponseSchema, ...errorResponses },
    },
    handler: async (request) =>
      decideCredit(
        ctx.db,
        operatorOf(request),
        request.params.id,
        { decision: 'approved' },
        ctx.now(),
        request.ip,
      ),
  });

  app.route({
    ...routeOf('rejectInvoice'),
    schema: {
      operationId: 'rejectInvoice',
      tags: ['backoffice'],
      summary:
        'Reject the credit of an invoice in state 9 with a reason the customer sees: it moves back to 1 (pending)',
      params: idParamsSchema,
      body: rejectInvoiceBodySchema,
      response: { 200: creditDecisionResponseSchema, ...errorResponses },
    },
    handler: async (request) =>
      decideCredit(
        ctx.db,
        operatorOf(request),
        request.params.id,
        { decision: 'rejected', reason: request.body.reason },
        ctx.now(),
        request.ip,
      ),
  });
}
