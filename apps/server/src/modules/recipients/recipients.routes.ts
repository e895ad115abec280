import {
  listRecipientsQuerySchema,
  listRecipientsResponseSchema,
  recipientBodySchema,
  recipientSchema,
  searchCompaniesQuerySchema,
  searchCompaniesResponseSchema,
} from '@portal/contracts';
import { ownedItemRoutes, routeModule } from '../../routes/define';
import * as recipientsService from './recipients.service';

/** The recipient routes: HTTP only (schema, call, answer); the rules are in recipients.service.ts. */
export const recipientRoutes = routeModule(['recipients'], (route, ctx) => {
  ownedItemRoutes(route, ctx, {
    validationCode: 'recipient.invalid',
    query: listRecipientsQuerySchema,
    page: listRecipientsResponseSchema,
    item: recipientSchema,
    body: recipientBodySchema,
    service: {
      list: recipientsService.listRecipients,
      get: recipientsService.getRecipient,
      save: recipientsService.saveRecipient,
      remove: recipientsService.deleteRecipient,
    },
    routes: {
      list: {
        op: 'listRecipients',
        summary: "The caller's recipients: search (name, organisation number, city, email), sort and pages",
      },
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

  route(
    'searchCompanies',
    'Look a company up by name or organisation number (too many matches: 422)',
    { querystring: searchCompaniesQuerySchema, ok: searchCompaniesResponseSchema },
    async (request) => ({ items: await recipientsService.searchCompanies(ctx.db, request.query.query) }),
  );
});
