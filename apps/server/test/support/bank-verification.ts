import { enableTwoFactorResponseSchema } from '@portal/contracts';
import { bearer, PUBLIC_URL, type TestApp } from './test-app';
import { totpCode } from './totp-code';

/**
 * Bank-account verification as a person does it (issue #13), for tests outside the module: the real
 * client against the test app's sandbox provider over HTTP, no shortcut into the tables.
 */

/** Starts a verification at `bankId`; answers the provider's hosted-page link. */
export async function startVerification(t: TestApp, token: string, bankId: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/limited/bank-verification/start',
    headers: bearer(token),
    payload: { bankId, language: 'sv-SE' },
  });
  if (res.statusCode !== 200) throw new Error(`start: ${res.statusCode} ${res.body}`);
  return String((res.json() as { redirectUrl: string }).redirectUrl);
}

/** The person sends the provider's hosted page with `action` (and `account`); the answer, not followed. */
export function submitHostedPage(link: string, action: string, account?: string): Promise<Response> {
  return fetch(link, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action, ...(account ? { account } : {}) }).toString(),
  });
}

/** The person on the provider's hosted page; answers the query the browser comes back to us with. */
export async function atTheBank(
  link: string,
  action: string,
  account?: string,
): Promise<Record<string, string>> {
  const page = await fetch(link);
  if (page.status !== 200) throw new Error(`hosted page: ${page.status}`);
  const res = await submitHostedPage(link, action, account);
  const back = new URL(String(res.headers.get('location')));
  if (res.status !== 303 || `${back.origin}${back.pathname}` !== `${PUBLIC_URL}/verify-bank-account-success`)
    throw new Error(`hosted page answered ${res.status} ${back}`);
  return Object.fromEntries(back.searchParams);
}

/** The success page hands the query to the server. */
export function completeVerification(t: TestApp, token: string, query: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/limited/bank-verification/callback',
    headers: bearer(token),
    payload: query,
  });
}

/**
 * The whole flow for the user `username` choosing `account` at `bankId` and approving; answers the
 * callback's answer and the query (its state).
 */
export async function verifyAccount(
  t: TestApp,
  token: string,
  bankId: string,
  account: string,
): Promise<{ status: string; body: Record<string, unknown>; query: Record<string, string> }> {
  const query = await atTheBank(await startVerification(t, token, bankId), 'approve', account);
  const res = await completeVerification(t, token, query);
  if (res.statusCode !== 200) throw new Error(`callback: ${res.statusCode} ${res.body}`);
  const body = res.json() as Record<string, unknown>;
  return { status: String(body.status), body, query };
}

/** Turns two-factor on for the signed-in user (setup and first code); answers the secret. */
export async function enableTwoFactor(t: TestApp, token: string): Promise<string> {
  const res = await t.app.inject({ url: '/api/limited/2fa/enable', headers: bearer(token) });
  if (res.statusCode !== 200) throw new Error(`2fa enable: ${res.statusCode} ${res.body}`);
  const { secret } = enableTwoFactorResponseSchema.parse(res.json());
  const verified = await t.app.inject({
    method: 'POST',
    url: '/api/limited/2fa/verify',
    headers: bearer(token),
    payload: { code: totpCode(secret, t.clock.now()) },
  });
  if (verified.statusCode !== 200) throw new Error(`2fa verify: ${verified.statusCode} ${verified.body}`);
  return secret;
}
