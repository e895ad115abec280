import {
  decideInstallmentPlanBodySchema,
  decideInstallmentPlanResponseSchema,
  eSigningCallbackQuerySchema,
  idParamsSchema,
  installmentPlanBodySchema,
  installmentPlanDetailSchema,
  listInstallmentPlansQuerySchema,
  listInstallmentPlansResponseSchema,
} from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from '../../lib/errors';
import { errorResponses, operatorOf, routeOf, signedIn } from '../../routes/define';
import { databaseFileStore } from '../../services/file-store';
import * as plans from './installments.service';

/** Installment plans (issue #14): HTTP only; the rules are in installments.service.ts. */
export async function installmentPlanRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;
  const files = ctx.files ?? databaseFileStore(ctx.db);
  /** The e-signing provider, or 502 when none is configured. */
  const provider = () => {
    if (!ctx.eSigning) throw new ApiError('eSigning.unavailable');
    return ctx.eSigning;
  };
  const tags = ['installment plans'];

  app.route({
    ...routeOf('listInstallmentPlans'),
    schema: {
      tags,
      summary: 'The issuer’s plans: state filter, search (description, buyer, loan number), sort, pages',
      querystring: listInstallmentPlansQuerySchema,
      response: { 200: listInstallmentPlansResponseSchema, ...errorResponses },
    },
    handler: async (request) => plans.listPlans(ctx.db, signedIn(request).issuerId, request.query),
  });

  app.route({
    ...routeOf('registerInstallmentPlan', { validationCode: 'installmentPlans.invalid' }),
    schema: {
      tags,
      summary:
        'Register a plan (state 1) with its schedule, signees and securities. Idempotency-Key makes retries safe.',
      body: installmentPlanBodySchema,
      response: { 200: installmentPlanDetailSchema, ...errorResponses },
    },
    handler: async (request) =>
      plans.registerPlan(ctx.db, signedIn(request), request.body, request.headers, ctx.now()),
  });

  app.route({
    ...routeOf('getInstallmentPlan'),
    schema: {
      tags,
      summary: 'One plan with its schedule (each installment’s invoice), signees, securities and timeline',
      params: idParamsSchema,
      response: { 200: installmentPlanDetailSchema, ...errorResponses },
    },
    handler: async (request) => plans.getPlan(ctx.db, signedIn(request).issuerId, request.params.id),
  });

  app.route({
    ...routeOf('updateInstallmentPlan', { validationCode: 'installmentPlans.invalid' }),
    schema: {
      tags,
      summary: 'Change a plan that is still registered',
      params: idParamsSchema,
      body: installmentPlanBodySchema,
      response: { 200: installmentPlanDetailSchema, ...errorResponses },
    },
    handler: async (request) =>
      plans.updatePlan(ctx.db, signedIn(request), request.params.id, request.body, ctx.now()),
  });

  app.route({
    ...routeOf('sendInstallmentPlanForSigning'),
    schema: {
      tags,
      summary: 'Send the agreement to the signees through the e-signing provider (state 8)',
      params: idParamsSchema,
      response: { 200: installmentPlanDetailSchema, ...errorResponses },
    },
    handler: async (request) =>
      plans.sendForSigning(
        ctx.db,
        signedIn(request),
        request.params.id,
        { provider: provider(), callbackUrl: `${ctx.config.publicUrl}/api/e-signing/callback`, files },
        ctx.now(),
      ),
  });

  app.route({
    ...routeOf('cancelInstallmentPlan'),
    schema: {
      tags,
      summary: 'Cancel a plan that is not active yet (an open signing order is withdrawn)',
      params: idParamsSchema,
      response: { 200: installmentPlanDetailSchema, ...errorResponses },
    },
    handler: async (request) =>
      plans.cancelPlan(ctx.db, signedIn(request), request.params.id, ctx.eSigning, ctx.now()),
  });

  app.route({
    ...routeOf('downloadInstallmentPlanAgreement'),
    schema: {
      tags,
      summary: 'The signed agreement, byte for byte as the provider sealed it',
      params: idParamsSchema,
    },
    handler: async (request, reply) => {
      const file = await plans.signedAgreement(ctx.db, signedIn(request).issuerId, request.params.id, files);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .send(file.bytes);
    },
  });

  app.route({
    ...routeOf('decideInstallmentPlan'),
    schema: {
      tags: ['backoffice'],
      summary:
        'Our credit decision on a signed plan: approved (active, paid out in the next payout run) or rejected',
      params: idParamsSchema,
      body: decideInstallmentPlanBodySchema,
      response: { 200: decideInstallmentPlanResponseSchema, ...errorResponses },
    },
    handler: async (request) =>
      plans.decidePlan(ctx.db, operatorOf(request), request.params.id, request.body.decision, ctx.now()),
  });

  await app.register(async (callbackScope) => {
    // Scrive posts its callback as a form (`document_id=…&document_json=…`); the body is read as text
    // and never trusted beyond the document id (installments.service.ts).
    callbackScope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1_048_576 },
      (_request, body, done) => done(null, String(body)),
    );
    callbackScope.withTypeProvider<ZodTypeProvider>().route({
      ...routeOf('receiveESigningCallback'),
      schema: {
        tags,
        summary:
          'The e-signing provider’s notice that an order changed; the state is then read from the provider',
        querystring: eSigningCallbackQuerySchema,
        response: { 200: z.object({ received: z.literal(true) }), ...errorResponses },
      },
      handler: async (request) => {
        const known = await plans.onSigningCallback(
          ctx.db,
          { provider: provider(), files },
          { token: request.query.token, body: typeof request.body === 'string' ? request.body : '' },
          ctx.now(),
        );
        if (!known) throw new ApiError('eSigning.callback_invalid');
        return { received: true as const };
      },
    });
  });
}
