import {
  backofficeLogin2faBodySchema,
  backofficeLogin2faResponseSchema,
  backofficeLoginBodySchema,
  backofficeLoginResponseSchema,
  creditDecisionResponseSchema,
  idParamsSchema,
  listPendingDecisionsQuerySchema,
  listPendingDecisionsResponseSchema,
  rejectInvoiceBodySchema,
} from '@portal/contracts';
import type { OperatorContext } from '../../context';
import { operatorOf, operatorQuery, routeModule, signInRoutes } from '../../routes/define';
import * as backoffice from './backoffice.service';

/**
 * The back office's API (docs/BACKOFFICE.md): operators only, never a customer's token. HTTP only; the
 * rules are in backoffice.service.ts.
 */
export const backofficeRoutes = routeModule(['backoffice'], (route, ctx) => {
  /** The operator's credit decision on the path's invoice (approve, reject). */
  const decide = (
    request: { operator: OperatorContext | null; params: { id: string }; ip: string },
    choice: Parameters<typeof backoffice.decideInvoiceCredit>[3],
  ) => backoffice.decideInvoiceCredit(ctx, operatorOf(request), request.params.id, choice, request.ip);

  signInRoutes(route, ctx, {
    password: {
      op: 'backofficeLogin',
      summary: 'Operator sign-in with username and password (throttled like the customer sign-in)',
      body: backofficeLoginBodySchema,
      ok: backofficeLoginResponseSchema,
      signIn: backoffice.backofficeLogin,
    },
    twoFactor: {
      op: 'backofficeLogin2fa',
      summary: 'Second operator sign-in step: the step token and a TOTP code',
      body: backofficeLogin2faBodySchema,
      ok: backofficeLogin2faResponseSchema,
      signIn: backoffice.backofficeLogin2fa,
    },
    signOut: {
      op: 'backofficeLogout',
      summary: 'End this operator session',
      end: (request) => backoffice.backofficeLogout(ctx, operatorOf(request), request.ip),
    },
  });
  route(
    'listPendingDecisions',
    'Invoices of every issuer awaiting our credit decision (state 9), oldest sent first',
    { querystring: listPendingDecisionsQuerySchema, ok: listPendingDecisionsResponseSchema },
    operatorQuery(ctx, backoffice.listPendingDecisions),
  );
  route(
    'approveInvoice',
    'Approve the credit of an invoice in state 9: it moves to 2 (notPaid); 409 in any other state',
    { params: idParamsSchema, ok: creditDecisionResponseSchema },
    async (request) => decide(request, { decision: 'approved' }),
  );
  route(
    'rejectInvoice',
    'Reject the credit of an invoice in state 9 with a reason the customer sees: it moves back to 1 (pending)',
    { params: idParamsSchema, body: rejectInvoiceBodySchema, ok: creditDecisionResponseSchema },
    async (request) => decide(request, { decision: 'rejected', reason: request.body.reason }),
  );
});
