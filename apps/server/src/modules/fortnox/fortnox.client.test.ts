import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rejectionOf } from '../../../test/support/rejection';
import {
  createFortnoxClient,
  decimalToScaled,
  type FortnoxClient,
  FortnoxError,
  type FortnoxTokens,
  type InvoiceFilter,
  type TokenKeeper,
} from './fortnox.client';
import { type FortnoxSandbox, startFortnoxSandbox } from './fortnox.sandbox';

/**
 * The real client against the sandbox over HTTP (shared/domain/fortnox-api.md): the OAuth flow, paging,
 * the error bodies, 401 renewal, 429 back-off, time-outs, and every failure the note names.
 */

const CLIENT = { clientId: 'portal-test', clientSecret: 'fortnox-sandbox-secret' };
const REDIRECT = 'http://portal.test/invoice/send-business';

let clock = new Date('2026-03-02T08:00:00Z').getTime();
const now = () => new Date(clock);
let sandbox: FortnoxSandbox;
let client: FortnoxClient;

function makeClient(extra: Partial<Parameters<typeof createFortnoxClient>[0]> = {}) {
  return createFortnoxClient({
    apiUrl: sandbox.url,
    authUrl: sandbox.url,
    ...CLIENT,
    now,
    minIntervalMs: 0,
    rateLimitBackoffMs: 20,
    timeoutMs: 2000,
    ...extra,
  });
}

/** Keeps tokens in memory as the service keeps them in the database, counting renewals. */
function memoryKeeper(initial: FortnoxTokens) {
  let tokens = initial;
  const keeper: TokenKeeper & { renewals: number; current(): FortnoxTokens } = {
    renewals: 0,
    current: () => tokens,
    get: async () => tokens,
    renew: async (stale, refresh) => {
      if (tokens.accessToken !== stale) return tokens;
      keeper.renewals++;
      tokens = await refresh(tokens.refreshToken);
      return tokens;
    },
  };
  return keeper;
}

async function connectTokens(
  c: FortnoxClient = client,
  at: FortnoxSandbox = sandbox,
): Promise<FortnoxTokens> {
  const back = await at.approve(c.authorizeUrl({ redirectUri: REDIRECT, state: 'state-1' }));
  return c.exchangeCode(back.searchParams.get('code') ?? '', REDIRECT);
}

/**
 * A sandbox of its own with `rateLimit`, and a client connected to it without a pace of its own (the
 * client's default time-out); `use` gets both, and the sandbox is closed afterwards.
 */
async function withRateLimitedSandbox(
  rateLimit: { max: number; windowMs: number },
  backoff: { rateLimitBackoffMs: number; rateLimitRetries?: number },
  use: (api: ReturnType<FortnoxClient['connect']>, limited: FortnoxSandbox) => Promise<void>,
) {
  const limited = await startFortnoxSandbox({ ...CLIENT, now, rateLimit });
  try {
    const c = createFortnoxClient({
      apiUrl: limited.url,
      authUrl: limited.url,
      ...CLIENT,
      now,
      minIntervalMs: 0,
      ...backoff,
    });
    await use(c.connect(memoryKeeper(await connectTokens(c, limited))), limited);
  } finally {
    await limited.close();
  }
}

const failureOf = (p: Promise<unknown>) => rejectionOf(p, FortnoxError);

