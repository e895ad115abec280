import {
  ABILITIES,
  enableTwoFactorResponseSchema,
  getSelfResponseSchema,
  issuerSchema,
  loginResponseSchema,
} from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { NEW_PASSWORD, VALID_ISSUER_BODY } from '../../../test/support/route-samples';
import { codeStep, passwordStep } from '../../../test/support/sign-in';
import { totpCode, wrongCode } from '../../../test/support/totp-code';
import { useTestApp } from '../../../test/support/use-test-app';
import { issuers, users } from '../../db/schema';
import { DEMO_PASSWORD } from '../../db/seed/demo';
import { SELF_MESSAGE_LIMIT } from '../../services/users';

const t = useTestApp({ resetEach: true });

async function self(token: string) {
  const res = await t.call(token, 'GET', '/api/self');
  expect(res.statusCode).toBe(200);
  return getSelfResponseSchema.parse(res.json());
}

const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
  t.call(token, method, url, payload);

function changePassword(token: string, old: string, next: string) {
  return call('POST', '/api/limited/account', token, { old, new: next });
}

function saveIssuer(token: string, body: Record<string, unknown>) {
  return call('POST', '/api/limited/issuerInfo', token, body);
}

/** Starts and finishes two-factor setup; returns the secret. */
async function enableTwoFactor(token: string): Promise<string> {
  const res = await call('GET', '/api/limited/2fa/enable', token);
  expect(res.statusCode).toBe(200);
  const { secret } = enableTwoFactorResponseSchema.parse(res.json());
  const verified = await call('POST', '/api/limited/2fa/verify', token, {
    code: totpCode(secret, t.clock.now()),
  });
  expect(verified.statusCode).toBe(200);
  return secret;
}

/** The issuer's details were refused with 400 issuer.invalid: the field issues. */
function issuerIssues(res: Awaited<ReturnType<typeof saveIssuer>>): { path: string; code: string }[] {
  expect(res.statusCode).toBe(400);
  const body = res.json() as { code: string; issues: { path: string; code: string }[] };
  expect(body.code).toBe('issuer.invalid');
  return body.issues;
}

async function issuerRow(name: string) {
  const [row] = await t.db.select().from(issuers).where(eq(issuers.name, name));
  if (!row) throw new Error(`no issuer ${name}`);
  return row;
}

