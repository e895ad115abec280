// Over 500 lines on purpose: the verification flow against its sandbox, one scenario per way it can end.
import { and, desc, eq, like } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enableTwoFactor, submitHostedPage } from '../../../test/support/bank-verification';
import { bearer, createTestApp, MINUTE, TEST_BANK_CLIENT } from '../../../test/support/test-app';
import { totpCode, wrongCode } from '../../../test/support/totp-code';
import { useTestApp } from '../../../test/support/use-test-app';
import { auditLog, bankVerifications, issuers, messages, verifiedBankAccounts } from '../../db/schema';
import { signWebhook } from './bank-verification.sandbox';

const t = useTestApp({ resetEach: true });
beforeAll(async () => {
  // The sandbox posts its webhooks to the portal over HTTP, as a real provider would.
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  t.bankSandbox?.setWebhookUrl(`${address}/api/bank-verification/webhook`);
});
beforeEach(async () => {
  t.bankSandbox?.setFailures(['webhook']);
});

async function start(token: string, bankId: string, language = 'sv-SE'): Promise<string> {
  const res = await t.call(token, 'POST', '/api/limited/bank-verification/start', { bankId, language });
  expect(res.statusCode, res.body).toBe(200);
  return String(res.json().redirectUrl);
}

/** The person on the provider's hosted page; answers the query the browser comes back to us with. */
async function onHostedPage(link: string, action: string, account?: string): Promise<Record<string, string>> {
  expect((await fetch(link)).status).toBe(200);
  const res = await submitHostedPage(link, action, account);
  expect(res.status).toBe(303);
  const back = new URL(String(res.headers.get('location')));
  expect(`${back.origin}${back.pathname}`).toBe('http://portal.test/verify-bank-account-success');
  return Object.fromEntries(back.searchParams);
}

const complete = (token: string, query: Record<string, string>) =>
  t.call(token, 'POST', '/api/limited/bank-verification/callback', query);

/** Approves `account` on `bankId`'s hosted page and completes it, answered 200: the query and the answer. */
async function approveAndComplete(token: string, bankId: string, account: string) {
  const query = await onHostedPage(await start(token, bankId), 'approve', account);
  const res = await complete(token, query);
  expect(res.statusCode, res.body).toBe(200);
  return { query, res };
}

async function issuerRow(name: string) {
  const [row] = await t.db.select().from(issuers).where(eq(issuers.name, name));
  if (!row) throw new Error(name);
  return row;
}

/** Nystart Måleri AB's attempts (the seed holds the finished ones of the verified demo issuers). */
async function nystartAttempts() {
  return t.db
    .select()
    .from(bankVerifications)
    .where(eq(bankVerifications.issuerId, (await issuerRow('Nystart Måleri AB')).id));
}

async function auditEvents(prefix = 'bank_verification.') {
  return t.db
    .select({ event: auditLog.event, details: auditLog.details })
    .from(auditLog)
    .where(like(auditLog.event, `${prefix}%`))
    .orderBy(desc(auditLog.at));
}

/** The issuer's message of `code` (the notice a verification writes). */
async function noticeOf(issuerId: string, code: string) {
  const [message] = await t.db
    .select()
    .from(messages)
    .where(and(eq(messages.issuerId, issuerId), eq(messages.code, code)));
  return message;
}

/** What a verification may change: the attempts, the accounts, the issuer's flag, its messages. */
async function bankState(issuerName: string) {
  const issuer = await issuerRow(issuerName);
  return {
    verified: issuer.bankAccountVerified,
    attempts: await t.db
      .select({ status: bankVerifications.status, reason: bankVerifications.reason })
      .from(bankVerifications)
      .where(eq(bankVerifications.issuerId, issuer.id)),
    accounts: await t.db
      .select()
      .from(verifiedBankAccounts)
      .where(eq(verifiedBankAccounts.issuerId, issuer.id)),
    messages: (await t.db.select().from(messages).where(eq(messages.issuerId, issuer.id))).length,
  };
}

