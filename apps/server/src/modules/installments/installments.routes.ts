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
  routesOn,
  sendFile,
  signedIn,
} from '../../routes/define';
import { fileStoreOf } from '../../services/file-store';
import * as plans from './installments.service';

/** Installment plans (issue #14): HTTP only; the rules are in installments.service.ts. */
export const installmentPlanRoutes = routeModule(['installment plans'], async (route, ctx, fastify) => {
  const files = fileStoreOf(ctx);
  /** The e-signing provider, or 502 when none is configured. */
  const provider = () => {
    if (!ctx.eSigning) throw new ApiError('eSigning.unavailable');
    return ctx.eSigning;
  };
  const backofficeRoute = routesOn(fastify, ['backoffice']);
  /** What registering and changing a plan take and answer: the plan's form, and the plan. */
  const planForm = {
    body: installmentPlanBodySchema,
    validationCode: 'installmentPlans.invalid',
    ok: installmentPlanDetailSchema,
  } as const;

  route(
    'listInstallmentPlans',
    'The issuer’s plans: state filter, search (description, buyer, loan number), sort, pages',
    { querystring: listInstallmentPlansQuerySchema, ok: listInstallmentPlansResponseSchema },
    issuerQuery(ctx, plans.listPlans),
  );
  route(
    'registerInstallmentPlan',
    'Register a plan (state 1) with its schedule, signees and securities. Idempotency-Key makes retries safe.',
    planForm,
    keyedCreate(ctx, plans.registerPlan),
  );
  route(
    'getInstallmentPlan',
    'One plan with its schedule (each installment’s invoice), signees, securities and timeline',
    { params: idParamsSchema, ok: installmentPlanDetailSchema },
    issuerItem(ctx, plans.getPlan),
  );
  route(
    'updateInstallmentPlan',
    'Change a plan that is still registered',
    { params: idParamsSchema, ...planForm },
    changeItem(ctx, plans.updatePlan),
  );
  route(
    'sendInstallmentPlanForSigning',
    'Send the agreement to the signees through the e-signing provider (state 8)',
    { params: idParamsSchema, ok: installmentPlanDetailSchema },
    async (request) =>
      plans.sendForSigning(
        ctx.db,
        signedIn(request),
        request.params.id,
        { provider: provider(), callbackUrl: `${ctx.config.publicUrl}/api/e-signing/callback`, files },
        ctx.now(),
      ),
  );
  route(
    'cancelInstallmentPlan',
    'Cancel a plan that is not active yet (an open signing order is withdrawn)',
    { params: idParamsSchema, ok: installmentPlanDetailSchema },
    async (request) =>
      plans.cancelPlan(ctx.db, signedIn(request), request.params.id, ctx.eSigning, ctx.now()),
  );
  route(
    'downloadInstallmentPlanAgreement',
    'The signed agreement, byte for byte as the provider sealed it',
    { params: idParamsSchema },
    async (request, reply) => {
      const file = await plans.signedAgreement(ctx.db, signedIn(request).issuerId, request.params.id, files);
      return sendFile(reply, file.fileName, 'application/pdf', file.bytes);
    },
  );
  backofficeRoute(
    'decideInstallmentPlan',
    'Our credit decision on a signed plan: approved (active, paid out in the next payout run) or rejected',
    {
      params: idParamsSchema,
      body: decideInstallmentPlanBodySchema,
      ok: decideInstallmentPlanResponseSchema,
    },
    async (request) =>
      plans.decidePlan(ctx.db, operatorOf(request), request.params.id, request.body.decision, ctx.now()),
  );

  await fastify.register(
    routeModule(['installment plans'], (callbackRoute, _ctx, callbackScope) => {
      // Scrive posts its callback as a form (`document_id=…&document_json=…`); the body is read as text
      // and never trusted beyond the document id (installments.service.ts).
      callbackScope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 1_048_576 },
        (_request, body, done) => done(null, String(body)),
      );
      callbackRoute(
        'receiveESigningCallback',
        'The e-signing provider’s notice that an order changed; the state is then read from the provider',
        { querystring: eSigningCallbackQuerySchema, ok: receivedResponseSchema },
        async (request) => {
          const known = await plans.onSigningCallback(
            ctx.db,
            { provider: provider(), files },
            { token: request.query.token, body: typeof request.body === 'string' ? request.body : '' },
            ctx.now(),
          );
          if (!known) throw new ApiError('eSigning.callback_invalid');
          return { received: true as const };
        },
      );
    }),
  );
});