describe('GET /api/self', () => {
  it('describes a Swedish user with every ability, the group and the messages newest first', async () => {
    const me = await self(await t.login('demo'));
    expect(me).toMatchObject({
      username: 'demo',
      firstName: 'Dana',
      lastName: 'Demosson',
      email: 'dana@demobygg.se',
      force2fa: false,
      twoFactorEnabled: false,
      // Has the Fortnox setting; active once the company's Fortnox is connected (issue #13).
      fortnoxSetting: { active: false },
      groupID: 'acme',
      language: null,
    });
    expect([...me.abilities].sort()).toEqual([...ABILITIES].sort());
    expect(me.issuer).toMatchObject({
      name: 'Demo Bygg AB',
      organizationNo: '556036-0793',
      country: 'SE',
      bankAccountVerified: true,
      address: { address1: 'Byggvägen 12', city: 'Stockholm', zipcode: '114 35' },
    });
    expect(me.group).toMatchObject({ id: 'acme', name: 'Acme Finans' });
    expect(me.group?.logo).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(me.taxRates.map((r) => r.rateBasisPoints)).toEqual([2500, 1200, 600, 0]);
    expect(me.currencies).toEqual(['SEK', 'EUR']);
    // The demo's money flow wrote more notices than the answer carries: the newest SELF_MESSAGE_LIMIT.
    expect(me.messages).toHaveLength(SELF_MESSAGE_LIMIT);
    const dates = me.messages.map((m) => m.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(me.lastPasswordChange).toBe(new Date(t.clock.now().getTime() - 30 * 86_400_000).toISOString());
  });

  it('gives a Finnish issuer the Finnish VAT rates and euros only', async () => {
    const me = await self(await t.login('demo-other'));
    expect(me.issuer).toMatchObject({ name: 'Annan Firma Oy', country: 'FI', organizationNo: '0737546-2' });
    expect(me.taxRates.map((r) => r.rateBasisPoints)).toEqual([2550, 1350, 1000, 0]);
    expect(me.currencies).toEqual(['EUR']);
    expect(me.group).toBeNull();
    expect(me.language).toBe('fi-FI');
  });

  it('lists only the granted abilities of a limited user', async () => {
    const me = await self(await t.login('demo-limited'));
    expect([...me.abilities].sort()).toEqual(['limited_invoices', 'limited_send_invoice']);
  });

  it('shows an unverified bank account', async () => {
    const me = await self(await t.login('demo-unverified'));
    expect(me.issuer).toMatchObject({ name: 'Nystart Måleri AB', bankAccountVerified: false });
  });
});

describe('change password', () => {
  it('answers 412 account.wrong_old_password for a wrong old password', async () => {
    const token = await t.login('demo');
    const res = await changePassword(token, 'Portal-demo-2', NEW_PASSWORD);
    expect(res.statusCode).toBe(412);
    expect(res.json()).toEqual({ code: 'account.wrong_old_password' });
    expect((await passwordStep(t, 'demo')).statusCode).toBe(200);
  });

  it('answers 400 account.invalid_new_password for a new password outside the policy', async () => {
    const token = await t.login('demo');
    const res = await changePassword(token, DEMO_PASSWORD, 'kort');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'account.invalid_new_password',
      issues: [{ path: 'new', code: 'validation.password_too_short' }],
    });
  });

  it('changes the password, keeps this session and ends the others', async () => {
    const current = await t.login('demo');
    const other = await t.login('demo');
    const colleague = await t.login('demo-limited');
    t.clock.advance(5000);
    const res = await changePassword(current, DEMO_PASSWORD, NEW_PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });

    const me = await self(current);
    expect(me.lastPasswordChange).toBe(t.clock.now().toISOString());
    expect((await t.call(other, 'GET', '/api/self')).statusCode).toBe(401);
    await self(colleague);

    const loginWith = (password: string) => passwordStep(t, 'demo', password);
    expect((await loginWith(DEMO_PASSWORD)).statusCode).toBe(401);
    expect((await loginWith(NEW_PASSWORD)).statusCode).toBe(200);
  });
});

describe('issuer details', () => {
  it('saves the details of the caller’s issuer and keeps the organisation number', async () => {
    const token = await t.login('demo');
    const res = await saveIssuer(token, { ...VALID_ISSUER_BODY, organizationNo: '212000-0142' });
    expect(res.statusCode).toBe(200);
    const saved = issuerSchema.parse(res.json());
    expect(saved).toMatchObject({
      name: VALID_ISSUER_BODY.name,
      email: VALID_ISSUER_BODY.email,
      vat: VALID_ISSUER_BODY.VAT,
      telephone: VALID_ISSUER_BODY.telephone,
      address: {
        address1: VALID_ISSUER_BODY.address,
        city: VALID_ISSUER_BODY.city,
        zipcode: VALID_ISSUER_BODY.zipcode,
      },
      organizationNo: '556036-0793',
      country: 'SE',
      bankAccountVerified: true,
    });
    expect((await self(token)).issuer).toEqual(saved);
    expect((await issuerRow(VALID_ISSUER_BODY.name)).organizationNo).toBe('556036-0793');
  });

  it('takes a name of exactly 20 code points', async () => {
    const token = await t.login('demo');
    const name = 'Åäö Bygg & Måleri AB';
    expect([...name]).toHaveLength(20);
    const res = await saveIssuer(token, { ...VALID_ISSUER_BODY, name });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name });
  });

  it('answers 400 issuer.invalid with the failing fields and changes nothing', async () => {
    const token = await t.login('demo');
    const before = await issuerRow('Demo Bygg AB');
    const res = await saveIssuer(token, {
      ...VALID_ISSUER_BODY,
      name: 'Ett alldeles för långt namn AB',
      email: 'inte-en-adress',
    });
    const issues = issuerIssues(res);
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: 'name', code: 'validation.max_length' },
        { path: 'email', code: 'validation.email' },
      ]),
    );
    expect(issues).toHaveLength(2);
    expect(await issuerRow('Demo Bygg AB')).toEqual(before);
  });

  it('answers 400 issuer.invalid with validation.required for a blank or missing field', async () => {
    const token = await t.login('demo');
    const { city: _city, ...withoutCity } = VALID_ISSUER_BODY;
    const res = await saveIssuer(token, { ...withoutCity, telephone: '   ' });
    expect(issuerIssues(res)).toEqual(
      expect.arrayContaining([
        { path: 'city', code: 'validation.required' },
        { path: 'telephone', code: 'validation.required' },
      ]),
    );
  });
});