describe('bank-account verification against the sandbox provider', () => {
  it('lists the banks of the issuer’s country with their logos', async () => {
    const se = await t.call(await t.login('demo-unverified'), 'GET', '/api/limited/bank-verification/banks');
    expect(se.statusCode, se.body).toBe(200);
    expect(se.json().country).toBe('SE');
    expect(se.json().demo).toBe(true);
    expect(se.json().banks.map((b: { name: string }) => b.name)).toEqual([
      'Norrbanken',
      'Sparbanken Väst',
      'Kustbanken',
    ]);
    for (const bank of se.json().banks) expect(bank.logo).toMatch(/^data:image\/svg\+xml;base64,/);
    const fi = await t.call(await t.login('demo-other'), 'GET', '/api/limited/bank-verification/banks');
    expect(fi.json().banks.map((b: { id: string }) => b.id)).toEqual([
      'fi-pohjolan-pankki',
      'fi-saaristopankki',
    ]);
  });

  it('verifies the issuer’s own account: stored, banner gone, audit log and a message; a replay changes nothing', async () => {
    const token = await t.login('demo-unverified');
    expect((await t.call(token, 'GET', '/api/self')).json().issuer.bankAccountVerified).toBe(false);
    const { query, res } = await approveAndComplete(token, 'se-norrbanken', 'nb-nystart');
    expect(res.json()).toEqual({
      status: 'verified',
      reason: null,
      account: {
        kind: 'se-bban',
        masked: '6123-••••4321',
        bankName: 'Norrbanken',
        holderName: 'Nystart Måleri AB',
        currency: 'SEK',
        verifiedAt: t.clock.now().toISOString(),
      },
    });
    expect((await t.call(token, 'GET', '/api/self')).json().issuer.bankAccountVerified).toBe(true);
    const current = await t.call(token, 'GET', '/api/limited/bank-verification');
    expect(current.json()).toEqual({ country: 'SE', account: res.json().account });

    const issuer = await issuerRow('Nystart Måleri AB');
    const [stored] = await t.db
      .select()
      .from(verifiedBankAccounts)
      .where(eq(verifiedBankAccounts.issuerId, issuer.id));
    expect(stored).toMatchObject({ clearingNumber: '6123', accountNumber: '987654321', provider: 'sandbox' });
    const [verified] = await auditEvents();
    expect(verified?.event).toBe('bank_verification.verified');
    expect(JSON.stringify(verified?.details)).not.toContain('987654321');
    const message = await noticeOf(issuer.id, 'bankAccountVerified');
    expect(message?.title).toBe('Bankkonto verifierat');
    expect(message?.text).toContain('6123-••••4321');
    expect(message?.text).not.toContain('987654321');

    const before = await bankState('Nystart Måleri AB');
    const again = await complete(token, query);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(res.json());
    expect(await bankState('Nystart Måleri AB')).toEqual(before);
    expect((await auditEvents())[0]?.event).toBe('bank_verification.replayed');
  });

  it('verifies a bankgiro in Sweden and an IBAN in Finland', async () => {
    const se = await t.login('demo-unverified');
    const bg = await complete(
      se,
      await onHostedPage(await start(se, 'se-sparbanken-vast'), 'approve', 'sv-nystart'),
    );
    expect(bg.json().account).toMatchObject({ kind: 'bankgiro', masked: 'BG •••-0158' });
    // Annan Firma Oy verified this IBAN before (the seed): verifying the same account again needs the
    // user's two-factor to start, and no confirmation, since the payee does not change.
    const fi = await t.login('demo-other');
    await enableTwoFactor(t, fi);
    const iban = await complete(
      fi,
      await onHostedPage(await start(fi, 'fi-pohjolan-pankki', 'fi-FI'), 'approve', 'pp-annan'),
    );
    expect(iban.json().status).toBe('verified');
    expect(iban.json().account).toMatchObject({
      kind: 'iban',
      masked: 'FI•• •••• •••• 0785',
      currency: 'EUR',
    });
    const message = await noticeOf((await issuerRow('Annan Firma Oy')).id, 'bankAccountVerified');
    expect(message?.title).toBe('Pankkitili vahvistettu');
  });

  it.each([
    ['se-norrbanken', 'approve', 'nb-private', 'holder_mismatch'],
    ['se-kustbanken', 'approve', 'kb-private', 'holder_mismatch'],
    ['se-kustbanken', 'approve', 'kb-nystart-eur', 'account_not_payable'],
    ['se-norrbanken', 'cancel', undefined, 'cancelled'],
    ['se-norrbanken', 'error', undefined, 'provider_error'],
  ])('refuses %s %s %s: %s, the issuer still unverified', async (bank, action, account, reason) => {
    const token = await t.login('demo-unverified');
    const res = await complete(token, await onHostedPage(await start(token, bank), action, account));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'failed', reason, account: null });
    const state = await bankState('Nystart Måleri AB');
    expect(state.verified).toBe(false);
    expect(state.accounts).toEqual([]);
    expect(state.attempts).toEqual([{ status: 'failed', reason }]);
    expect((await auditEvents())[0]).toMatchObject({
      event: 'bank_verification.failed',
      details: { reason },
    });
  });

  it('closes an expired attempt as expired, without asking the provider', async () => {
    const token = await t.login('demo-unverified');
    const link = await start(token, 'se-norrbanken');
    const query = await onHostedPage(link, 'approve', 'nb-nystart');
    t.clock.advance(15 * MINUTE);
    t.bankSandbox?.setFailures(['session', 'report', 'webhook']);
    const res = await complete(token, query);
    expect(res.json()).toEqual({ status: 'failed', reason: 'expired', account: null });
    expect((await bankState('Nystart Måleri AB')).verified).toBe(false);
  });

  it('refuses a forged state and another user’s state, changing nothing, and logs both', async () => {
    const token = await t.login('demo-unverified');
    const query = await onHostedPage(await start(token, 'se-norrbanken'), 'approve', 'nb-nystart');
    const before = await bankState('Nystart Måleri AB');
    const byggBefore = await bankState('Demo Bygg AB');

    const forged = await complete(token, { ...query, state: 'f'.repeat(43) });
    expect(forged.statusCode).toBe(404);
    expect(forged.json()).toEqual({ code: 'bankVerification.not_found' });
    // Demo Bygg AB's user with Nystart's state: the same answer as a state that names nothing.
    const foreign = await complete(await t.login('demo'), query);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(forged.body);
    const otherSession = await complete(token, { ...query, session_id: 'another-session' });
    expect(otherSession.statusCode).toBe(404);

    expect(await bankState('Nystart Måleri AB')).toEqual(before);
    expect(await bankState('Demo Bygg AB')).toEqual(byggBefore);
    const rejected = (await auditEvents('bank_verification.rejected')).map((r) => r.details?.reason);
    expect(rejected.sort()).toEqual(['foreign_state', 'session_mismatch', 'unknown_state']);
    // The rightful user still completes it.
    expect((await complete(token, query)).json().status).toBe('verified');
  });

  it('answers the failures of the provider with their own codes; a failed result fetch can be tried again', async () => {
    const token = await t.login('demo-unverified');
    t.bankSandbox?.setFailures(['banks']);
    const banks = await t.call(token, 'GET', '/api/limited/bank-verification/banks');
    expect(banks.statusCode).toBe(502);
    expect(banks.json()).toEqual({ code: 'bankVerification.banks_unavailable' });
    t.bankSandbox?.setFailures(['start']);
    const started = await t.call(token, 'POST', '/api/limited/bank-verification/start', {
      bankId: 'se-norrbanken',
    });
    expect(started.statusCode).toBe(502);
    expect(started.json()).toEqual({ code: 'bankVerification.start_failed' });
    // A provider that refuses to give a new token once the one the portal holds is revoked.
    t.bankSandbox?.revokeTokens();
    t.bankSandbox?.setFailures(['token']);
    expect(
      (
        await t.call(token, 'POST', '/api/limited/bank-verification/start', { bankId: 'se-norrbanken' })
      ).json(),
    ).toEqual({ code: 'bankVerification.start_failed' });
    t.bankSandbox?.setFailures(['webhook']);
    const unknown = await t.call(token, 'POST', '/api/limited/bank-verification/start', {
      bankId: 'fi-saaristopankki',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'bankVerification.bank_not_found' });
    expect((await bankState('Nystart Måleri AB')).attempts).toEqual([]);

    const query = await onHostedPage(await start(token, 'se-norrbanken'), 'approve', 'nb-nystart');
    t.bankSandbox?.setFailures(['report', 'webhook']);
    const failed = await complete(token, query);
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toEqual({ code: 'bankVerification.result_unavailable' });
    expect((await bankState('Nystart Måleri AB')).attempts).toEqual([{ status: 'started', reason: null }]);
    t.bankSandbox?.setFailures(['webhook']);
    expect((await complete(token, query)).json().status).toBe('verified');
  });

  it('answers 502 on every provider call when no provider is configured', async () => {
    const bare = await createTestApp({ bankSandbox: false });
    try {
      const token = await bare.login('demo-unverified');
      const res = await bare.app.inject({
        url: '/api/limited/bank-verification/banks',
        headers: bearer(token),
      });
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({ code: 'bankVerification.banks_unavailable' });
    } finally {
      await bare.close();
    }
  });
});

