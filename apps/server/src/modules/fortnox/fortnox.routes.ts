import {
  completeFortnoxConnectionBodySchema,
  getFortnoxConnectionResponseSchema,
  listFortnoxInvoicesQuerySchema,
  listFortnoxInvoicesResponseSchema,
  startFortnoxConnectionResponseSchema,
  takeOverFortnoxInvoicesBodySchema,
  takeOverFortnoxInvoicesResponseSchema,
} from '@portal/contracts';
import { asCaller, callerOf, routeModule } from '../../routes/define';
import {
  completeFortnoxConnection,
  disconnectFortnox,
  getFortnoxConnection,
  listFortnoxInvoices,
  startFortnoxConnection,
  takeOverFortnoxInvoices,
} from './fortnox.service';

/** Fortnox business invoices (issue #13): HTTP only; the service holds the rules. */
export const fortnoxRoutes = routeModule(['fortnox'], (route, ctx) => {
  route(
    'getFortnoxConnection',
    'The issuer’s Fortnox connection: not connected, active, or revoked (and why)',
    { ok: getFortnoxConnectionResponseSchema },
    asCaller(ctx, getFortnoxConnection),
  );
  route(
    'startFortnoxConnection',
    'Starts the OAuth2 authorization at Fortnox; the browser goes to `redirectUrl`',
    { ok: startFortnoxConnectionResponseSchema },
    asCaller(ctx, startFortnoxConnection),
  );
  route(
    'completeFortnoxConnection',
    'Fortnox sent the browser back with a code (or an error) and our state: the code becomes tokens, the connection active',
    { body: completeFortnoxConnectionBodySchema, ok: getFortnoxConnectionResponseSchema },
    async (request) => completeFortnoxConnection(ctx, callerOf(request), request.body, request.log),
  );
  route(
    'disconnectFortnox',
    'Revokes the access at Fortnox and forgets the tokens',
    { ok: getFortnoxConnectionResponseSchema },
    async (request) => disconnectFortnox(ctx, callerOf(request), request.log),
  );
  route(
    'listFortnoxInvoices',
    'One page of the connected company’s unpaid invoices as Fortnox pages them, without those already sent to us',
    { querystring: listFortnoxInvoicesQuerySchema, ok: listFortnoxInvoicesResponseSchema },
    async (request) => listFortnoxInvoices(ctx, callerOf(request), request.query.page, request.log),
  );
  route(
    'takeOverFortnoxInvoices',
    'Takes Fortnox invoices over as pending invoices (each once), to be sent with `sendInvoices` like any pending invoice',
    { body: takeOverFortnoxInvoicesBodySchema, ok: takeOverFortnoxInvoicesResponseSchema },
    async (request) =>
      takeOverFortnoxInvoices(ctx, callerOf(request), request.body.documentNumbers, request.log),
  );
});
