import {
  login2faResponseSchema,
  loginResponseSchema,
  SESSION_ABSOLUTE_HOURS,
  SESSION_IDLE_MINUTES,
  TWO_FACTOR_STEP_MAX_ATTEMPTS,
  TWO_FACTOR_STEP_MINUTES,
} from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { codeStep, passwordStep } from '../../../test/support/sign-in';
import { bearer, MINUTE, resetTokenOf, type TestApp } from '../../../test/support/test-app';
import { totpCode, wrongCode } from '../../../test/support/totp-code';
import { useTestApp } from '../../../test/support/use-test-app';
import { DEMO_PASSWORD, DEMO_TOTP_SECRET } from '../../db/seed/demo';

const NEW_PASSWORD = 'Nytt-Lösen-42';

function selfStatus(t: TestApp, token: string): Promise<number> {
  return t.app.inject({ url: '/api/self', headers: bearer(token) }).then((r) => r.statusCode);
}

/** First sign-in step of demo-2fa: the step token. */
async function twoFactorStep(t: TestApp): Promise<string> {
  const res = await passwordStep(t, 'demo-2fa', DEMO_PASSWORD);
  expect(res.statusCode).toBe(200);
  const body = loginResponseSchema.parse(res.json());
  expect(body.requireTwoFactor).toBe(true);
  expect(body.user).toBeUndefined();
  return body.token;
}

const t = useTestApp({ resetEach: true });

describe('sign-in with a password', () => {
  it('answers a session token and the user for the right password', async () => {
    const res = await passwordStep(t, 'demo', DEMO_PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = loginResponseSchema.parse(res.json());
    expect(body.requireTwoFactor).toBe(false);
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.user).toMatchObject({ username: 'demo', firstName: 'Dana', twoFactorEnabled: false });
    expect(await selfStatus(t, body.token)).toBe(200);
  });

  it('gives every sign-in its own token', async () => {
    expect(await t.login('demo')).not.toBe(await t.login('demo'));
  });

  it('answers 401 auth.invalid_credentials for a wrong password', async () => {
    const res = await passwordStep(t, 'demo', 'Portal-demo-2');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'auth.invalid_credentials' });
  });

  it('answers the same 401 for an unknown username', async () => {
    const res = await passwordStep(t, 'no-such-user', DEMO_PASSWORD);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'auth.invalid_credentials' });
  });

  it('treats the password as case-sensitive', async () => {
    const res = await passwordStep(t, 'demo-limited', DEMO_PASSWORD.toLowerCase());
    expect(res.statusCode).toBe(401);
  });

  it.each(['DEMO', 'Demo', '  demo  '])(
    'finds the username %j case-insensitively and trimmed',
    async (name) => {
      const res = await passwordStep(t, name, DEMO_PASSWORD);
      expect(res.statusCode).toBe(200);
      expect(loginResponseSchema.parse(res.json()).user?.username).toBe('demo');
    },
  );

  it('answers 400 validation.invalid for a body without a password', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login/limited',
      payload: { username: 'demo' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation.invalid', issues: [{ path: 'password' }] });
  });

  it('gives demo-new (initial password, forced two-factor) a session without a code', async () => {
    const res = await passwordStep(t, 'demo-new', DEMO_PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = loginResponseSchema.parse(res.json());
    expect(body.requireTwoFactor).toBe(false);
    expect(body.user).toMatchObject({ lastPasswordChange: null, force2fa: true, twoFactorEnabled: false });
  });
});

