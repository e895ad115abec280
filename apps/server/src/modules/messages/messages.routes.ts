import {
  createMessageBodySchema,
  createMessageResponseSchema,
  idParamsSchema,
  listMessagesQuerySchema,
  listMessagesResponseSchema,
  okResponseSchema,
} from '@portal/contracts';
import { issuerItemOk, routeModule, signedIn } from '../../routes/define';
import { headerLanguage, readerLanguage } from '../../services/notices';
import * as messages from './messages.service';

/** Messages (spec §2): HTTP only; the rules are in messages.service.ts. */
export const messageRoutes = routeModule(['messages'], (route, ctx) => {
  route(
    'listMessages',
    "The issuer's messages, newest first, or one invoice's thread; with the unread count",
    { querystring: listMessagesQuerySchema, ok: listMessagesResponseSchema },
    async (request) =>
      messages.listMessages(ctx.db, signedIn(request), request.query, headerLanguage(request)),
  );
  route(
    'createMessage',
    'Write to us, about one of the issuer’s invoices or in general',
    { body: createMessageBodySchema, validationCode: 'messages.invalid', ok: createMessageResponseSchema },
    async (request) =>
      messages.createMessage(
        ctx.db,
        signedIn(request),
        request.body,
        (stored) => readerLanguage(request, stored),
        ctx.now(),
      ),
  );
  route(
    'markMessageRead',
    'Mark one of the issuer’s messages read',
    { params: idParamsSchema, ok: okResponseSchema },
    issuerItemOk(ctx, messages.markMessageRead),
  );
});
