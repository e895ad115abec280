import type { LightMyRequestResponse } from 'fastify';
import { DEMO_PASSWORD } from '../../src/db/seed/demo';
import type { TestApp } from './test-app';

/**
 * The customer sign-in's first step as the browser sends it (`POST /api/login/limited`), the answer as
 * it comes: a test checks the status, the step token or the error itself. `t.login` is the short way
 * for a user without two-factor.
 */
export function passwordStep(
  t: TestApp,
  username: string,
  password = DEMO_PASSWORD,
): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: '/api/login/limited', payload: { username, password } });
}

/** The second step of a two-factor sign-in (`POST /api/login/limited-2fa`): the step token and a code. */
export function codeStep(t: TestApp, token: string, code: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: '/api/login/limited-2fa', payload: { token, code } });
}
