import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from './env';

/** The signed-in customer's bearer token, as the app keeps it, for calls a spec makes over the API. */
export async function sessionToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => JSON.parse(window.localStorage.getItem('token') ?? 'null'));
  expect(typeof token).toBe('string');
  return token as string;
}

/** Signs the back office's demo operator in over the API and returns the session token. */
export async function operatorToken(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/backoffice/login', {
    data: { username: 'operator', password: DEMO_PASSWORD },
  });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { requireTwoFactor: boolean; token: string };
  expect(body.requireTwoFactor).toBe(false);
  return body.token;
}
