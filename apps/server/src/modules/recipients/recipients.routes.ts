import {
  listRecipientsQuerySchema,
  listRecipientsResponseSchema,
  recipientBodySchema,
  recipientSchema,
  searchCompaniesQuerySchema,
  searchCompaniesResponseSchema,
} from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses, ownedItemRoutes, routeOf, signedIn } from '../../routes/define';
import * as recipientsService from './recipients.service';

/** The recipient routes: HTTP only (schema, call, answer); the rules are in recipients.service.ts. */
export async function recipientRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;
  const tags = ['recipients'];

  app.route({
    ...routeOf('listRecipients'),
    schema: {
      tags,
      summary: "The caller's recipients: search (name, organisation number, city, email), sort and pages",
      querystring: listRecipientsQuerySchema,
      response: { 200: listRecipientsResponseSchema, ...errorResponses },
    },
    handler: async (request) =>
      recipientsService.listRecipients(ctx.db, signedIn(request).issuerId, request.query),
  });

  ownedItemRoutes(fastify, {
    tags,
    validationCode: 'recipient.invalid',
    item: recipientSchema,
    body: recipientBodySchema,
    service: {
      get: recipientsService.getRecipient,
      save: recipientsService.saveRecipient,
      remove: recipientsService.deleteRecipient,
    },
    routes: {
      get: { op: 'getRecipient', summary: 'One recipient of the caller' },
      create: {
        op: 'createRecipient',
        summary:
          'Add a recipient (spec §5: name required, max 45; zip code, city and a valid email; a party number no other recipient of the issuer has; the document language defaults to the country’s)',
      },
      update: {
        op: 'updateRecipient',
        summary: 'Change a recipient of the caller (without a documentLanguage the stored one is kept)',
      },
      delete: {
        op: 'deleteRecipient',
        summary: 'Delete a recipient; refused (409 recipient.in_use) while articles or invoices use it',
      },
    },
  });

  app.route({
    ...routeOf('searchCompanies'),
    schema: {
      tags,
      summary: 'Look a company up by name or organisation number (too many matches: 422)',
      querystring: searchCompaniesQuerySchema,
      response: { 200: searchCompaniesResponseSchema, ...errorResponses },
    },
    handler: async (request) => ({
      items: await recipientsService.searchCompanies(ctx.db, request.query.query),
    }),
  });
}