describe('two-factor sign-in', () => {
  it('asks for a code, then gives a session for the right one', async () => {
    const step = await twoFactorStep(t);
    const res = await codeStep(t, step, totpCode(DEMO_TOTP_SECRET, t.clock.now()));
    expect(res.statusCode).toBe(200);
    const body = login2faResponseSchema.parse(res.json());
    expect(body.user).toMatchObject({ username: 'demo-2fa', twoFactorEnabled: true });
    expect(body.token).not.toBe(step);
    expect(await selfStatus(t, body.token)).toBe(200);
  });

  it('refuses the step token as a bearer token', async () => {
    const step = await twoFactorStep(t);
    expect(await selfStatus(t, step)).toBe(401);
    const res = await t.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(step) });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'auth.unauthorized' });
    // Still usable for its one purpose.
    expect((await codeStep(t, step, totpCode(DEMO_TOTP_SECRET, t.clock.now()))).statusCode).toBe(200);
  });

  it('refuses a session token in place of a step token', async () => {
    const session = await t.login('demo');
    const res = await codeStep(t, session, totpCode(DEMO_TOTP_SECRET, t.clock.now()));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'auth.two_factor_token_expired' });
  });

  it('answers 401 auth.invalid_code for a wrong code and still takes the right one', async () => {
    const step = await twoFactorStep(t);
    const wrong = await codeStep(t, step, wrongCode(DEMO_TOTP_SECRET, t.clock.now()));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ code: 'auth.invalid_code' });
    expect((await codeStep(t, step, totpCode(DEMO_TOTP_SECRET, t.clock.now()))).statusCode).toBe(200);
  });

  it('answers 400 for a code that is not six digits', async () => {
    const step = await twoFactorStep(t);
    const res = await codeStep(t, step, '12345');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation.invalid', issues: [{ path: 'code' }] });
  });

  it('accepts a code once: the same code again is refused, the next period works', async () => {
    const code = totpCode(DEMO_TOTP_SECRET, t.clock.now());
    expect((await codeStep(t, await twoFactorStep(t), code)).statusCode).toBe(200);

    const replay = await codeStep(t, await twoFactorStep(t), code);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ code: 'auth.invalid_code' });

    t.clock.advance(30_000);
    const next = totpCode(DEMO_TOTP_SECRET, t.clock.now());
    expect(next).not.toBe(code);
    expect((await codeStep(t, await twoFactorStep(t), next)).statusCode).toBe(200);
  });

  it('spends the step token: it cannot sign in twice', async () => {
    const step = await twoFactorStep(t);
    expect((await codeStep(t, step, totpCode(DEMO_TOTP_SECRET, t.clock.now()))).statusCode).toBe(200);
    t.clock.advance(30_000);
    const again = await codeStep(t, step, totpCode(DEMO_TOTP_SECRET, t.clock.now()));
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ code: 'auth.two_factor_token_expired' });
  });

  it(`kills the step token after ${TWO_FACTOR_STEP_MAX_ATTEMPTS} wrong codes, even for the right code`, async () => {
    const step = await twoFactorStep(t);
    const wrong = wrongCode(DEMO_TOTP_SECRET, t.clock.now());
    for (let i = 0; i < TWO_FACTOR_STEP_MAX_ATTEMPTS; i++) {
      const res = await codeStep(t, step, wrong);
      expect(res.json()).toEqual({ code: 'auth.invalid_code' });
    }
    const right = await codeStep(t, step, totpCode(DEMO_TOTP_SECRET, t.clock.now()));
    expect(right.statusCode).toBe(401);
    expect(right.json()).toEqual({ code: 'auth.two_factor_token_expired' });
    // A new first step works.
    expect(
      (await codeStep(t, await twoFactorStep(t), totpCode(DEMO_TOTP_SECRET, t.clock.now()))).statusCode,
    ).toBe(200);
  });

  it(`still takes the right code after ${TWO_FACTOR_STEP_MAX_ATTEMPTS - 1} wrong ones`, async () => {
    const step = await twoFactorStep(t);
    const wrong = wrongCode(DEMO_TOTP_SECRET, t.clock.now());
    for (let i = 0; i < TWO_FACTOR_STEP_MAX_ATTEMPTS - 1; i++) await codeStep(t, step, wrong);
    expect((await codeStep(t, step, totpCode(DEMO_TOTP_SECRET, t.clock.now()))).statusCode).toBe(200);
  });

  it(`lets the step token expire after ${TWO_FACTOR_STEP_MINUTES} minutes`, async () => {
    const early = await twoFactorStep(t);
    const late = await twoFactorStep(t);
    t.clock.advance(TWO_FACTOR_STEP_MINUTES * MINUTE - 1000);
    expect((await codeStep(t, early, totpCode(DEMO_TOTP_SECRET, t.clock.now()))).statusCode).toBe(200);
    t.clock.advance(31_000);
    const res = await codeStep(t, late, totpCode(DEMO_TOTP_SECRET, t.clock.now()));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ code: 'auth.two_factor_token_expired' });
  });
});

describe('sessions', () => {
  it('ends the session at logout, and only that one', async () => {
    const token = await t.login('demo');
    const other = await t.login('demo');
    const res = await t.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await selfStatus(t, token)).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(token) })).statusCode,
    ).toBe(401);
    expect(await selfStatus(t, other)).toBe(200);
  });

  it(`expires after ${SESSION_IDLE_MINUTES} idle minutes`, async () => {
    const used = await t.login('demo');
    const idle = await t.login('demo');
    t.clock.advance((SESSION_IDLE_MINUTES - 1) * MINUTE);
    expect(await selfStatus(t, used)).toBe(200);
    t.clock.advance(MINUTE);
    expect(await selfStatus(t, idle)).toBe(401);
    expect(await selfStatus(t, used)).toBe(200);
  });

  it('slides the expiry forward with every use', async () => {
    const token = await t.login('demo');
    for (let i = 0; i < 4; i++) {
      t.clock.advance(50 * MINUTE);
      expect(await selfStatus(t, token)).toBe(200);
    }
    // 200 minutes after sign-in, far past a fixed 60; now idle for longer than the window.
    t.clock.advance(SESSION_IDLE_MINUTES * MINUTE + 1000);
    expect(await selfStatus(t, token)).toBe(401);
  });

  it(`never lives past ${SESSION_ABSOLUTE_HOURS} hours, however busy`, async () => {
    const token = await t.login('demo');
    const cap = SESSION_ABSOLUTE_HOURS * 60 * MINUTE;
    let elapsed = 0;
    while (elapsed + 50 * MINUTE < cap) {
      t.clock.advance(50 * MINUTE);
      elapsed += 50 * MINUTE;
      expect(await selfStatus(t, token)).toBe(200);
    }
    t.clock.advance(cap - elapsed - MINUTE);
    expect(await selfStatus(t, token)).toBe(200);
    t.clock.advance(MINUTE);
    expect(await selfStatus(t, token)).toBe(401);
    // The user can sign in again.
    expect(await selfStatus(t, await t.login('demo'))).toBe(200);
  });
});