describe('the provider’s webhook', () => {
  it('closes the attempt when it comes first; the callback then answers the same outcome and changes nothing', async () => {
    t.bankSandbox?.setFailures([]);
    const token = await t.login('demo-unverified');
    const query = await onHostedPage(await start(token, 'se-norrbanken'), 'approve', 'nb-nystart');
    await t.bankSandbox?.webhooksDone();
    const [attempt] = await nystartAttempts();
    expect(attempt).toMatchObject({ status: 'verified', completedBy: 'webhook' });
    const state = await bankState('Nystart Måleri AB');
    expect(state.accounts).toHaveLength(1);
    expect(state.verified).toBe(true);

    const res = await complete(token, query);
    expect(res.json()).toMatchObject({ status: 'verified', account: { masked: '6123-••••4321' } });
    expect(await bankState('Nystart Måleri AB')).toEqual(state);
    expect((await auditEvents())[0]).toMatchObject({
      event: 'bank_verification.replayed',
      details: { by: 'callback', closedBy: 'webhook' },
    });
  });

  it('refuses a bad or stale signature and an unknown session, and logs them', async () => {
    const token = await t.login('demo-unverified');
    await onHostedPage(await start(token, 'se-norrbanken'), 'approve', 'nb-nystart');
    const [attempt] = await nystartAttempts();
    const body = JSON.stringify({ event: 'session.completed', session_id: attempt?.providerSessionId });
    const send = (signature: string, payload = body) =>
      t.app.inject({
        method: 'POST',
        url: '/api/bank-verification/webhook',
        headers: { 'content-type': 'application/json', 'x-webhook-signature': signature },
        payload,
      });
    const wrongKey = await send(signWebhook('not-the-shared-secret-at-all', body, t.clock.now()));
    expect(wrongKey.statusCode).toBe(401);
    expect(wrongKey.json()).toEqual({ code: 'bankVerification.signature_invalid' });
    const stale = await send(
      signWebhook(TEST_BANK_CLIENT.webhookSecret, body, new Date(t.clock.now().getTime() - 10 * MINUTE)),
    );
    expect(stale.statusCode).toBe(401);
    // Signed for one body, sent with another.
    const other = JSON.stringify({ event: 'session.completed', session_id: 'x' });
    expect(
      (await send(signWebhook(TEST_BANK_CLIENT.webhookSecret, body, t.clock.now()), other)).statusCode,
    ).toBe(401);
    const unknown = await send(signWebhook(TEST_BANK_CLIENT.webhookSecret, other, t.clock.now()), other);
    expect(unknown.statusCode).toBe(404);
    expect((await bankState('Nystart Måleri AB')).attempts).toEqual([{ status: 'started', reason: null }]);
    const reasons = (await auditEvents('bank_verification.rejected')).map((r) => r.details?.reason);
    expect(reasons.sort()).toEqual([
      'signature_invalid',
      'signature_invalid',
      'signature_invalid',
      'unknown_session',
    ]);

    const signed = await send(signWebhook(TEST_BANK_CLIENT.webhookSecret, body, t.clock.now()));
    expect(signed.statusCode, signed.body).toBe(200);
    expect((await bankState('Nystart Måleri AB')).verified).toBe(true);
    // The same notice again: received, nothing changes.
    const before = await bankState('Nystart Måleri AB');
    expect((await send(signWebhook(TEST_BANK_CLIENT.webhookSecret, body, t.clock.now()))).statusCode).toBe(
      200,
    );
    expect(await bankState('Nystart Måleri AB')).toEqual(before);
  });
});

