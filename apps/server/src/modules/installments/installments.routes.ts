import {
  decideInstallmentPlanBodySchema,
  decideInstallmentPlanResponseSchema,
  eSigningCallbackQuerySchema,
  idParamsSchema,
  installmentPlanBodySchema,
  installmentPlanDetailSchema,
  listInstallmentPlansQuerySchema,
  listInstallmentPlansResponseSchema,
  receivedResponseSchema,
} from '@portal/contracts';
import { ApiError } from '../../lib/errors';
import {
  changeItem,
  issuerItem,
  issuerQuery,
  keyedCreate,
  operatorOf,
  routeModule,
  routesTagged,
  signedIn,
} from '../../routes/define';
import { databaseFileStore } from '../../services/file-store';
import * as plans from './installments.service';

/** Installment plans (issue #14): HTTP only; the rules are in installments.service.ts. */
export const installmentPlanRoutes = routeModule(async (app, ctx) => {
  const files = ctx.files ?? databaseFileStore(ctx.db);
  /** The e-signing provider, or 502 when none is configured. */
  const provider = () => {
    if (!ctx.eSigning) throw new ApiError('eSigning.unavailable');
    return ctx.eSigning;
  };
  const route = routesTagged(['installment plans']);
  const backofficeRoute = routesTagged(['backoffice']);

  app.route({
    ...route('listInstallmentPlans', {
      summary: 'The issuer’s plans: state filter, search (description, buyer, loan number), sort, pages',
      querystring: listInstallmentPlansQuerySchema,
      ok: listInstallmentPlansResponseSchema,
    }),
    handler: issuerQuery(ctx, plans.listPlans),
  });

  app.route({
    ...route('registerInstallmentPlan', {
      summary:
        'Register a plan (state 1) with its schedule, signees and securities. Idempotency-Key makes retries safe.',
      body: installmentPlanBodySchema,
      validationCode: 'installmentPlans.invalid',
      ok: installmentPlanDetailSchema,
    }),
    handler: keyedCreate(ctx, plans.registerPlan),
  });

  app.route({
    ...route('getInstallmentPlan', {
      summary: 'One plan with its schedule (each installment’s invoice), signees, securities and timeline',
      params: idParamsSchema,
      ok: installmentPlanDetailSchema,
    }),
    handler: issuerItem(ctx, plans.getPlan),
  });

  app.route({
    ...route('updateInstallmentPlan', {
      summary: 'Change a plan that is still registered',
      params: idParamsSchema,
      body: installmentPlanBodySchema,
      validationCode: 'installmentPlans.invalid',
      ok: installmentPlanDetailSchema,
    }),
    handler: changeItem(ctx, plans.updatePlan),
  });

  app.route({
    ...route('sendInstallmentPlanForSigning', {
      summary: 'Send the agreement to the signees through the e-signing provider (state 8)',
      params: idParamsSchema,
      ok: installmentPlanDetailSchema,
    }),
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
    ...route('cancelInstallmentPlan', {
      summary: 'Cancel a plan that is not active yet (an open signing order is withdrawn)',
      params: idParamsSchema,
      ok: installmentPlanDetailSchema,
    }),
    handler: async (request) =>
      plans.cancelPlan(ctx.db, signedIn(request), request.params.id, ctx.eSigning, ctx.now()),
  });

  app.route({
    ...route('downloadInstallmentPlanAgreement', {
      summary: 'The signed agreement, byte for byte as the provider sealed it',
      params: idParamsSchema,
    }),
    handler: async (request, reply) => {
      const file = await plans.signedAgreement(ctx.db, signedIn(request).issuerId, request.params.id, files);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .send(file.bytes);
    },
  });

  app.route({
    ...backofficeRoute('decideInstallmentPlan', {
      summary:
        'Our credit decision on a signed plan: approved (active, paid out in the next payout run) or rejected',
      params: idParamsSchema,
      body: decideInstallmentPlanBodySchema,
      ok: decideInstallmentPlanResponseSchema,
    }),
    handler: async (request) =>
      plans.decidePlan(ctx.db, operatorOf(request), request.params.id, request.body.decision, ctx.now()),
  });

  await app.register(
    routeModule((callbackScope) => {
      // Scrive posts its callback as a form (`document_id=…&document_json=…`); the body is read as text
      // and never trusted beyond the document id (installments.service.ts).
      callbackScope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 1_048_576 },
        (_request, body, done) => done(null, String(body)),
      );
      callbackScope.route({
        ...route('receiveESigningCallback', {
          summary:
            'The e-signing provider’s notice that an order changed; the state is then read from the provider',
          querystring: eSigningCallbackQuerySchema,
          ok: receivedResponseSchema,
        }),
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
    }),
  );
});
