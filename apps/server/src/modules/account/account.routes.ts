import {
  changePasswordBodySchema,
  disableTwoFactorBodySchema,
  enableTwoFactorResponseSchema,
  getSelfResponseSchema,
  okResponseSchema,
  saveIssuerInfoBodySchema,
  saveIssuerInfoResponseSchema,
  verifyTwoFactorBodySchema,
} from '@portal/contracts';
import type { AuthContext } from '../../context';
import { okAfter, routeModule, routesOn, signedIn } from '../../routes/define';
import { readerLanguage } from '../../services/notices';
import * as account from './account.service';

/** The signed-in user's account and two-factor (spec §2): HTTP only; the rules are in account.service.ts. */
export const accountRoutes = routeModule(['account'], (route, ctx, fastify) => {
  const twoFactorRoute = routesOn(fastify, ['two-factor']);
  /** A two-factor step by a code from the app (verify, disable): `{ ok: true }` once `step` is done. */
  const byCode =
    (step: typeof account.verifyTwoFactor) =>
    async (request: { auth: AuthContext | null; body: { code: string }; ip: string }) =>
      okAfter(step(ctx, signedIn(request), request.body.code, request.ip));

  route(
    'getSelf',
    'The signed-in user with abilities, issuer, group, tax rates, currencies and messages',
    { ok: getSelfResponseSchema },
    async (request) =>
      account.getSelf(ctx, signedIn(request).userId, (stored) => readerLanguage(request, stored)),
  );
  route(
    'changePassword',
    'Change the password (412 wrong old, 400 invalid new); ends the other sessions',
    { body: changePasswordBodySchema, validationCode: 'account.invalid_new_password', ok: okResponseSchema },
    async (request) => okAfter(account.changePassword(ctx, signedIn(request), request.body, request.ip)),
  );
  route(
    'saveIssuerInfo',
    "Save the caller's company details (the organisation number cannot change)",
    { body: saveIssuerInfoBodySchema, validationCode: 'issuer.invalid', ok: saveIssuerInfoResponseSchema },
    async (request) => account.saveIssuerInfo(ctx, signedIn(request), request.body, request.ip),
  );
  twoFactorRoute(
    'enableTwoFactor',
    'Start two-factor setup: a new secret, its QR image (data URL) and the secret for typing',
    { ok: enableTwoFactorResponseSchema },
    async (request) => account.enableTwoFactor(ctx, signedIn(request), request.ip),
  );
  twoFactorRoute(
    'cancelTwoFactorSetup',
    'Cancel a two-factor setup in progress',
    { ok: okResponseSchema },
    async (request) => okAfter(account.cancelTwoFactorSetup(ctx, signedIn(request), request.ip)),
  );
  twoFactorRoute(
    'verifyTwoFactor',
    'Finish setup with a code from the app: two-factor is on from now',
    { body: verifyTwoFactorBodySchema, validationCode: 'twoFactor.invalid_code', ok: okResponseSchema },
    byCode(account.verifyTwoFactor),
  );
  twoFactorRoute(
    'disableTwoFactor',
    'Turn two-factor off with a current code (refused when the account must use it; wrong codes are throttled)',
    { body: disableTwoFactorBodySchema, validationCode: 'twoFactor.invalid_code', ok: okResponseSchema },
    byCode(account.disableTwoFactor),
  );
});
