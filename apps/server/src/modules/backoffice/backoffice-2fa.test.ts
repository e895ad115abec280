import { backofficeLogin2faResponseSchema, backofficeLoginResponseSchema } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { passwordStep } from '../../../test/support/sign-in';
import { bearer, createTestApp, type TestApp } from '../../../test/support/test-app';
import { totpCode, wrongCode } from '../../../test/support/totp-code';
import { useTestApp } from '../../../test/support/use-test-app';
import { EXIT, runBackoffice } from '../../cli/backoffice';
import { OPERATOR_EXIT, runOperators } from '../../cli/operators';
import { auditLog, operatorSessions } from '../../db/schema';
import { DEMO_PASSWORD } from '../../db/seed/demo';

const t = useTestApp({ resetEach: true });

const login = (username = 'operator', password = DEMO_PASSWORD) =>
  t.app.inject({ method: 'POST', url: '/api/backoffice/login', payload: { username, password } });
const second = (token: string, code: string) =>
  t.app.inject({ method: 'POST', url: '/api/backoffice/login-2fa', payload: { token, code } });
const pending = (token: string) =>
  t.app.inject({ url: '/api/backoffice/invoices/pending-decision', headers: bearer(token) });

/** Turns two-factor on for the demo operator through the operators command; returns the secret. */
async function enable(app: TestApp = t): Promise<string> {
  const out: string[] = [];
  const code = await runOperators(
    ['enable-2fa', 'operator'],
    {},
    { out: (l) => out.push(l), err: () => {} },
    app.db,
    app.config.secretKey,
    app.clock.now(),
  );
  expect(code).toBe(OPERATOR_EXIT.ok);
  const line = out.find((l) => l.startsWith('secret (shown once): '));
  if (!line) throw new Error(`no secret in ${out.join('\n')}`);
  expect(out.join('\n')).toContain('otpauth://totp/');
  return line.slice('secret (shown once): '.length);
}

describe('operator two-factor', () => {
  it('asks for the code after the password; the step token opens nothing; the code gives the session', async () => {
    const secret = await enable();
    const first = await login();
    expect(first.statusCode, first.body).toBe(200);
    const step = backofficeLoginResponseSchema.parse(first.json());
    expect(step).toMatchObject({ requireTwoFactor: true });
    expect(step.operator).toBeUndefined();
    expect((await pending(step.token)).statusCode).toBe(401);

    const done = await second(step.token, totpCode(secret, t.clock.now()));
    expect(done.statusCode, done.body).toBe(200);
    const body = backofficeLogin2faResponseSchema.parse(done.json());
    expect(body.operator.username).toBe('operator');
    expect((await pending(body.token)).statusCode).toBe(200);
    // The step token is spent.
    expect((await second(step.token, totpCode(secret, t.clock.now()))).json()).toEqual({
      code: 'auth.two_factor_token_expired',
    });
  });

  it('accepts a code once, counts wrong codes and ends the step after five', async () => {
    const secret = await enable();
    const now = t.clock.now();
    const a = backofficeLoginResponseSchema.parse((await login()).json()).token;
    const code = totpCode(secret, now);
    expect((await second(a, code)).statusCode).toBe(200);
    const b = backofficeLoginResponseSchema.parse((await login()).json()).token;
    expect((await second(b, code)).json()).toEqual({ code: 'auth.invalid_code' });
    for (let i = 0; i < 4; i++) expect((await second(b, wrongCode(secret, now))).statusCode).toBe(401);
    t.clock.advance(31_000);
    expect((await second(b, totpCode(secret, t.clock.now()))).json()).toEqual({
      code: 'auth.two_factor_token_expired',
    });
    const failures = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.event, 'backoffice.login.two_factor_failed'));
    expect(failures).toHaveLength(5);
  });

  it('a customer step token is no operator step token', async () => {
    await enable();
    const customer = await passwordStep(t, 'demo-2fa');
    const token = customer.json().token as string;
    expect((await second(token, '123456')).json()).toEqual({ code: 'auth.two_factor_token_expired' });
  });

  it('enabling ends the open sessions; disabling lets the password alone in again', async () => {
    const before = backofficeLoginResponseSchema.parse((await login()).json()).token;
    await enable();
    expect((await pending(before)).statusCode).toBe(401);
    const code = await runOperators(
      ['disable-2fa', 'operator'],
      {},
      { out: () => {}, err: () => {} },
      t.db,
      t.config.secretKey,
    );
    expect(code).toBe(OPERATOR_EXIT.ok);
    const after = backofficeLoginResponseSchema.parse((await login()).json());
    expect(after.requireTwoFactor).toBe(false);
    expect((await pending(after.token)).statusCode).toBe(200);
  });

  it('the back-office CLI signs in with --code', async () => {
    const secret = await enable();
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const out: string[] = [];
      const err: string[] = [];
      const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
      const env = { BACKOFFICE_USER: 'operator', BACKOFFICE_PASSWORD: DEMO_PASSWORD, BACKOFFICE_URL: base };
      expect(await runBackoffice(['pending'], env, io)).toBe(EXIT.auth);
      expect(err.join('\n')).toContain('two-factor');
      const code = totpCode(secret, t.clock.now());
      expect(await runBackoffice(['pending', '--code', code], env, io)).toBe(EXIT.ok);
      expect(out.join('\n')).toMatch(/awaiting a decision/);
    } finally {
      await t.app.close();
    }
  });
});

describe('BACKOFFICE_TWO_FACTOR=required', () => {
  it('refuses an operator without two-factor and lets one with it in', async () => {
    const strict = await createTestApp({ env: { BACKOFFICE_TWO_FACTOR: 'required' } });
    try {
      const refused = await strict.app.inject({
        method: 'POST',
        url: '/api/backoffice/login',
        payload: { username: 'operator', password: DEMO_PASSWORD },
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ code: 'auth.setup_required' });
      expect(await strict.db.select().from(operatorSessions)).toHaveLength(0);
      await enable(strict);
      const step = await strict.app.inject({
        method: 'POST',
        url: '/api/backoffice/login',
        payload: { username: 'operator', password: DEMO_PASSWORD },
      });
      expect(step.json()).toMatchObject({ requireTwoFactor: true });
    } finally {
      await strict.close();
    }
  });
});
