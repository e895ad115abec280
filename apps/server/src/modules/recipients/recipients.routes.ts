import {
  idParamsSchema,
  listRecipientsQuerySchema,
  listRecipientsResponseSchema,
  okResponseSchema,
  recipientBodySchema,
  recipientSchema,
  searchCompaniesQuerySchema,
  searchCompaniesResponseSchema,
} from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses, routeOf, signedIn } from '../../routes/define';
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

  app.route({
    ...routeOf('getRecipient'),
    schema: {
      tags,
      summary: 'One recipient of the caller',
      params: idParamsSchema,
      response: { 200: recipientSchema, ...errorResponses },
    },
    handler: async (request) =>
      recipientsService.getRecipient(ctx.db, signedIn(request).issuerId, request.params.id),
  });

  app.route({
    ...routeOf('createRecipient', { validationCode: 'recipient.invalid' }),
    schema: {
      tags,
      summary:
        'Add a recipient (spec §5: name required, max 45; zip code, city and a valid email; a party number no other recipient of the issuer has; the document language defaults to the country’s)',
      body: recipientBodySchema,
      response: { 200: recipientSchema, ...errorResponses },
    },
    handler: async (request) =>
      recipientsService.saveRecipient(ctx.db, signedIn(request).issuerId, null, request.body, ctx.now()),
  });

  app.route({
    ...routeOf('updateRecipient', { validationCode: 'recipient.invalid' }),
    schema: {
      tags,
      summary: 'Change a recipient of the caller (without a documentLanguage the stored one is kept)',
      params: idParamsSchema,
      body: recipientBodySchema,
      response: { 200: recipientSchema, ...errorResponses },
    },
    handler: async (request) =>
      recipientsService.saveRecipient(
        ctx.db,
        signedIn(request).issuerId,
        request.params.id,
        request.body,
        ctx.now(),
      ),
  });

  app.route({
    ...routeOf('deleteRecipient'),
    schema: {
      tags,
      summary: 'Delete a recipient; refused (409 recipient.in_use) while articles or invoices use it',
      params: idParamsSchema,
      response: { 200: okResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      await recipientsService.deleteRecipient(ctx.db, signedIn(request).issuerId, request.params.id);
      return { ok: true as const };
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