describe('changing a verified account (two-factor confirmation)', () => {
  const confirm = (token: string, state: string, code: string) =>
    t.call(token, 'POST', '/api/limited/bank-verification/confirm', { state, code });

  /** Demo Bygg AB (seeded with Norrbanken 6123-••••6789) as `demo`, with two-factor turned on. */
  async function byggWithTwoFactor() {
    const token = await t.login('demo');
    const secret = await enableTwoFactor(t, token);
    // The code that turned two-factor on is spent; the next one is a step later.
    t.clock.advance(31_000);
    return { token, secret };
  }

  it('asks for a code before a different account replaces the verified one; a wrong code changes nothing; the right one switches, with a message and an audit row; the code and the confirmation cannot be used again', async () => {
    const { token, secret } = await byggWithTwoFactor();
    const before = await bankState('Demo Bygg AB');
    expect(before.accounts.filter((a) => a.replacedAt === null).map((a) => a.masked)).toEqual([
      '6123-••••6789',
    ]);
    const { query, res } = await approveAndComplete(token, 'se-sparbanken-vast', 'sv-bygg');
    expect(res.json()).toMatchObject({
      status: 'confirmation_required',
      reason: null,
      account: { kind: 'bankgiro', masked: 'BG •••-0141', holderName: 'Demo Bygg AB' },
      replaces: { masked: '6123-••••6789', bankName: 'Norrbanken' },
    });
    // Payouts still go to the old account: it is the current one, the new one waits unconfirmed.
    expect((await t.call(token, 'GET', '/api/limited/bank-verification')).json().account.masked).toBe(
      '6123-••••6789',
    );
    const waiting = await bankState('Demo Bygg AB');
    expect(waiting.messages).toBe(before.messages);
    expect(waiting.accounts.find((a) => a.masked === 'BG •••-0141')).toMatchObject({
      confirmedAt: null,
      replacedAt: null,
    });
    // The callback again answers the same question and changes nothing.
    expect((await complete(token, query)).json().status).toBe('confirmation_required');
    expect(await bankState('Demo Bygg AB')).toEqual(waiting);

    const wrong = await confirm(token, query.state ?? '', wrongCode(secret, t.clock.now()));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ code: 'twoFactor.invalid_code' });
    expect(await bankState('Demo Bygg AB')).toEqual(waiting);
    expect((await auditEvents())[0]).toMatchObject({ event: 'bank_verification.confirm_failed' });

    const code = totpCode(secret, t.clock.now());
    const ok = await confirm(token, query.state ?? '', code);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'verified', account: { masked: 'BG •••-0141' } });
    expect((await t.call(token, 'GET', '/api/limited/bank-verification')).json().account.masked).toBe(
      'BG •••-0141',
    );
    const after = await bankState('Demo Bygg AB');
    expect(after.accounts.filter((a) => a.replacedAt === null).map((a) => a.masked)).toEqual(['BG •••-0141']);
    expect(after.messages).toBe(before.messages + 1);
    const issuer = await issuerRow('Demo Bygg AB');
    const message = await noticeOf(issuer.id, 'bankAccountChanged');
    expect(message?.title).toBe('Bankkontot har bytts');
    expect(message?.text).toContain('BG •••-0141');
    expect(message?.text).toContain('6123-••••6789');
    expect(message?.text).not.toContain('5050141');
    const [changed] = await auditEvents('bank_verification.account_changed');
    expect(changed?.details).toMatchObject({ account: 'BG •••-0141', replaced: '6123-••••6789' });

    // The same confirmation again, with the spent code or a fresh one: refused, nothing changes.
    const replayed = await confirm(token, query.state ?? '', code);
    expect(replayed.statusCode).toBe(409);
    expect(replayed.json()).toEqual({ code: 'bankVerification.not_confirming' });
    t.clock.advance(31_000);
    expect((await confirm(token, query.state ?? '', totpCode(secret, t.clock.now()))).statusCode).toBe(409);
    expect(await bankState('Demo Bygg AB')).toEqual(after);
  });

  it('refuses a spent code: the one of another confirmation in the same step', async () => {
    const { token, secret } = await byggWithTwoFactor();
    const first = await onHostedPage(await start(token, 'se-sparbanken-vast'), 'approve', 'sv-bygg');
    expect((await complete(token, first)).json().status).toBe('confirmation_required');
    const code = totpCode(secret, t.clock.now());
    expect((await confirm(token, first.state ?? '', code)).statusCode).toBe(200);
    // Back to Norrbanken: another change, confirmed with the code just spent.
    const second = await onHostedPage(await start(token, 'se-norrbanken'), 'approve', 'nb-bygg');
    expect((await complete(token, second)).json().status).toBe('confirmation_required');
    const state = await bankState('Demo Bygg AB');
    const replay = await confirm(token, second.state ?? '', code);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({ code: 'twoFactor.invalid_code' });
    expect(await bankState('Demo Bygg AB')).toEqual(state);
  });

  it('gives the change up when it is confirmed too late: the old account stays', async () => {
    const { token, secret } = await byggWithTwoFactor();
    const query = await onHostedPage(await start(token, 'se-sparbanken-vast'), 'approve', 'sv-bygg');
    await complete(token, query);
    t.clock.advance(16 * MINUTE);
    const late = await confirm(token, query.state ?? '', totpCode(secret, t.clock.now()));
    expect(late.statusCode).toBe(200);
    expect(late.json()).toMatchObject({ status: 'failed', reason: 'expired', account: null });
    const state = await bankState('Demo Bygg AB');
    expect(state.accounts.filter((a) => a.replacedAt === null).map((a) => a.masked)).toEqual([
      '6123-••••6789',
    ]);
    expect(state.accounts.find((a) => a.masked === 'BG •••-0141')?.replacedAt).not.toBeNull();
  });

  it('refuses another user’s confirmation (same answer as a state that names nothing) and changes nothing', async () => {
    const { token, secret } = await byggWithTwoFactor();
    const query = await onHostedPage(await start(token, 'se-sparbanken-vast'), 'approve', 'sv-bygg');
    await complete(token, query);
    const state = await bankState('Demo Bygg AB');
    // Another user of another issuer, and another user of the same issuer, with a valid-looking code.
    const other = await confirm(await t.login('demo-unverified'), query.state ?? '', '123456');
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ code: 'bankVerification.not_found' });
    const colleague = await confirm(await t.login('demo-limited'), query.state ?? '', '123456');
    expect([403, 404]).toContain(colleague.statusCode);
    const unknown = await confirm(token, 'q'.repeat(43), totpCode(secret, t.clock.now()));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toBe(other.body);
    expect(await bankState('Demo Bygg AB')).toEqual(state);
    expect((await auditEvents('bank_verification.rejected')).map((r) => r.details?.reason).sort()).toEqual([
      'foreign_state',
      'unknown_state',
    ]);
  });

  it('a user without two-factor cannot start a verification once the issuer has an account; the same account needs no confirmation', async () => {
    const token = await t.login('demo');
    const refused = await t.call(token, 'POST', '/api/limited/bank-verification/start', {
      bankId: 'se-norrbanken',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ code: 'bankVerification.two_factor_required' });
    await enableTwoFactor(t, token);
    const same = await complete(
      token,
      await onHostedPage(await start(token, 'se-norrbanken'), 'approve', 'nb-bygg'),
    );
    expect(same.json()).toMatchObject({ status: 'verified', account: { masked: '6123-••••6789' } });
  });

  it('refuses the change when the user turned two-factor off after starting', async () => {
    const { token, secret } = await byggWithTwoFactor();
    const link = await start(token, 'se-sparbanken-vast');
    const off = await t.call(token, 'POST', '/api/limited/2fa/disable', {
      code: totpCode(secret, t.clock.now()),
    });
    expect(off.statusCode, off.body).toBe(200);
    const before = await bankState('Demo Bygg AB');
    const res = await complete(token, await onHostedPage(link, 'approve', 'sv-bygg'));
    expect(res.json()).toEqual({ status: 'failed', reason: 'two_factor_required', account: null });
    const after = await bankState('Demo Bygg AB');
    expect(after.accounts).toEqual(before.accounts);
    expect(after.messages).toBe(before.messages);
  });
});