describe('two-factor setup', () => {
  it('enables, then asks for a code at sign-in, then disables', async () => {
    const token = await t.login('demo');
    const start = await call('GET', '/api/limited/2fa/enable', token);
    expect(start.statusCode).toBe(200);
    const { qrCodeUrl, secret } = enableTwoFactorResponseSchema.parse(start.json());
    expect(qrCodeUrl).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(qrCodeUrl.slice('data:image/png;base64,'.length), 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect((await self(token)).twoFactorEnabled).toBe(false);

    const wrong = await call('POST', '/api/limited/2fa/verify', token, {
      code: wrongCode(secret, t.clock.now()),
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ code: 'twoFactor.invalid_code' });
    const malformed = await call('POST', '/api/limited/2fa/verify', token, { code: '12ab56' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'twoFactor.invalid_code' });

    const code = totpCode(secret, t.clock.now());
    const ok = await call('POST', '/api/limited/2fa/verify', token, { code });
    expect(ok.statusCode).toBe(200);
    expect((await self(token)).twoFactorEnabled).toBe(true);
    const again = await call('GET', '/api/limited/2fa/enable', token);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ code: 'twoFactor.already_enabled' });

    const login = await passwordStep(t, 'demo');
    const step = loginResponseSchema.parse(login.json());
    expect(step.requireTwoFactor).toBe(true);
    // The code that finished the setup is spent; the next period's code signs in.
    const replay = await codeStep(t, step.token, code);
    expect(replay.json()).toEqual({ code: 'auth.invalid_code' });
    t.clock.advance(30_000);
    const second = await codeStep(t, step.token, totpCode(secret, t.clock.now()));
    expect(second.statusCode).toBe(200);

    // Turning it off takes a code not spent yet: the sign-in's is.
    t.clock.advance(30_000);
    const off = await call('POST', '/api/limited/2fa/disable', token, {
      code: totpCode(secret, t.clock.now()),
    });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ ok: true });
    expect((await self(token)).twoFactorEnabled).toBe(false);
    await t.login('demo');
    const offAgain = await call('POST', '/api/limited/2fa/disable', token, { code: '123456' });
    expect(offAgain.statusCode).toBe(409);
    expect(offAgain.json()).toEqual({ code: 'twoFactor.not_enabled' });
  });

  it('cancels a setup in progress', async () => {
    const token = await t.login('demo');
    const start = await call('GET', '/api/limited/2fa/enable', token);
    const { secret } = enableTwoFactorResponseSchema.parse(start.json());
    const cancel = await call('GET', '/api/limited/2fa/disable', token);
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json()).toEqual({ ok: true });
    const verify = await call('POST', '/api/limited/2fa/verify', token, {
      code: totpCode(secret, t.clock.now()),
    });
    expect(verify.statusCode).toBe(409);
    expect(verify.json()).toEqual({ code: 'twoFactor.not_in_setup' });
    expect((await self(token)).twoFactorEnabled).toBe(false);
    await t.login('demo');
  });

  it('answers 409 twoFactor.not_in_setup for a code without a setup', async () => {
    const token = await t.login('demo');
    const res = await call('POST', '/api/limited/2fa/verify', token, { code: '123456' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'twoFactor.not_in_setup' });
  });

  it('keeps the secret of the latest setup only', async () => {
    const token = await t.login('demo');
    const first = enableTwoFactorResponseSchema.parse(
      (await call('GET', '/api/limited/2fa/enable', token)).json(),
    );
    const second = enableTwoFactorResponseSchema.parse(
      (await call('GET', '/api/limited/2fa/enable', token)).json(),
    );
    expect(second.secret).not.toBe(first.secret);
    // A code of the first secret (the chance that it is also one of the second's is one in 333 333).
    const staleCode = totpCode(first.secret, t.clock.now());
    const secondCodes = [-30_000, 0, 30_000].map((d) =>
      totpCode(second.secret, new Date(t.clock.now().getTime() + d)),
    );
    expect(secondCodes).not.toContain(staleCode);
    const stale = await call('POST', '/api/limited/2fa/verify', token, { code: staleCode });
    expect(stale.statusCode).toBe(400);
    const fresh = await call('POST', '/api/limited/2fa/verify', token, {
      code: totpCode(second.secret, t.clock.now()),
    });
    expect(fresh.statusCode).toBe(200);
  });

  it('stores the secret sealed, never in clear', async () => {
    const token = await t.login('demo');
    const secret = await enableTwoFactor(token);
    const [row] = await t.db.select().from(users).where(eq(users.username, 'demo'));
    expect(row?.totpSecret).toMatch(/^v1\./);
    expect(row?.totpSecret).not.toContain(secret);
    expect(row?.totpPendingSecret).toBeNull();
  });
});

