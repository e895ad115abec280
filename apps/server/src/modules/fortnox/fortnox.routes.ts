import {
  completeFortnoxConnectionBodySchema,
  getFortnoxConnectionResponseSchema,
  listFortnoxInvoicesQuerySchema,
  listFortnoxInvoicesResponseSchema,
  startFortnoxConnectionResponseSchema,
  takeOverFortnoxInvoicesBodySchema,
  takeOverFortnoxInvoicesResponseSchema,
} from '@portal/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses, routeOf, signedIn } from '../../routes/define';
import {
  type Caller,
  completeFortnoxConnection,
  disconnectFortnox,
  getFortnoxConnection,
  listFortnoxInvoices,
  startFortnoxConnection,
  takeOverFortnoxInvoices,
} from './fortnox.service';

const callerOf = (request: FastifyRequest): Caller => {
  const auth = signedIn(request);
  return { userId: auth.userId, issuerId: auth.issuerId, username: auth.username, ip: request.ip };
};

/** Fortnox business invoices (issue #13): HTTP only; the service holds the rules. */
export async function fortnoxRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;

  app.route({
    ...routeOf('getFortnoxConnection'),
    schema: {
      operationId: 'getFortnoxConnection',
      tags: ['fortnox'],
      summary: 'The issuer’s Fortnox connection: not connected, active, or revoked (and why)',
      response: { 200: getFortnoxConnectionResponseSchema, ...errorResponses },
    },
    handler: async (request) => getFortnoxConnection(ctx, callerOf(request)),
  });

  app.route({
    ...routeOf('startFortnoxConnection'),
    schema: {
      operationId: 'startFortnoxConnection',
      tags: ['fortnox'],
      summary: 'Starts the OAuth2 authorization at Fortnox; the browser goes to `redirectUrl`',
      response: { 200: startFortnoxConnectionResponseSchema, ...errorResponses },
    },
    handler: async (request) => startFortnoxConnection(ctx, callerOf(request)),
  });

  app.route({
    ...routeOf('completeFortnoxConnection'),
    schema: {
      operationId: 'completeFortnoxConnection',
      tags: ['fortnox'],
      summary:
        'Fortnox sent the browser back with a code (or an error) and our state: the code becomes tokens, the connection active',
      body: completeFortnoxConnectionBodySchema,
      response: { 200: getFortnoxConnectionResponseSchema, ...errorResponses },
    },
    handler: async (request) => completeFortnoxConnection(ctx, callerOf(request), request.body, request.log),
  });

  app.route({
    ...routeOf('disconnectFortnox'),
    schema: {
      operationId: 'disconnectFortnox',
      tags: ['fortnox'],
      summary: 'Revokes the access at Fortnox and forgets the tokens',
      response: { 200: getFortnoxConnectionResponseSchema, ...errorResponses },
    },
    handler: async (request) => disconnectFortnox(ctx, callerOf(request), request.log),
  });

  app.route({
    ...routeOf('listFortnoxInvoices'),
    schema: {
      operationId: 'listFortnoxInvoices',
      tags: ['fortnox'],
      summary:
        'One page of the connected company’s unpaid invoices as Fortnox pages them, without those already sent to us',
      querystring: listFortnoxInvoicesQuerySchema,
      response: { 200: listFortnoxInvoicesResponseSchema, ...errorResponses },
    },
    handler: async (request) => listFortnoxInvoices(ctx, callerOf(request), request.query.page, request.log),
  });

  app.route({
    ...routeOf('takeOverFortnoxInvoices'),
    schema: {
      operationId: 'takeOverFortnoxInvoices',
      tags: ['fortnox'],
      summary:
        'Takes Fortnox invoices over as pending invoices (each once), to be sent with `sendInvoices` like any pending invoice',
      body: takeOverFortnoxInvoicesBodySchema,
      response: { 200: takeOverFortnoxInvoicesResponseSchema, ...errorResponses },
    },
    handler: async (request) =>
      takeOverFortnoxInvoices(ctx, callerOf(request), request.body.documentNumbers, request.log),
  });
}
