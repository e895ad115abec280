import {
  completeBankVerificationBodySchema,
  completeBankVerificationResponseSchema,
  confirmBankAccountChangeBodySchema,
  DEFAULT_LANGUAGE,
  getBankVerificationResponseSchema,
  listVerificationBanksResponseSchema,
  receiveBankVerificationWebhookBodySchema,
  startBankVerificationBodySchema,
  startBankVerificationResponseSchema,
} from '@portal/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from '../../lib/errors';
import { errorResponses, routeOf, signedIn } from '../../routes/define';
import {
  type Caller,
  completeBankVerification,
  confirmBankAccountChange,
  getBankVerification,
  listVerificationBanks,
  receiveBankVerificationWebhook,
  startBankVerification,
} from './bank-verification.service';

const callerOf = (request: FastifyRequest): Caller => {
  const auth = signedIn(request);
  return { userId: auth.userId, issuerId: auth.issuerId, username: auth.username, ip: request.ip };
};

/** Bank-account verification (issue #13): HTTP only; the service holds the rules. */
export async function bankVerificationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;

  app.route({
    ...routeOf('getBankVerification'),
    schema: {
      tags: ['bank-verification'],
      summary: 'The issuer’s current verified bank account (masked), or null',
      response: { 200: getBankVerificationResponseSchema, ...errorResponses },
    },
    handler: async (request) => getBankVerification(ctx.db, signedIn(request).issuerId),
  });

  app.route({
    ...routeOf('listVerificationBanks'),
    schema: {
      tags: ['bank-verification'],
      summary:
        'The banks of the issuer’s country at the provider, with name and logo; 502 `bankVerification.banks_unavailable` when the provider fails',
      response: { 200: listVerificationBanksResponseSchema, ...errorResponses },
    },
    handler: async (request) => listVerificationBanks(ctx, signedIn(request).issuerId, request.log),
  });

  app.route({
    ...routeOf('startBankVerification'),
    schema: {
      tags: ['bank-verification'],
      summary:
        'Starts a verification with the chosen bank; the browser goes to `redirectUrl`. 502 `bankVerification.start_failed` when the provider fails',
      body: startBankVerificationBodySchema,
      response: { 200: startBankVerificationResponseSchema, ...errorResponses },
    },
    handler: async (request) =>
      startBankVerification(
        ctx,
        callerOf(request),
        { bankId: request.body.bankId, language: request.body.language ?? DEFAULT_LANGUAGE },
        request.log,
      ),
  });

  app.route({
    ...routeOf('completeBankVerification'),
    schema: {
      tags: ['bank-verification'],
      summary:
        'The provider’s callback as the success page read it: decides once and answers the outcome; a replay answers the stored outcome',
      body: completeBankVerificationBodySchema,
      response: { 200: completeBankVerificationResponseSchema, ...errorResponses },
    },
    handler: async (request) => completeBankVerification(ctx, callerOf(request), request.body),
  });

  app.route({
    ...routeOf('confirmBankAccountChange'),
    schema: {
      operationId: 'confirmBankAccountChange',
      tags: ['bank-verification'],
      summary:
        'Confirms with a two-factor code that the newly verified account replaces the issuer’s verified one; 400 `twoFactor.invalid_code` for a wrong or spent code, 409 `bankVerification.not_confirming` when nothing waits',
      body: confirmBankAccountChangeBodySchema,
      response: { 200: completeBankVerificationResponseSchema, ...errorResponses },
    },
    handler: async (request) => confirmBankAccountChange(ctx, callerOf(request), request.body),
  });

  await app.register(webhookRoute);
}

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

/**
 * The webhook in a context of its own: its JSON parser keeps the raw body, which the signature is
 * computed over (a re-serialised body would not match byte for byte).
 */
async function webhookRoute(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.rawBody = String(body);
    try {
      done(null, JSON.parse(String(body)));
    } catch {
      done(new ApiError('validation.invalid'), undefined);
    }
  });
  app.route({
    ...routeOf('receiveBankVerificationWebhook'),
    schema: {
      tags: ['bank-verification'],
      summary:
        'The provider’s signed notice that a session ended (header `X-Webhook-Signature: t=…,v1=…`); 401 `bankVerification.signature_invalid` otherwise',
      body: receiveBankVerificationWebhookBodySchema,
      response: { 200: z.object({ received: z.literal(true) }), ...errorResponses },
    },
    handler: async (request) => {
      const signature = request.headers['x-webhook-signature'];
      return receiveBankVerificationWebhook(ctx, {
        rawBody: request.rawBody ?? '',
        signature: typeof signature === 'string' ? signature : '',
        sessionId: request.body.session_id,
        ip: request.ip,
      });
    },
  });
}
