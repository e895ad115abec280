import { enableTwoFactorResponseSchema, loginResponseSchema } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NEW_PASSWORD } from '../../../test/support/route-samples';
import { codeStep, passwordStep } from '../../../test/support/sign-in';
import { MINUTE, resetTokenOf } from '../../../test/support/test-app';
import { totpCode, wrongCode } from '../../../test/support/totp-code';
import { useTestApp } from '../../../test/support/use-test-app';
import { users } from '../../db/schema';
import { DEMO_PASSWORD } from '../../db/seed/demo';
import * as passwords from '../../lib/passwords';

// The real hasher, counted: how many argon2 hashes and checks a request cost is what these guards are for.
vi.mock('../../lib/passwords', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../lib/passwords')>();
  return { ...real, hashPassword: vi.fn(real.hashPassword), verifyPassword: vi.fn(real.verifyPassword) };
});
const hashCalls = () => vi.mocked(passwords.hashPassword).mock.calls.length;
const verifyCalls = () => vi.mocked(passwords.verifyPassword).mock.calls.length;

const t = useTestApp({ resetEach: true });
beforeEach(async () => {
  vi.mocked(passwords.hashPassword).mockClear();
  vi.mocked(passwords.verifyPassword).mockClear();
});

const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
  t.call(token, method, url, payload);

const changePassword = (token: string, old: string, next = NEW_PASSWORD) =>
  call('POST', '/api/limited/account', token, { old, new: next });

type Answer = Awaited<ReturnType<typeof call>>;

function expectRefused(res: Answer, code: string): void {
  expect(res.statusCode).toBe(429);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(res.json()).toEqual({ code, retryAfterSeconds: Number(res.headers['retry-after']) });
}

describe('the old-password check of a password change', () => {
  beforeEach(() => {
    Object.assign(t.throttle, { perUsername: 5, perIp: 100, windowMinutes: 15 });
  });

  it('refuses after the limit of wrong guesses, even the right password, without checking it', async () => {
    const token = await t.login('demo');
    for (let i = 0; i < 5; i++) expect((await changePassword(token, `Fel-lösen-${i}`)).statusCode).toBe(412);
    const checked = verifyCalls();
    for (let i = 0; i < 7; i++)
      expectRefused(await changePassword(token, `Fel-lösen-${i}`), 'account.too_many_attempts');
    const right = await changePassword(token, DEMO_PASSWORD);
    expectRefused(right, 'account.too_many_attempts');
    expect(right.headers['retry-after']).toBe(String(15 * 60));
    expect(verifyCalls()).toBe(checked);
    // Another user is not affected; the window passing opens it again.
    expect((await changePassword(await t.login('demo-limited'), DEMO_PASSWORD)).statusCode).toBe(200);
    t.clock.advance(15 * MINUTE);
    expect((await changePassword(token, DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('gives at most the limit of verdicts to guesses arriving at once', async () => {
    const token = await t.login('demo');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => changePassword(token, `Fel-lösen-${i}`)),
    );
    expect(answers.filter((r) => r.statusCode === 412)).toHaveLength(5);
    for (const res of answers.filter((r) => r.statusCode !== 412))
      expectRefused(res, 'account.too_many_attempts');
  });

  it('starts counting again after a right old password', async () => {
    const token = await t.login('demo');
    for (let i = 0; i < 4; i++) await changePassword(token, 'Fel-lösen-1');
    expect((await changePassword(token, DEMO_PASSWORD, NEW_PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await changePassword(token, 'Fel-lösen-1')).statusCode).toBe(412);
    expectRefused(await changePassword(token, NEW_PASSWORD, 'Tredje-Lösen-3'), 'account.too_many_attempts');
  });
});

describe('turning two-factor off', () => {
  /** Signs in demo, sets two-factor up and returns the session and the secret. */
  async function withTwoFactor(): Promise<{ token: string; secret: string }> {
    const token = await t.login('demo');
    const start = await call('GET', '/api/limited/2fa/enable', token);
    const { secret } = enableTwoFactorResponseSchema.parse(start.json());
    const verified = await call('POST', '/api/limited/2fa/verify', token, {
      code: totpCode(secret, t.clock.now()),
    });
    expect(verified.statusCode).toBe(200);
    return { token, secret };
  }

  async function twoFactorOn(): Promise<boolean> {
    const [row] = await t.db.select({ s: users.totpSecret }).from(users).where(eq(users.username, 'demo'));
    return row?.s !== null && row?.s !== undefined;
  }

  it('needs a current code: none, a malformed one, a wrong one and a spent one leave it on', async () => {
    const { token, secret } = await withTwoFactor();
    for (const body of [undefined, {}, { code: '12ab56' }, { code: '1234567' }]) {
      const res = await call('POST', '/api/limited/2fa/disable', token, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'twoFactor.invalid_code' });
    }
    const wrong = await call('POST', '/api/limited/2fa/disable', token, {
      code: wrongCode(secret, t.clock.now()),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ code: 'twoFactor.invalid_code' });
    // The code that finished the setup is spent, as at sign-in.
    const replay = await call('POST', '/api/limited/2fa/disable', token, {
      code: totpCode(secret, t.clock.now()),
    });
    expect(replay.json()).toEqual({ code: 'twoFactor.invalid_code' });
    expect(await twoFactorOn()).toBe(true);

    t.clock.advance(30_000);
    const off = await call('POST', '/api/limited/2fa/disable', token, {
      code: totpCode(secret, t.clock.now()),
    });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ ok: true });
    expect(await twoFactorOn()).toBe(false);
  });

  it('refuses wrong codes beyond the limit, also those arriving at once', async () => {
    Object.assign(t.throttle, { perUsername: 5, perIp: 100, windowMinutes: 15 });
    const { token, secret } = await withTwoFactor();
    const bad = wrongCode(secret, t.clock.now());
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => call('POST', '/api/limited/2fa/disable', token, { code: bad })),
    );
    expect(answers.filter((r) => r.statusCode === 400)).toHaveLength(5);
    for (const res of answers.filter((r) => r.statusCode !== 400))
      expectRefused(res, 'account.too_many_attempts');
    t.clock.advance(30_000);
    expectRefused(
      await call('POST', '/api/limited/2fa/disable', token, { code: totpCode(secret, t.clock.now()) }),
      'account.too_many_attempts',
    );
    expect(await twoFactorOn()).toBe(true);
  });

  it('GET disable (cancel setup) leaves an enabled two-factor on', async () => {
    const { token, secret } = await withTwoFactor();
    const cancel = await call('GET', '/api/limited/2fa/disable', token);
    expect(cancel.statusCode).toBe(200);
    expect(await twoFactorOn()).toBe(true);
    // Sign-in still asks for the code, and the old secret still answers it.
    const login = await passwordStep(t, 'demo');
    const step = loginResponseSchema.parse(login.json());
    expect(step.requireTwoFactor).toBe(true);
    t.clock.advance(30_000);
    const second = await codeStep(t, step.token, totpCode(secret, t.clock.now()));
    expect(second.statusCode).toBe(200);
  });
});

