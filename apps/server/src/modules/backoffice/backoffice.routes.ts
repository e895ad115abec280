import {
  backofficeLogin2faBodySchema,
  backofficeLogin2faResponseSchema,
  backofficeLoginBodySchema,
  backofficeLoginResponseSchema,
  creditDecisionResponseSchema,
  idParamsSchema,
  listPendingDecisionsQuerySchema,
  listPendingDecisionsResponseSchema,
  okResponseSchema,
  rejectInvoiceBodySchema,
} from '@portal/contracts';
import { asOperator, okAfter, operatorOf, routeModule, routesTagged, signInCall } from '../../routes/define';
import * as backoffice from './backoffice.service';

/**
 * The back office's API (docs/BACKOFFICE.md): operators only, never a customer's token. HTTP only; the
 * rules are in backoffice.service.ts.
 */
export const backofficeRoutes = routeModule((app, ctx) => {
  const route = routesTagged(['backoffice']);

  app.route({
    ...route('backofficeLogin', {
      summary: 'Operator sign-in with username and password (throttled like the customer sign-in)',
      body: backofficeLoginBodySchema,
      ok: backofficeLoginResponseSchema,
    }),
    handler: signInCall(ctx, backoffice.backofficeLogin),
  });

  app.route({
    ...route('backofficeLogin2fa', {
      summary: 'Second operator sign-in step: the step token and a TOTP code',
      body: backofficeLogin2faBodySchema,
      ok: backofficeLogin2faResponseSchema,
    }),
    handler: signInCall(ctx, backoffice.backofficeLogin2fa),
  });

  app.route({
    ...route('backofficeLogout', { summary: 'End this operator session', ok: okResponseSchema }),
    handler: async (request) => okAfter(backoffice.backofficeLogout(ctx, operatorOf(request), request.ip)),
  });

  app.route({
    ...route('listPendingDecisions', {
      summary: 'Invoices of every issuer awaiting our credit decision (state 9), oldest sent first',
      querystring: listPendingDecisionsQuerySchema,
      ok: listPendingDecisionsResponseSchema,
    }),
    handler: async (request) =>
      asOperator(request, () => backoffice.listPendingDecisions(ctx.db, request.query)),
  });

  app.route({
    ...route('approveInvoice', {
      summary: 'Approve the credit of an invoice in state 9: it moves to 2 (notPaid); 409 in any other state',
      params: idParamsSchema,
      ok: creditDecisionResponseSchema,
    }),
    handler: async (request) =>
      backoffice.decideInvoiceCredit(
        ctx,
        operatorOf(request),
        request.params.id,
        { decision: 'approved' },
        request.ip,
      ),
  });

  app.route({
    ...route('rejectInvoice', {
      summary:
        'Reject the credit of an invoice in state 9 with a reason the customer sees: it moves back to 1 (pending)',
      params: idParamsSchema,
      body: rejectInvoiceBodySchema,
      ok: creditDecisionResponseSchema,
    }),
    handler: async (request) =>
      backoffice.decideInvoiceCredit(
        ctx,
        operatorOf(request),
        request.params.id,
        { decision: 'rejected', reason: request.body.reason },
        request.ip,
      ),
  });
});
