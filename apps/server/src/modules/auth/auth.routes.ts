import {
  checkPasswordResetParamsSchema,
  getGroupQuerySchema,
  getGroupResponseSchema,
  login2faBodySchema,
  login2faResponseSchema,
  loginBodySchema,
  loginResponseSchema,
  okResponseSchema,
  requestPasswordResetBodySchema,
  resetPasswordBodySchema,
} from '@portal/contracts';
import { okAfter, routeModule, signedIn, signInRoutes } from '../../routes/define';
import * as auth from './auth.service';

/** Sign-in, sign-out and password reset links (spec §8): HTTP only; the rules are in auth.service.ts. */
export const authRoutes = routeModule(['auth'], (route, ctx) => {
  route(
    'getGroup',
    'Branding of a login group (`limited/group&group=` works as well as `?group=`)',
    { querystring: getGroupQuerySchema, ok: getGroupResponseSchema },
    async (request) => auth.getGroup(ctx, request.query.group),
  );
  signInRoutes(route, ctx, {
    password: {
      op: 'login',
      summary: 'Sign in with username and password',
      body: loginBodySchema,
      ok: loginResponseSchema,
      signIn: auth.login,
    },
    twoFactor: {
      op: 'login2fa',
      summary: 'Second sign-in step: the first-step token and a TOTP code',
      body: login2faBodySchema,
      ok: login2faResponseSchema,
      signIn: auth.login2fa,
    },
    signOut: {
      op: 'logout',
      summary: 'End this session',
      end: (request) => auth.logout(ctx, signedIn(request), request.ip),
    },
  });
  route(
    'requestPasswordReset',
    'E-mail a single-use password reset link (404 for an unknown username, spec §8)',
    { body: requestPasswordResetBodySchema, ok: okResponseSchema },
    async (request) =>
      okAfter(
        auth.requestPasswordReset(ctx, request.body.username, request.ip, (line) => request.log.info(line)),
      ),
  );
  route(
    'checkPasswordReset',
    'Whether a reset link can still be used',
    { params: checkPasswordResetParamsSchema, ok: okResponseSchema },
    async (request) => okAfter(auth.checkPasswordReset(ctx, request.params.hash)),
  );
  route(
    'resetPassword',
    'Set a new password through a reset link; ends every session of the user',
    { body: resetPasswordBodySchema, validationCode: 'account.invalid_new_password', ok: okResponseSchema },
    async (request) => okAfter(auth.resetPassword(ctx, request.body, request.ip)),
  );
});