describe('setting a password through a reset link', () => {
  const useLink = (hash: string, password = NEW_PASSWORD, remoteAddress = '10.9.0.1') =>
    t.app.inject({
      method: 'POST',
      url: '/api/limited/password/reset',
      payload: { hash, new: password },
      remoteAddress,
    });
  const fakeLink = (i: number) => `${'x'.repeat(40)}${String(i).padStart(3, '0')}`;

  it('does not hash for a link that does not exist, and refuses an address after the limit', async () => {
    Object.assign(t.throttle, { perUsername: 5, perIp: 10, windowMinutes: 15 });
    const started = performance.now();
    const answers: Answer[] = [];
    for (let i = 0; i < 50; i++) answers.push(await useLink(fakeLink(i)));
    const elapsed = performance.now() - started;
    expect(answers.slice(0, 10).map((r) => r.statusCode)).toEqual(Array(10).fill(404));
    for (const res of answers.slice(0, 10)) expect(res.json()).toEqual({ code: 'password.reset_not_found' });
    for (const res of answers.slice(10)) expectRefused(res, 'auth.too_many_attempts');
    expect(hashCalls()).toBe(0);
    // Queries only: far below what 50 argon2 hashes (tens of ms each) would take even on a busy machine.
    expect(elapsed).toBeLessThan(10_000);
    // Another address goes on.
    expect((await useLink(fakeLink(99), NEW_PASSWORD, '10.9.0.2')).statusCode).toBe(404);
  });

  it('holds the limit under concurrency', async () => {
    Object.assign(t.throttle, { perUsername: 5, perIp: 5, windowMinutes: 15 });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => useLink(fakeLink(i))));
    expect(answers.filter((r) => r.statusCode === 404)).toHaveLength(5);
    for (const res of answers.filter((r) => r.statusCode !== 404))
      expectRefused(res, 'auth.too_many_attempts');
    expect(hashCalls()).toBe(0);
  });

  it('hashes once for a good link, which does not count against the address', async () => {
    Object.assign(t.throttle, { perUsername: 5, perIp: 2, windowMinutes: 15 });
    for (let i = 0; i < 3; i++) {
      const asked = await t.app.inject({
        method: 'POST',
        url: '/api/limited/password',
        payload: { username: ['demo', 'demo-limited', 'demo-other'][i] },
      });
      expect(asked.statusCode).toBe(200);
    }
    const links = t.mailer.sent.map((m) => resetTokenOf(m));
    expect((await useLink(fakeLink(1))).statusCode).toBe(404);
    for (const link of links) expect((await useLink(link)).statusCode).toBe(200);
    expect(hashCalls()).toBe(3);
    expect((await useLink(fakeLink(2))).statusCode).toBe(404);
    expectRefused(await useLink(links[0] ?? ''), 'auth.too_many_attempts');
    expect(hashCalls()).toBe(3);
  });
});
