import type { RouteDef } from './routes';

/**
 * The routes of the pages before sign-in (login, two-factor, password reset, group branding), also
 * in ROUTES. A module of its own: the web's login page imports this small table rather than
 * ROUTES, which it would otherwise download whole before its form.
 */
export const SIGN_IN_ROUTES = {
  getGroup: {
    method: 'GET',
    path: '/api/limited/group',
    auth: 'public',
    permission: null,
    allowDuringSetup: true,
  },
  login: {
    method: 'POST',
    path: '/api/login/limited',
    auth: 'public',
    permission: null,
    allowDuringSetup: true,
  },
  login2fa: {
    method: 'POST',
    path: '/api/login/limited-2fa',
    auth: 'public',
    permission: null,
    allowDuringSetup: true,
  },
  requestPasswordReset: {
    method: 'POST',
    path: '/api/limited/password',
    auth: 'public',
    permission: null,
    allowDuringSetup: true,
  },
  checkPasswordReset: {
    method: 'GET',
    path: '/api/limited/password/reset/:hash',
    auth: 'public',
    permission: null,
    allowDuringSetup: true,
  },
  resetPassword: {
    method: 'POST',
    path: '/api/limited/password/reset',
    auth: 'public',
    permission: null,
    allowDuringSetup: true,
  },
} as const satisfies Record<string, RouteDef>;
