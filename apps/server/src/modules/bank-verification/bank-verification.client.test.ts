import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { submitHostedPage } from '../../../test/support/bank-verification';
import { rejectionOf } from '../../../test/support/rejection';
import { BankProviderError, createBankVerificationClient } from './bank-verification.client';
import { type BankSandbox, SANDBOX_SESSION_MINUTES, startBankSandbox } from './bank-verification.sandbox';

const CLIENT = { clientId: 'portal-test', clientSecret: 'sandbox-secret-0123456789' };
let at = Date.parse('2026-03-02T08:00:00Z');
const now = () => new Date(at);
let sandbox: BankSandbox;

beforeAll(async () => {
  sandbox = await startBankSandbox({ ...CLIENT, now });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.setFailures([]);
  at = Date.parse('2026-03-02T08:00:00Z');
});

const client = () => createBankVerificationClient({ baseUrl: sandbox.url, ...CLIENT, now });

const failureOf = (p: Promise<unknown>) => rejectionOf(p, BankProviderError);

/** What the person does on the provider's hosted page; answers where the browser is sent next. */
async function onHostedPage(link: string, action: string, account?: string): Promise<URL> {
  const page = await fetch(link);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toContain('text/html');
  const res = await submitHostedPage(link, action, account);
  expect(res.status).toBe(303);
  return new URL(String(res.headers.get('location')));
}

const START = {
  country: 'SE' as const,
  bankId: 'se-norrbanken',
  redirectUri: 'http://portal.test/verify-bank-account-success',
  state: 'opaque-state-0123456789abcdef',
  locale: 'sv',
};