describe('password reset', () => {
  function requestReset(username: string) {
    return t.app.inject({ method: 'POST', url: '/api/limited/password', payload: { username } });
  }
  function check(token: string) {
    return t.app.inject({ url: `/api/limited/password/reset/${token}` });
  }
  function reset(token: string, password: string) {
    return t.app.inject({
      method: 'POST',
      url: '/api/limited/password/reset',
      payload: { hash: token, new: password },
    });
  }

  it('mails a link that sets a new password once', async () => {
    const res = await requestReset('demo');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(t.mailer.sent).toHaveLength(1);
    const mail = t.mailer.sent[0];
    expect(mail?.to).toBe('dana@demobygg.se');
    const token = resetTokenOf(mail);

    expect((await check(token)).statusCode).toBe(200);
    const done = await reset(token, NEW_PASSWORD);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ ok: true });

    expect((await passwordStep(t, 'demo', DEMO_PASSWORD)).statusCode).toBe(401);
    expect((await passwordStep(t, 'demo', NEW_PASSWORD)).statusCode).toBe(200);

    const checkAgain = await check(token);
    expect(checkAgain.statusCode).toBe(404);
    expect(checkAgain.json()).toEqual({ code: 'password.reset_not_found' });
    const resetAgain = await reset(token, 'Tredje-Lösen-3');
    expect(resetAgain.statusCode).toBe(404);
    expect(resetAgain.json()).toEqual({ code: 'password.reset_not_found' });
    expect((await passwordStep(t, 'demo', NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('finds the username case-insensitively and writes to the user in their language', async () => {
    expect((await requestReset('DEMO-OTHER')).statusCode).toBe(200);
    const mail = t.mailer.sent[0];
    expect(mail?.to).toBe('olli@annanfirma.fi');
    expect(mail?.text).toContain('Olli');
    expect(resetTokenOf(mail)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('answers 404 password.user_not_found for an unknown username and mails nothing', async () => {
    const res = await requestReset('nobody');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'password.user_not_found' });
    expect(t.mailer.sent).toHaveLength(0);
  });

  it('answers 404 password.reset_not_found for an unknown link', async () => {
    const res = await check('A'.repeat(43));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'password.reset_not_found' });
    expect((await reset('A'.repeat(43), NEW_PASSWORD)).statusCode).toBe(404);
  });

  it('lets the link expire after an hour', async () => {
    await requestReset('demo');
    const token = resetTokenOf(t.mailer.sent[0]);
    t.clock.advance(59 * MINUTE);
    expect((await check(token)).statusCode).toBe(200);
    t.clock.advance(MINUTE);
    expect((await check(token)).statusCode).toBe(404);
    const res = await reset(token, NEW_PASSWORD);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'password.reset_not_found' });
    expect((await passwordStep(t, 'demo', DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it("ends every session and pending two-factor step of the user, not other users'", async () => {
    const a = await t.login('demo');
    const b = await t.login('demo');
    const someoneElse = await t.login('demo-limited');
    await requestReset('demo');
    expect((await reset(resetTokenOf(t.mailer.sent[0]), NEW_PASSWORD)).statusCode).toBe(200);
    expect(await selfStatus(t, a)).toBe(401);
    expect(await selfStatus(t, b)).toBe(401);
    expect(await selfStatus(t, someoneElse)).toBe(200);

    const step = await twoFactorStep(t);
    await requestReset('demo-2fa');
    expect((await reset(resetTokenOf(t.mailer.sent[1]), NEW_PASSWORD)).statusCode).toBe(200);
    const res = await codeStep(t, step, totpCode(DEMO_TOTP_SECRET, t.clock.now()));
    expect(res.json()).toEqual({ code: 'auth.two_factor_token_expired' });
  });

  it('refuses a new password outside the policy with 400 account.invalid_new_password', async () => {
    await requestReset('demo');
    const token = resetTokenOf(t.mailer.sent[0]);
    const cases = [
      ['Kort-1', 'validation.password_too_short'],
      ['inga-versaler-1', 'validation.password_uppercase'],
      ['INGA-GEMENER-1', 'validation.password_lowercase'],
      ['Inga-Siffror', 'validation.password_digit'],
      ['IngaTecken123', 'validation.password_special'],
    ];
    for (const [password, rule] of cases) {
      const res = await reset(token, password as string);
      expect(res.statusCode, password).toBe(400);
      expect(res.json()).toEqual({
        code: 'account.invalid_new_password',
        issues: [{ path: 'new', code: rule }],
      });
    }
    // Nothing changed: the old password works and the link is still usable.
    expect((await passwordStep(t, 'demo', DEMO_PASSWORD)).statusCode).toBe(200);
    expect((await check(token)).statusCode).toBe(200);
  });
});
