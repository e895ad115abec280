import type { AccountIdentifier, HolderOfAccount } from './bank-account';

/**
 * The client of the open-banking provider's account-check protocol (shared/domain/bank-verification.md
 * §1–2, shaped as Tink Account Check and GoCardless Bank Account Data): a client-credentials token,
 * the banks of a country, a session with our redirect and opaque state, the session's status and the
 * account-verification report. The sandbox (bank-verification.sandbox.ts) speaks the same protocol.
 */

export type Country = 'SE' | 'FI';

export interface Bank {
  id: string;
  name: string;
  bic?: string | undefined;
  /** The provider's logo address, as the provider gives it. */
  logoUrl?: string | undefined;
  country: Country;
}

export interface StartedSession {
  /** The provider's id of the session. */
  sessionId: string;
  /** The provider's hosted page the browser goes to. */
  redirectUrl: string;
  expiresAt: Date;
}

export type SessionStatus = 'pending' | 'completed' | 'cancelled' | 'failed' | 'expired';

export interface SessionState {
  id: string;
  status: SessionStatus;
  reportId: string | null;
  error: string | null;
}

export interface ReportAccount {
  identifier: AccountIdentifier | null;
  currency: string | null;
  accountName: string | null;
  holders: HolderOfAccount[];
}

export interface VerificationReport {
  id: string;
  sessionId: string;
  created: string;
  bankName: string;
  accounts: ReportAccount[];
  /** The report as the provider sent it, kept for audit. */
  raw: unknown;
}

/** Which step of the protocol failed; the portal words "failure to fetch banks" and "… to start the onboarding flow" from it. */
export type ProviderStep = 'token' | 'banks' | 'logo' | 'start' | 'session' | 'report';

export class BankProviderError extends Error {
  constructor(
    readonly step: ProviderStep,
    /** HTTP status of the provider's answer; null when it did not answer (network, time-out). */
    readonly status: number | null,
    /** The provider's own error code (`invalid_client`, `institution_unavailable`, ...), when it sent one. */
    readonly providerCode: string | null,
  ) {
    super(
      `bank provider: ${step} failed (${status ?? 'no answer'}${providerCode ? ` ${providerCode}` : ''})`,
    );
  }
}

export interface BankVerificationClientConfig {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Time-out of each call; 10 s by default. */
  timeoutMs?: number;
  /** The clock the token's lifetime is counted on. */
  now?: () => Date;
  /**
   * The HTTP client; the global `fetch` as it is when the client is made by default, so that a
   * browser test that replaces the page's `fetch` later does not reroute the server's calls.
   */
  fetch?: typeof fetch;
}

export interface BankVerificationClient {
  listBanks(country: Country): Promise<Bank[]>;
  /** The logo as a `data:` URL (the portal's pages load images from itself only), or null. */
  fetchLogo(url: string): Promise<string | null>;
  createSession(input: {
    bankId: string;
    country: Country;
    redirectUri: string;
    state: string;
    locale: string;
  }): Promise<StartedSession>;
  getSession(sessionId: string): Promise<SessionState>;
  getReport(reportId: string): Promise<VerificationReport>;
}

/** Logos larger than this are not inlined. */
const MAX_LOGO_BYTES = 64 * 1024;
const LOGO_TYPES = ['image/svg+xml', 'image/png', 'image/jpeg', 'image/webp'];
/** A token is renewed this long before the provider's expiry, so no call carries one about to lapse. */
const TOKEN_MARGIN_MS = 30_000;
/** Waits before the one retry of a read the provider answered 502/503/504 or not at all. */
const RETRY_DELAY_MS = 200;

interface Token {
  value: string;
  expiresAt: number;
}