describe('the bank-verification client against the sandbox provider', () => {
  it('lists the banks of each country with name, BIC and logo', async () => {
    const c = client();
    const se = await c.listBanks('SE');
    expect(se.map((b) => b.name)).toEqual(['Norrbanken', 'Sparbanken Väst', 'Kustbanken']);
    const fi = await c.listBanks('FI');
    expect(fi.map((b) => [b.id, b.bic, b.country])).toEqual([
      ['fi-pohjolan-pankki', 'POHJFIHH', 'FI'],
      ['fi-saaristopankki', 'SAARFIHH', 'FI'],
    ]);
    const logo = await c.fetchLogo(String(se[0]?.logoUrl));
    expect(logo).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(String(logo).split(',')[1] ?? '', 'base64').toString()).toContain('<svg');
    expect(await c.fetchLogo(`${sandbox.url}/logos/no-such-bank.svg`)).toBeNull();
  });

  it('creates a session with our redirect and state, and reads the approved account from the report', async () => {
    const c = client();
    const started = await c.createSession(START);
    expect(started.redirectUrl).toBe(`${sandbox.url}/link/${started.sessionId}`);
    expect(started.expiresAt.getTime() - at).toBe(SANDBOX_SESSION_MINUTES * 60_000);
    expect((await c.getSession(started.sessionId)).status).toBe('pending');

    const back = await onHostedPage(started.redirectUrl, 'approve', 'nb-nystart');
    expect(`${back.origin}${back.pathname}`).toBe(START.redirectUri);
    expect(back.searchParams.get('state')).toBe(START.state);
    expect(back.searchParams.get('session_id')).toBe(started.sessionId);
    const reportId = String(back.searchParams.get('account_verification_report_id'));

    const session = await c.getSession(started.sessionId);
    expect(session).toEqual({ id: started.sessionId, status: 'completed', reportId, error: null });
    const report = await c.getReport(reportId);
    expect(report.bankName).toBe('Norrbanken');
    expect(report.sessionId).toBe(started.sessionId);
    expect(report.accounts).toEqual([
      {
        identifier: { kind: 'se-bban', clearing: '6123', account: '987654321' },
        currency: 'SEK',
        accountName: 'Företagskonto',
        holders: [{ name: 'Nystart Måleri AB', identifier: '559123-4561' }],
      },
    ]);
  });

  it('reads a bankgiro and an IBAN account', async () => {
    const c = client();
    const bg = await c.createSession({ ...START, bankId: 'se-sparbanken-vast' });
    const bgBack = await onHostedPage(bg.redirectUrl, 'approve', 'sv-bygg');
    const bgReport = await c.getReport(String(bgBack.searchParams.get('account_verification_report_id')));
    expect(bgReport.accounts[0]?.identifier).toEqual({ kind: 'bankgiro', number: '5050141' });

    const fi = await c.createSession({ ...START, country: 'FI', bankId: 'fi-pohjolan-pankki', locale: 'fi' });
    const fiBack = await onHostedPage(fi.redirectUrl, 'approve', 'pp-annan');
    const fiReport = await c.getReport(String(fiBack.searchParams.get('account_verification_report_id')));
    expect(fiReport.accounts[0]?.identifier).toEqual({
      kind: 'iban',
      iban: 'FI21 1234 5600 0007 85',
      bic: 'POHJFIHH',
    });
  });

  it('sees a cancel, a bank error and an expired session', async () => {
    const c = client();
    const cancelled = await c.createSession(START);
    const back = await onHostedPage(cancelled.redirectUrl, 'cancel');
    expect(back.searchParams.get('error')).toBe('user_cancelled');
    expect(back.searchParams.get('account_verification_report_id')).toBeNull();
    expect(await c.getSession(cancelled.sessionId)).toMatchObject({ status: 'cancelled', reportId: null });

    const failed = await c.createSession(START);
    expect((await onHostedPage(failed.redirectUrl, 'error')).searchParams.get('error')).toBe(
      'provider_error',
    );
    expect((await c.getSession(failed.sessionId)).status).toBe('failed');

    const late = await c.createSession(START);
    at += SANDBOX_SESSION_MINUTES * 60_000;
    expect((await c.getSession(late.sessionId)).status).toBe('expired');
    expect((await onHostedPage(late.redirectUrl, 'approve', 'nb-bygg')).searchParams.get('error')).toBe(
      'session_expired',
    );
  });

  it('renews a token that has expired or that the provider revoked', async () => {
    const c = client();
    await c.listBanks('SE');
    sandbox.revokeTokens();
    expect(await c.listBanks('SE')).toHaveLength(3);
    at += 3600_000;
    expect(await c.listBanks('FI')).toHaveLength(2);
  });

  it('fails with the step and the provider’s code', async () => {
    const wrong = createBankVerificationClient({
      baseUrl: sandbox.url,
      ...CLIENT,
      clientSecret: 'wrong',
      now,
    });
    expect(await failureOf(wrong.listBanks('SE'))).toMatchObject({
      step: 'token',
      status: 401,
      providerCode: 'invalid_client',
    });

    const c = client();
    for (const [failure, call, step] of [
      ['banks', () => c.listBanks('SE'), 'banks'],
      ['start', () => c.createSession(START), 'start'],
      ['session', () => c.getSession('any-session'), 'session'],
      ['report', () => c.getReport('abcdef'), 'report'],
    ] as const) {
      sandbox.setFailures([failure]);
      expect(await failureOf(call()), failure).toMatchObject({
        step,
        status: 503,
        providerCode: 'temporarily_unavailable',
      });
    }
    sandbox.setFailures(['token']);
    const fresh = client();
    expect(await failureOf(fresh.listBanks('FI'))).toMatchObject({ step: 'token', status: 503 });
    sandbox.setFailures([]);

    expect(await failureOf(c.createSession({ ...START, bankId: 'fi-saaristopankki' }))).toMatchObject({
      step: 'start',
      status: 400,
      providerCode: 'institution_not_found',
    });
    expect(await failureOf(c.getReport('0000'))).toMatchObject({ step: 'report', status: 404 });
  });

  it('fails on a provider that does not answer', async () => {
    const closed = await startBankSandbox(CLIENT);
    const url = closed.url;
    await closed.close();
    const c = createBankVerificationClient({ baseUrl: url, ...CLIENT, timeoutMs: 1000 });
    expect(await failureOf(c.listBanks('SE'))).toMatchObject({ step: 'token', status: null });
  });
});