describe('the blocking setup of demo-new (initial password, forced two-factor)', () => {
  it('refuses other work until the password is changed and two-factor is on', async () => {
    const token = await t.login('demo-new');
    const me = await self(token);
    expect(me).toMatchObject({ lastPasswordChange: null, force2fa: true, twoFactorEnabled: false });

    const blocked = await saveIssuer(token, VALID_ISSUER_BODY);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual({ code: 'auth.setup_required' });

    expect((await changePassword(token, DEMO_PASSWORD, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await self(token)).lastPasswordChange).toBe(t.clock.now().toISOString());
    // Two-factor is still missing.
    expect((await saveIssuer(token, VALID_ISSUER_BODY)).json()).toEqual({ code: 'auth.setup_required' });

    const secret = await enableTwoFactor(token);
    const after = await self(token);
    expect(after.lastPasswordChange).not.toBeNull();
    expect(after.twoFactorEnabled).toBe(true);
    expect((await saveIssuer(token, VALID_ISSUER_BODY)).statusCode).toBe(200);

    t.clock.advance(30_000);
    const disable = await call('POST', '/api/limited/2fa/disable', token, {
      code: totpCode(secret, t.clock.now()),
    });
    expect(disable.statusCode).toBe(403);
    expect(disable.json()).toEqual({ code: 'twoFactor.required' });
    expect((await self(token)).twoFactorEnabled).toBe(true);

    const login = await passwordStep(t, 'demo-new', NEW_PASSWORD);
    expect(loginResponseSchema.parse(login.json()).requireTwoFactor).toBe(true);
  });

  it('keeps the block when only two-factor is set up', async () => {
    const token = await t.login('demo-new');
    await enableTwoFactor(token);
    expect((await saveIssuer(token, VALID_ISSUER_BODY)).json()).toEqual({ code: 'auth.setup_required' });
  });
});
