import {
  completeBankVerificationBodySchema,
  completeBankVerificationResponseSchema,
  confirmBankAccountChangeBodySchema,
  DEFAULT_LANGUAGE,
  getBankVerificationResponseSchema,
  listVerificationBanksResponseSchema,
  receiveBankVerificationWebhookBodySchema,
  receivedResponseSchema,
  startBankVerificationBodySchema,
  startBankVerificationResponseSchema,
} from '@portal/contracts';
import { ApiError } from '../../lib/errors';
import { callerOf, routeModule, signedIn } from '../../routes/define';
import {
  completeBankVerification,
  confirmBankAccountChange,
  getBankVerification,
  listVerificationBanks,
  receiveBankVerificationWebhook,
  startBankVerification,
} from './bank-verification.service';

const tags = ['bank-verification'];

/** Bank-account verification (issue #13): HTTP only; the service holds the rules. */
export const bankVerificationRoutes = routeModule(tags, async (route, ctx, fastify) => {
  route(
    'getBankVerification',
    'The issuer’s current verified bank account (masked), or null',
    { ok: getBankVerificationResponseSchema },
    async (request) => getBankVerification(ctx.db, signedIn(request).issuerId),
  );
  route(
    'listVerificationBanks',
    'The banks of the issuer’s country at the provider, with name and logo; 502 `bankVerification.banks_unavailable` when the provider fails',
    { ok: listVerificationBanksResponseSchema },
    async (request) => listVerificationBanks(ctx, signedIn(request).issuerId, request.log),
  );
  route(
    'startBankVerification',
    'Starts a verification with the chosen bank; the browser goes to `redirectUrl`. 502 `bankVerification.start_failed` when the provider fails',
    { body: startBankVerificationBodySchema, ok: startBankVerificationResponseSchema },
    async (request) =>
      startBankVerification(
        ctx,
        callerOf(request),
        { bankId: request.body.bankId, language: request.body.language ?? DEFAULT_LANGUAGE },
        request.log,
      ),
  );
  route(
    'completeBankVerification',
    'The provider’s callback as the success page read it: decides once and answers the outcome; a replay answers the stored outcome',
    { body: completeBankVerificationBodySchema, ok: completeBankVerificationResponseSchema },
    async (request) => completeBankVerification(ctx, callerOf(request), request.body),
  );
  route(
    'confirmBankAccountChange',
    'Confirms with a two-factor code that the newly verified account replaces the issuer’s verified one; 400 `twoFactor.invalid_code` for a wrong or spent code, 409 `bankVerification.not_confirming` when nothing waits',
    { body: confirmBankAccountChangeBodySchema, ok: completeBankVerificationResponseSchema },
    async (request) => confirmBankAccountChange(ctx, callerOf(request), request.body),
  );

  await fastify.register(webhookRoute);
});

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

/**
 * The webhook in a context of its own: its JSON parser keeps the raw body, which the signature is
 * computed over (a re-serialised body would not match byte for byte).
 */
const webhookRoute = routeModule(tags, (route, ctx, fastify) => {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.rawBody = String(body);
    try {
      done(null, JSON.parse(String(body)));
    } catch {
      done(new ApiError('validation.invalid'), undefined);
    }
  });
  route(
    'receiveBankVerificationWebhook',
    'The provider’s signed notice that a session ended (header `X-Webhook-Signature: t=…,v1=…`); 401 `bankVerification.signature_invalid` otherwise',
    { body: receiveBankVerificationWebhookBodySchema, ok: receivedResponseSchema },
    async (request) => {
      const signature = request.headers['x-webhook-signature'];
      return receiveBankVerificationWebhook(ctx, {
        rawBody: request.rawBody ?? '',
        signature: typeof signature === 'string' ? signature : '',
        sessionId: request.body.session_id,
        ip: request.ip,
      });
    },
  );
});