export function createBankVerificationClient(config: BankVerificationClientConfig): BankVerificationClient {
  const base = config.baseUrl.replace(/\/+$/, '');
  const timeoutMs = config.timeoutMs ?? 10_000;
  const now = config.now ?? (() => new Date());
  const httpFetch = config.fetch ?? globalThis.fetch;
  let token: Token | null = null;
  const logos = new Map<string, string | null>();

  async function send(step: ProviderStep, url: string, init: RequestInit): Promise<Response> {
    try {
      return await httpFetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    } catch {
      throw new BankProviderError(step, null, null);
    }
  }

  async function errorOf(step: ProviderStep, res: Response): Promise<BankProviderError> {
    let code: string | null = null;
    try {
      const body = (await res.json()) as { error?: unknown };
      if (typeof body.error === 'string') code = body.error;
    } catch {
      // An answer that is not JSON: the status says enough.
    }
    return new BankProviderError(step, res.status, code);
  }

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt - TOKEN_MARGIN_MS > now().getTime()) return token.value;
    const res = await send('token', `${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: config.clientId,
        client_secret: config.clientSecret,
        scope: 'institutions:read sessions:write account-verification-reports:read',
      }).toString(),
    });
    if (!res.ok) throw await errorOf('token', res);
    const body = (await res.json()) as { access_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== 'string' || typeof body.expires_in !== 'number')
      throw new BankProviderError('token', res.status, 'malformed_token');
    token = { value: body.access_token, expiresAt: now().getTime() + body.expires_in * 1000 };
    return token.value;
  }

  /**
   * A call with the bearer token. A token the provider no longer accepts (401) is renewed once; a
   * read (GET) the provider could not answer (502/503/504, no answer) is tried once more.
   */
  async function call(step: ProviderStep, path: string, init: RequestInit = {}): Promise<Response> {
    const isRead = (init.method ?? 'GET') === 'GET';
    for (let attempt = 0; ; attempt++) {
      const headers = {
        accept: 'application/json',
        ...(init.body ? { 'content-type': 'application/json' } : {}),
        authorization: `Bearer ${await accessToken()}`,
      };
      let res: Response;
      try {
        res = await send(step, `${base}${path}`, { ...init, headers });
      } catch (err) {
        if (isRead && attempt === 0) {
          await delay(RETRY_DELAY_MS);
          continue;
        }
        throw err;
      }
      if (res.status === 401 && attempt === 0) {
        token = null;
        continue;
      }
      if (isRead && attempt === 0 && [502, 503, 504].includes(res.status)) {
        await delay(RETRY_DELAY_MS);
        continue;
      }
      if (!res.ok) throw await errorOf(step, res);
      return res;
    }
  }

  return {
    async listBanks(country) {
      const res = await call('banks', `/api/v1/institutions?country=${country}`);
      const body = (await res.json()) as { institutions?: unknown };
      if (!Array.isArray(body.institutions)) throw new BankProviderError('banks', res.status, 'malformed');
      return body.institutions.flatMap((i: Record<string, unknown>) =>
        typeof i.id === 'string' && typeof i.name === 'string'
          ? [
              {
                id: i.id,
                name: i.name,
                bic: typeof i.bic === 'string' ? i.bic : undefined,
                logoUrl: typeof i.logo === 'string' ? i.logo : undefined,
                country,
              },
            ]
          : [],
      );
    },

    async fetchLogo(url) {
      if (logos.has(url)) return logos.get(url) ?? null;
      let dataUrl: string | null = null;
      try {
        const res = await send('logo', url, { headers: { accept: LOGO_TYPES.join(', ') } });
        const type =
          String(res.headers.get('content-type') ?? '')
            .split(';')[0]
            ?.trim() ?? '';
        if (res.ok && LOGO_TYPES.includes(type)) {
          const bytes = Buffer.from(await res.arrayBuffer());
          if (bytes.length <= MAX_LOGO_BYTES) dataUrl = `data:${type};base64,${bytes.toString('base64')}`;
        }
      } catch {
        // A bank without its logo is still listed, with its name.
      }
      logos.set(url, dataUrl);
      return dataUrl;
    },

    async createSession(input) {
      const res = await call('start', '/api/v1/sessions', {
        method: 'POST',
        body: JSON.stringify({
          institution_id: input.bankId,
          market: input.country,
          redirect_uri: input.redirectUri,
          state: input.state,
          locale: input.locale,
          products: ['ACCOUNT_CHECK'],
        }),
      });
      const body = (await res.json()) as { id?: unknown; link?: unknown; expires_at?: unknown };
      if (typeof body.id !== 'string' || typeof body.link !== 'string' || typeof body.expires_at !== 'string')
        throw new BankProviderError('start', res.status, 'malformed');
      return { sessionId: body.id, redirectUrl: body.link, expiresAt: new Date(body.expires_at) };
    },

    async getSession(sessionId) {
      const res = await call('session', `/api/v1/sessions/${encodeURIComponent(sessionId)}`);
      const body = (await res.json()) as Record<string, unknown>;
      const statuses: SessionStatus[] = ['pending', 'completed', 'cancelled', 'failed', 'expired'];
      if (typeof body.id !== 'string' || !statuses.includes(body.status as SessionStatus))
        throw new BankProviderError('session', res.status, 'malformed');
      return {
        id: body.id,
        status: body.status as SessionStatus,
        reportId: typeof body.report_id === 'string' ? body.report_id : null,
        error: typeof body.error === 'string' ? body.error : null,
      };
    },

    async getReport(reportId) {
      const res = await call(
        'report',
        `/api/v1/account-verification-reports/${encodeURIComponent(reportId)}`,
      );
      const raw = (await res.json()) as Record<string, unknown>;
      return parseReport(raw, res.status);
    },
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** The Tink-shaped report (`userDataByProvider[].accounts[]`) read into our account type. */
function parseReport(raw: Record<string, unknown>, status: number): VerificationReport {
  const providers = raw.userDataByProvider;
  if (typeof raw.id !== 'string' || !Array.isArray(providers))
    throw new BankProviderError('report', status, 'malformed');
  const accounts: ReportAccount[] = [];
  let bankName = '';
  for (const p of providers as Record<string, unknown>[]) {
    bankName ||= text(p.financialInstitutionName) ?? '';
    for (const a of (Array.isArray(p.accounts) ? p.accounts : []) as Record<string, unknown>[]) {
      const parties = (Array.isArray(a.parties) ? a.parties : []) as Record<string, unknown>[];
      const holders = parties
        .filter((party) => party.role === undefined || party.role === 'HOLDER')
        .flatMap((party) => {
          const name = text(party.name);
          return name ? [{ name, identifier: text(party.identifier) ?? undefined }] : [];
        });
      const holderName = text(a.holderName);
      if (holders.length === 0 && holderName) holders.push({ name: holderName, identifier: undefined });
      accounts.push({
        identifier: identifierOf(a),
        currency: text(a.currencyCode),
        accountName: text(a.name),
        holders,
      });
    }
  }
  return {
    id: raw.id,
    sessionId: text(raw.sessionId) ?? '',
    created: text(raw.created) ?? '',
    bankName,
    accounts,
    raw,
  };
}

function identifierOf(a: Record<string, unknown>): AccountIdentifier | null {
  const clearing = text(a.clearingNumber);
  const account = text(a.accountNumber);
  if (clearing && account) return { kind: 'se-bban', clearing, account };
  const bankgiro = text(a.bankgiro);
  if (bankgiro) return { kind: 'bankgiro', number: bankgiro };
  const iban = text(a.iban);
  if (iban) return { kind: 'iban', iban, bic: text(a.bic) ?? undefined };
  return null;
}
