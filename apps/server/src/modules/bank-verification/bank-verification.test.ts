import { and, desc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  MINUTE,
  TEST_BANK_CLIENT,
  type TestApp,
} from '../../../test/support/test-app';
import { auditLog, bankVerifications, issuers, messages, verifiedBankAccounts } from '../../db/schema';
import { enableTwoFactor } from '../../../test/support/bank-verification';
import { signWebhook } from './bank-verification.sandbox';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // The sandbox posts its webhooks to the portal over HTTP, as a real provider would.
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  t.bankSandbox?.setWebhookUrl(`${address}/api/bank-verification/webhook`);
});
beforeEach(async () => {
  await t.reset();
  t.bankSandbox?.setFailures(['webhook']);
});
afterAll(() => t.close());

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

async function start(token: string, bankId: string, language = 'sv-SE'): Promise<string> {
  const res = await call(token, 'POST', '/api/limited/bank-verification/start', { bankId, language });
  expect(res.statusCode, res.body).toBe(200);
  return String(res.json().redirectUrl);
}

/** The person on the provider's hosted page; answers the query the browser comes back to us with. */
async function onHostedPage(link: string, action: string, account?: string): Promise<Record<string, string>> {
  expect((await fetch(link)).status).toBe(200);
  const res = await fetch(link, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action, ...(account ? { account } : {}) }).toString(),
  });
  expect(res.status).toBe(303);
  const back = new URL(String(res.headers.get('location')));
  expect(`${back.origin}${back.pathname}`).toBe('http://portal.test/verify-bank-account-success');
  return Object.fromEntries(back.searchParams);
}

const complete = (token: string, query: Record<string, string>) =>
  call(token, 'POST', '/api/limited/bank-verification/callback', query);

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
    const se = await call(await t.login('demo-unverified'), 'GET', '/api/limited/bank-verification/banks');
    expect(se.statusCode, se.body).toBe(200);
    expect(se.json().country).toBe('SE');
    expect(se.json().demo).toBe(true);
    expect(se.json().banks.map((b: { name: string }) => b.name)).toEqual([
      'Norrbanken',
      'Sparbanken Väst',
      'Kustbanken',
    ]);
    for (const bank of se.json().banks) expect(bank.logo).toMatch(/^data:image\/svg\+xml;base64,/);
    const fi = await call(await t.login('demo-other'), 'GET', '/api/limited/bank-verification/banks');
    expect(fi.json().banks.map((b: { id: string }) => b.id)).toEqual([
      'fi-pohjolan-pankki',
      'fi-saaristopankki',
    ]);
  });

  it('verifies the issuer’s own account: stored, banner gone, audit log and a message; a replay changes nothing', async () => {
    const token = await t.login('demo-unverified');
    expect((await call(token, 'GET', '/api/self')).json().issuer.bankAccountVerified).toBe(false);
    const query = await onHostedPage(await start(token, 'se-norrbanken'), 'approve', 'nb-nystart');
    const res = await complete(token, query);
    expect(res.statusCode, res.body).toBe(200);
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
    expect((await call(token, 'GET', '/api/self')).json().issuer.bankAccountVerified).toBe(true);
    const current = await call(token, 'GET', '/api/limited/bank-verification');
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
    const [message] = await t.db
      .select()
      .from(messages)
      .where(and(eq(messages.issuerId, issuer.id), eq(messages.code, 'bankAccountVerified')));
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
    const [message] = await t.db
      .select()
      .from(messages)
      .where(
        and(
          eq(messages.issuerId, (await issuerRow('Annan Firma Oy')).id),
          eq(messages.code, 'bankAccountVerified'),
        ),
      );
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
    const banks = await call(token, 'GET', '/api/limited/bank-verification/banks');
    expect(banks.statusCode).toBe(502);
    expect(banks.json()).toEqual({ code: 'bankVerification.banks_unavailable' });
    t.bankSandbox?.setFailures(['start']);
    const started = await call(token, 'POST', '/api/limited/bank-verification/start', {
      bankId: 'se-norrbanken',
    });
    expect(started.statusCode).toBe(502);
    expect(started.json()).toEqual({ code: 'bankVerification.start_failed' });
    // A provider that refuses to give a new token once the one the portal holds is revoked.
    t.bankSandbox?.revokeTokens();
    t.bankSandbox?.setFailures(['token']);
    expect(
      (await call(token, 'POST', '/api/limited/bank-verification/start', { bankId: 'se-norrbanken' })).json(),
    ).toEqual({ code: 'bankVerification.start_failed' });
    t.bankSandbox?.setFailures(['webhook']);
    const unknown = await call(token, 'POST', '/api/limited/bank-verification/start', {
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