beforeAll(async () => {
  sandbox = await startFortnoxSandbox({ ...CLIENT, now, slowMs: 600 });
  client = makeClient();
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => {
  sandbox.setFailures([]);
});

describe('OAuth2 authorization code (§2)', () => {
  it('sends the browser to /oauth-v1/auth with the parameters Fortnox requires', () => {
    const url = new URL(client.authorizeUrl({ redirectUri: REDIRECT, state: 's' }));
    expect(url.pathname).toBe('/oauth-v1/auth');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: CLIENT.clientId,
      redirect_uri: REDIRECT,
      scope: 'invoice customer companyinformation payment',
      state: 's',
      access_type: 'offline',
      response_type: 'code',
    });
  });

  it('the approval page shows the company and scopes; approving returns code and state', async () => {
    const url = client.authorizeUrl({ redirectUri: REDIRECT, state: 'abc' });
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('Demo Bygg AB');
    expect(text).toContain('Fakturering');
    const back = await sandbox.approve(url);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('abc');
    expect(back.searchParams.get('code')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('denying returns error=access_denied with the state', async () => {
    const params = new URL(client.authorizeUrl({ redirectUri: REDIRECT, state: 'no' })).searchParams;
    params.set('decision', 'deny');
    const res = await fetch(`${sandbox.url}/oauth-v1/auth`, {
      method: 'POST',
      body: params,
      redirect: 'manual',
    });
    const back = new URL(res.headers.get('location') ?? '');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('no');
  });

  it('exchanges a code once for tokens of an hour; the code is single-use', async () => {
    const back = await sandbox.approve(client.authorizeUrl({ redirectUri: REDIRECT, state: 's' }));
    const code = back.searchParams.get('code') ?? '';
    const tokens = await client.exchangeCode(code, REDIRECT);
    expect(tokens.expiresAt.getTime() - clock).toBe(3600_000);
    expect(tokens.scope).toBe('invoice customer companyinformation payment');
    const again = await failureOf(client.exchangeCode(code, REDIRECT));
    expect([again.failure, again.status, again.code]).toEqual(['invalid_grant', 400, 'invalid_grant']);
  });

  it('refuses a code with another redirect_uri, and a code older than 10 minutes', async () => {
    const back = await sandbox.approve(client.authorizeUrl({ redirectUri: REDIRECT, state: 's' }));
    expect(
      (await failureOf(client.exchangeCode(back.searchParams.get('code') ?? '', 'http://evil.test/')))
        .failure,
    ).toBe('invalid_grant');
    const late = await sandbox.approve(client.authorizeUrl({ redirectUri: REDIRECT, state: 's' }));
    clock += 10 * 60_000 + 1;
    expect(
      (await failureOf(client.exchangeCode(late.searchParams.get('code') ?? '', REDIRECT))).failure,
    ).toBe('invalid_grant');
  });

  it('bad client credentials: 401 invalid_client, read as JSON although labelled text/plain (§2.4)', async () => {
    const raw = await fetch(`${sandbox.url}/oauth-v1/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('x:y').toString('base64')}` },
      body: 'grant_type=refresh_token&refresh_token=x',
    });
    expect(raw.headers.get('content-type')).toContain('text/plain');
    const wrong = makeClient({ clientSecret: 'wrong' });
    const err = await failureOf(wrong.refresh('anything'));
    expect([err.failure, err.status, err.code]).toEqual(['invalid_client', 401, 'invalid_client']);
  });

  it('a refresh gives a new refresh token and kills the old one (§2.3)', async () => {
    const first = await connectTokens();
    const second = await client.refresh(first.refreshToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    const err = await failureOf(client.refresh(first.refreshToken));
    expect([err.failure, err.code]).toEqual(['invalid_grant', 'invalid_grant']);
  });

  it('revoking the refresh token ends the access', async () => {
    const tokens = await connectTokens();
    await client.revoke(tokens.refreshToken);
    expect((await failureOf(client.refresh(tokens.refreshToken))).failure).toBe('invalid_grant');
  });

  it('the token endpoint failing is a server error', async () => {
    sandbox.setFailures(['token']);
    expect((await failureOf(client.refresh('x'))).failure).toBe('server_error');
  });
});

describe('the API (§3–§9)', () => {
  it('lists a page with the @ metadata and the list fields (CurrencyRate a string)', async () => {
    const api = client.connect(memoryKeeper(await connectTokens()));
    const page = await api.listInvoices({ filter: 'unpaid', page: 1, limit: 25 });
    expect(page.currentPage).toBe(1);
    expect(page.totalPages).toBe(2);
    expect(page.invoices).toHaveLength(25);
    const first = page.invoices[0];
    expect(first?.DocumentNumber).toBe('2001');
    expect(first?.CurrencyRate).toBe('1');
    expect(first?.Total).toBe(35555);
    expect(page.invoices.every((i) => i.Balance > 0 && !i.Cancelled)).toBe(true);
  });

  it('pages through every page of a filter', async () => {
    const api = client.connect(memoryKeeper(await connectTokens()));
    const all = await api.listAllInvoices('unpaid', 7);
    const once = await api.listInvoices({ filter: 'unpaid', limit: 500 });
    expect(all.map((i) => i.DocumentNumber)).toEqual(once.invoices.map((i) => i.DocumentNumber));
    expect(all.length).toBe(once.totalResources);
    expect((await api.listAllInvoices('fullypaid')).map((i) => i.DocumentNumber)).toEqual(['2004']);
    expect((await api.listAllInvoices('cancelled')).map((i) => i.DocumentNumber)).toEqual(['2006']);
  });

  it('an unknown filter is Fortnox’s 400 2000587', async () => {
    const api = client.connect(memoryKeeper(await connectTokens()));
    const err = await failureOf(api.listInvoices({ filter: 'open' as InvoiceFilter }));
    expect([err.failure, err.status, err.code]).toEqual(['bad_request', 400, '2000587']);
  });

  it('one invoice with rows; a missing one is 404 2000434 in the Error/Message/Code casing', async () => {
    const api = client.connect(memoryKeeper(await connectTokens()));
    const invoice = await api.getInvoice('2005');
    expect(invoice.OrganisationNumber).toBe('556677-8899');
    expect(invoice.Credit).toBe('false');
    expect(invoice.InvoiceRows.map((r) => [r.DeliveredQuantity, r.Price, r.VAT])).toEqual([
      ['12.5', 950, 25],
      ['2', 399.5, 6],
      ['4', 125, 12],
    ]);
    const err = await failureOf(api.getInvoice('9999'));
    expect([err.failure, err.status, err.code]).toEqual(['not_found', 404, '2000434']);
    expect(err.message).toContain('Kan inte hitta fakturan.');
  });

  it('the customer, the company and the invoice PDF', async () => {
    const api = client.connect(memoryKeeper(await connectTokens()));
    expect((await api.getCustomer('7')).OrganisationNumber).toBe('556100-0000');
    expect((await api.getCompanyInformation()).OrganizationNumber).toBe('556036-0793');
    const pdf = await api.getInvoicePdf('2001');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('renews an access token about to lapse before the call', async () => {
    const keeper = memoryKeeper(await connectTokens());
    const api = client.connect(keeper);
    clock += 3600_000 - 30_000;
    await api.getCompanyInformation();
    expect(keeper.renewals).toBe(1);
    expect(keeper.current().expiresAt.getTime()).toBe(clock + 3600_000);
  });

  it('a 401 {"message":"unauthorized"} renews once and retries (§5)', async () => {
    const keeper = memoryKeeper(await connectTokens());
    const api = client.connect(keeper);
    sandbox.expireAccessTokens();
    expect((await api.getCustomer('1')).Name).toBe('Byggmästarna i Norden AB');
    expect(keeper.renewals).toBe(1);
  });

  it('a connection revoked in Fortnox: the renewal is invalid_grant', async () => {
    const api = client.connect(memoryKeeper(await connectTokens()));
    sandbox.revokeAll();
    expect((await failureOf(api.getCompanyInformation())).failure).toBe('invalid_grant');
  });

  it('500, cut JSON and a slow answer are server_error, malformed and timeout', async () => {
    const api = makeClient({ timeoutMs: 200 }).connect(memoryKeeper(await connectTokens()));
    sandbox.setFailures(['list']);
    expect((await failureOf(api.listInvoices({ filter: 'unpaid' }))).failure).toBe('server_error');
    sandbox.setFailures(['invoice']);
    expect((await failureOf(api.getInvoice('2001'))).failure).toBe('server_error');
    sandbox.setFailures(['customer']);
    expect((await failureOf(api.getCustomer('1'))).failure).toBe('server_error');
    sandbox.setFailures(['pdf']);
    expect((await failureOf(api.getInvoicePdf('2001'))).failure).toBe('server_error');
    sandbox.setFailures(['malformed']);
    expect((await failureOf(api.listInvoices({ filter: 'unpaid' }))).failure).toBe('malformed');
    sandbox.setFailures(['slow']);
    expect((await failureOf(api.getCompanyInformation())).failure).toBe('timeout');
  });

  it('registers a payment (§9); a part payment leaves the invoice open, the rest closes it', async () => {
    const api = client.connect(memoryKeeper(await connectTokens()));
    const before = (await api.getInvoice('2008')).Total;
    const part = await api.createInvoicePayment({
      invoiceNumber: '2008',
      amount: '1000.50',
      paymentDate: '2026-03-02',
    });
    expect([part.InvoiceNumber, part.Amount]).toEqual(['2008', 1000.5]);
    expect((await api.getInvoice('2008')).Balance).toBe(before - 1000.5);
    const rest = decimalToScaled(before, 2) ?? 0;
    await api.createInvoicePayment({
      invoiceNumber: '2008',
      amount: ((rest - 100_050) / 100).toFixed(2),
      paymentDate: '2026-03-03',
    });
    const paid = await api.getInvoice('2008');
    expect(paid.Balance).toBe(0);
    expect(paid.FinalPayDate).not.toBeNull();
    expect((await api.listInvoicePayments('2008')).map((p) => p.Amount)).toEqual([
      1000.5,
      (rest - 100_050) / 100,
    ]);
    sandbox.setFailures(['payment']);
    expect(
      (
        await failureOf(
          api.createInvoicePayment({ invoiceNumber: '2001', amount: '1', paymentDate: '2026-03-02' }),
        )
      ).failure,
    ).toBe('server_error');
  });

  it('a payment registered but answered too late is a timeout, and is found in the list afterwards', async () => {
    const api = makeClient({ timeoutMs: 200 }).connect(memoryKeeper(await connectTokens()));
    sandbox.setFailures(['payment_timeout']);
    const err = await failureOf(
      api.createInvoicePayment({ invoiceNumber: '2002', amount: '10.00', paymentDate: '2026-03-02' }),
    );
    expect(err.failure).toBe('timeout');
    sandbox.setFailures([]);
    expect((await api.listInvoicePayments('2002')).map((p) => p.Amount)).toEqual([10]);
  });
});

describe('the rate limit (§6)', () => {
  it('waits and retries on 429 until the window has room', async () => {
    await withRateLimitedSandbox(
      { max: 3, windowMs: 300 },
      { rateLimitBackoffMs: 100 },
      async (api, limited) => {
        const all = await api.listAllInvoices('unpaid', 4);
        expect(all.length).toBeGreaterThan(20);
        expect(limited.stats().rateLimited).toBeGreaterThan(0);
      },
    );
  });

  it('gives up as rate_limited after its retries', async () => {
    await withRateLimitedSandbox(
      { max: 1, windowMs: 60_000 },
      { rateLimitBackoffMs: 5, rateLimitRetries: 2 },
      async (api, limited) => {
        await api.getCompanyInformation();
        const err = await failureOf(api.getCompanyInformation());
        expect([err.failure, err.status]).toEqual(['rate_limited', 429]);
        expect(limited.stats().rateLimited).toBe(3);
      },
    );
  });

  it('keeps its own pace: at most one call per minIntervalMs', async () => {
    const paced = makeClient({ minIntervalMs: 50 }).connect(memoryKeeper(await connectTokens()));
    const started = Date.now();
    for (let i = 0; i < 4; i++) await paced.getCompanyInformation();
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });
});

describe('decimalToScaled', () => {
  it.each([
    [1250.5, 2, 125_050],
    ['1.12', 3, 1120],
    [0.1, 2, 10],
    [35555, 2, 3_555_500],
    ['-4.5', 2, -450],
    [19.99, 2, 1999],
  ])('%s at scale %i is %i', (value, scale, expected) => {
    expect(decimalToScaled(value, scale)).toBe(expected);
  });
  it.each([
    [1.005, 2],
    ['1.1234', 3],
    ['abc', 2],
    [1e21, 2],
    [Number.NaN, 2],
  ])('%s is refused', (value, scale) => {
    expect(decimalToScaled(value, scale)).toBeNull();
  });
});
