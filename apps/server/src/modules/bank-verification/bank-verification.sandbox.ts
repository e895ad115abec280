// Over 500 lines on purpose: the whole stand-in provider in one file (token, banks, sessions, reports,
// webhooks, failure switches and its hosted HTML page), so the protocol the client speaks can be read as one.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeSandbox, escapeHtml, listenSandbox, readBody, sendJson } from '../../lib/sandbox-http';

/**
 * A stand-in for the open-banking provider (STYLE.md "Partners we cannot reach"): its own small HTTP
 * server speaking the protocol of bank-verification.client.ts, with banks of Sweden and Finland, the
 * accounts and holders of the demo issuers (and one holder that is none of them), the hosted page where
 * a person picks an account, approves or cancels, a signed webhook, and a failure switch per step.
 * Tests run the real client against it; `npm start` starts it for the embedded demo.
 */

/** Each step that can be made to fail: token, bank list, session start, session status, report, webhook. */
export const SANDBOX_FAILURES = ['token', 'banks', 'start', 'session', 'report', 'webhook'] as const;
export type SandboxFailure = (typeof SANDBOX_FAILURES)[number];

/** Sessions are short-lived (domain note §4): 15 minutes from creation. */
export const SANDBOX_SESSION_MINUTES = 15;

export interface SandboxAccount {
  id: string;
  name: string;
  holderName: string;
  /** Organisation number or personnummer of the holder, as the bank knows it. */
  holderIdentifier?: string;
  currencyCode: 'SEK' | 'EUR';
  clearingNumber?: string;
  accountNumber?: string;
  bankgiro?: string;
  iban?: string;
}

export interface SandboxBank {
  id: string;
  name: string;
  bic: string;
  country: 'SE' | 'FI';
  colour: string;
  accounts: SandboxAccount[];
}

/**
 * The demo banks. Holders: Demo Bygg AB (556036-0793), Nystart Måleri AB (559123-4561), Annan Firma Oy
 * (0737546-2) are the demo issuers; Ulf Ulander and Matti Meikäläinen hold private accounts, so an
 * issuer that picks them is refused (holder mismatch); Nystart's euro account at Kustbanken has an
 * IBAN only, which we do not pay Swedish issuers to (account not payable).
 */
export const SANDBOX_BANKS: readonly SandboxBank[] = [
  {
    id: 'se-norrbanken',
    name: 'Norrbanken',
    bic: 'NORBSESS',
    country: 'SE',
    colour: '#1f5fa8',
    accounts: [
      {
        id: 'nb-bygg',
        name: 'Företagskonto',
        holderName: 'Demo Bygg AB',
        holderIdentifier: '556036-0793',
        currencyCode: 'SEK',
        clearingNumber: '6123',
        accountNumber: '123456789',
      },
      {
        id: 'nb-nystart',
        name: 'Företagskonto',
        holderName: 'Nystart Måleri AB',
        holderIdentifier: '559123-4561',
        currencyCode: 'SEK',
        clearingNumber: '6123',
        accountNumber: '987654321',
      },
      {
        id: 'nb-private',
        name: 'Privatkonto',
        holderName: 'Ulf Ulander',
        holderIdentifier: '19800101-0019',
        currencyCode: 'SEK',
        clearingNumber: '6123',
        accountNumber: '555444333',
      },
    ],
  },
  {
    id: 'se-sparbanken-vast',
    name: 'Sparbanken Väst',
    bic: 'SPVASESS',
    country: 'SE',
    colour: '#c8102e',
    accounts: [
      {
        id: 'sv-bygg',
        name: 'Bankgiro',
        holderName: 'Demo Bygg AB',
        holderIdentifier: '5560360793',
        currencyCode: 'SEK',
        bankgiro: '5050141',
      },
      {
        id: 'sv-nystart',
        name: 'Bankgiro',
        holderName: 'Nystart Måleri AB',
        holderIdentifier: '5591234561',
        currencyCode: 'SEK',
        bankgiro: '5050158',
      },
      {
        id: 'sv-private',
        name: 'Lönekonto',
        holderName: 'Ulf Ulander',
        holderIdentifier: '198001010019',
        currencyCode: 'SEK',
        clearingNumber: '81234',
        accountNumber: '1234567',
      },
    ],
  },
  {
    id: 'se-kustbanken',
    name: 'Kustbanken',
    bic: 'KUSTSESS',
    country: 'SE',
    colour: '#00856f',
    accounts: [
      {
        id: 'kb-nystart',
        name: 'Affärskonto',
        holderName: 'Nystart Måleri AB',
        holderIdentifier: '559123-4561',
        currencyCode: 'SEK',
        clearingNumber: '9271',
        accountNumber: '4455667788',
      },
      {
        id: 'kb-nystart-eur',
        name: 'Valutakonto EUR',
        holderName: 'Nystart Måleri AB',
        holderIdentifier: '559123-4561',
        currencyCode: 'EUR',
        iban: 'SE45 5000 0000 0583 9825 7466',
      },
      {
        id: 'kb-private',
        name: 'Sparkonto',
        holderName: 'Ulf Ulander',
        currencyCode: 'SEK',
        clearingNumber: '9271',
        accountNumber: '1122334455',
      },
    ],
  },
  {
    id: 'fi-pohjolan-pankki',
    name: 'Pohjolan Pankki',
    bic: 'POHJFIHH',
    country: 'FI',
    colour: '#00338d',
    accounts: [
      {
        id: 'pp-annan',
        name: 'Yritystili',
        holderName: 'Annan Firma Oy',
        holderIdentifier: '0737546-2',
        currencyCode: 'EUR',
        iban: 'FI21 1234 5600 0007 85',
      },
      {
        id: 'pp-private',
        name: 'Käyttötili',
        holderName: 'Matti Meikäläinen',
        currencyCode: 'EUR',
        iban: 'FI31 4005 5010 1234 50',
      },
    ],
  },
  {
    id: 'fi-saaristopankki',
    name: 'Saaristopankki',
    bic: 'SAARFIHH',
    country: 'FI',
    colour: '#6b2c91',
    accounts: [
      {
        id: 'sp-annan',
        name: 'Yritystili',
        holderName: 'Annan Firma Oy',
        holderIdentifier: '07375462',
        currencyCode: 'EUR',
        iban: 'FI55 7912 3456 7890 12',
      },
    ],
  },
];

export interface BankSandboxOptions {
  clientId: string;
  clientSecret: string;
  /** 0 (default): any free port. */
  port?: number;
  host?: string;
  /** The address browsers reach the sandbox at; http://<publicHostname or host>:<port> by default. */
  publicUrl?: string;
  /** The host name browsers reach the sandbox by, with the port it listens on (e.g. `localhost`). */
  publicHostname?: string;
  /** Where the signed `session.completed` webhook is posted (the portal's webhook route); none when absent. */
  webhookUrl?: string;
  webhookSecret?: string;
  now?: () => Date;
  failures?: readonly SandboxFailure[];
  /** Lifetime of an access token, seconds. */
  tokenSeconds?: number;
}

interface SandboxSession {
  id: string;
  bank: SandboxBank;
  redirectUri: string;
  state: string;
  locale: string;
  createdAt: number;
  expiresAt: number;
  status: 'pending' | 'completed' | 'cancelled' | 'failed' | 'expired';
  reportId: string | null;
  error: string | null;
}

export interface BankSandbox {
  url: string;
  /** Turns the failure switches to exactly `failures`. */
  setFailures(failures: readonly SandboxFailure[]): void;
  /** Where webhooks go from now on (the portal's address is known only once it listens). */
  setWebhookUrl(url: string): void;
  /** Forgets every token issued, as a provider that revoked them; the client must get a new one. */
  revokeTokens(): void;
  /** Webhook deliveries still under way, for a test to await. */
  webhooksDone(): Promise<void>;
  close(): Promise<void>;
}

const html = escapeHtml;

/** A bank's logo: its initials on its colour. */
function logoSvg(bank: SandboxBank): string {
  const initials = bank.name
    .split(/\s+/)
    .map((w) => w[0])
    .join('')
    .slice(0, 2)
    .toUpperCase();
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="${bank.colour}"/><text x="32" y="41" text-anchor="middle" font-family="Arial, sans-serif" font-size="24" font-weight="700" fill="#fff">${html(initials)}</text></svg>`;
}

/** The signature header of a webhook body: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signWebhook(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

const HOSTED_TEXTS = {
  sv: {
    title: 'Välj konto',
    lead: 'Identifierad med BankID. Välj det konto som utbetalningarna ska gå till.',
    approve: 'Godkänn',
    cancel: 'Avbryt',
    error: 'Simulera bankfel',
    expired: 'Sessionen har gått ut.',
    back: 'Tillbaka',
    demo: 'Demo',
  },
  en: {
    title: 'Choose an account',
    lead: 'Identified with BankID. Choose the account payouts are to be paid to.',
    approve: 'Approve',
    cancel: 'Cancel',
    error: 'Simulate a bank error',
    expired: 'The session has expired.',
    back: 'Back',
    demo: 'Demo',
  },
  fi: {
    title: 'Valitse tili',
    lead: 'Tunnistettu pankkitunnuksilla. Valitse tili, jolle maksut maksetaan.',
    approve: 'Hyväksy',
    cancel: 'Peruuta',
    error: 'Simuloi pankkivirhe',
    expired: 'Istunto on vanhentunut.',
    back: 'Takaisin',
    demo: 'Demo',
  },
} as const;

export async function startBankSandbox(options: BankSandboxOptions): Promise<BankSandbox> {
  const now = options.now ?? (() => new Date());
  const failures = new Set<SandboxFailure>(options.failures ?? []);
  const tokens = new Map<string, number>();
  const sessions = new Map<string, SandboxSession>();
  const reports = new Map<string, Record<string, unknown>>();
  const deliveries = new Set<Promise<void>>();
  let publicUrl = options.publicUrl ?? '';
  let webhookUrl = options.webhookUrl;

  const json = sendJson;
  const unavailable = (res: ServerResponse) =>
    json(res, 503, { error: 'temporarily_unavailable', error_description: 'switched off in the sandbox' });

  const authorized = (req: IncomingMessage) => {
    const match = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ''));
    const expires = match?.[1] ? tokens.get(match[1]) : undefined;
    return expires !== undefined && expires > now().getTime();
  };

  const sameSecret = (a: string, b: string) =>
    a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

  /** The current status of a session, expiring it when its time has run out. */
  const current = (s: SandboxSession) => {
    if (s.status === 'pending' && now().getTime() >= s.expiresAt) s.status = 'expired';
    return s;
  };

  const finish = (s: SandboxSession, res: ServerResponse) => {
    const target = new URL(s.redirectUri);
    target.searchParams.set('state', s.state);
    target.searchParams.set('session_id', s.id);
    if (s.reportId) target.searchParams.set('account_verification_report_id', s.reportId);
    if (s.error) target.searchParams.set('error', s.error);
    res.writeHead(303, { location: target.toString() });
    res.end();
    sendWebhook(s);
  };

  const sendWebhook = (s: SandboxSession) => {
    if (!webhookUrl || !options.webhookSecret || failures.has('webhook')) return;
    const body = JSON.stringify({ event: 'session.completed', session_id: s.id, status: s.status });
    const delivery = fetch(webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-webhook-signature': signWebhook(options.webhookSecret, body, now()),
      },
      body,
      signal: AbortSignal.timeout(10_000),
    })
      .then(() => undefined)
      .catch(() => undefined)
      .finally(() => deliveries.delete(delivery));
    deliveries.add(delivery);
  };

  const hostedPage = (s: SandboxSession): string => {
    const lang = (['sv', 'en', 'fi'] as const).find((l) => s.locale.startsWith(l)) ?? 'en';
    const t = HOSTED_TEXTS[lang];
    const expired = current(s).status === 'expired';
    const accounts = s.bank.accounts
      .map((a, i) => {
        const number = a.iban ?? (a.bankgiro ? `BG ${a.bankgiro}` : `${a.clearingNumber}-${a.accountNumber}`);
        return `<label class="account"><input type="radio" name="account" value="${html(a.id)}"${i === 0 ? ' checked' : ''}> <span><strong>${html(a.name)}</strong> ${html(number)}<br><small>${html(a.holderName)}</small></span></label>`;
      })
      .join('');
    const body = expired
      ? `<p>${t.expired}</p><form method="post"><button name="action" value="cancel">${t.back}</button></form>`
      : `<p>${t.lead}</p><form method="post">${accounts}<div class="buttons"><button name="action" value="approve" class="primary">${t.approve}</button><button name="action" value="cancel">${t.cancel}</button><button name="action" value="error">${t.error}</button></div></form>`;
    return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${html(s.bank.name)} – ${t.title}</title><style>body{font-family:system-ui,sans-serif;background:#f3f5f7;margin:0;color:#1b2733}main{max-width:520px;margin:40px auto;background:#fff;border-radius:12px;padding:28px;box-shadow:0 2px 12px rgba(0,0,0,.08)}header{display:flex;align-items:center;gap:12px}header img{width:40px;height:40px}.badge{margin-left:auto;background:#ffd54f;color:#4a3b00;border-radius:999px;padding:2px 10px;font-size:12px;font-weight:700}.account{display:flex;gap:10px;align-items:flex-start;border:1px solid #d5dbe1;border-radius:8px;padding:10px 12px;margin:8px 0;cursor:pointer}.buttons{display:flex;gap:8px;margin-top:16px;flex-wrap:wrap}button{font:inherit;padding:8px 16px;border-radius:6px;border:1px solid #9aa5b1;background:#fff;cursor:pointer}button.primary{background:${s.bank.colour};border-color:${s.bank.colour};color:#fff}</style></head><body><main><header><img src="/logos/${html(s.bank.id)}.svg" alt=""><h1>${html(s.bank.name)}</h1><span class="badge">${t.demo}</span></header><h2>${t.title}</h2>${body}</main></body></html>`;
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) json(res, 500, { error: 'server_error' });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const path = url.pathname;

    if (req.method === 'POST' && path === '/oauth/token') {
      if (failures.has('token')) return unavailable(res);
      const form = new URLSearchParams(await readBody(req));
      if (form.get('grant_type') !== 'client_credentials')
        return json(res, 400, { error: 'unsupported_grant_type' });
      if (
        !sameSecret(form.get('client_id') ?? '', options.clientId) ||
        !sameSecret(form.get('client_secret') ?? '', options.clientSecret)
      )
        return json(res, 401, { error: 'invalid_client' });
      const seconds = options.tokenSeconds ?? 3600;
      const value = randomBytes(24).toString('base64url');
      tokens.set(value, now().getTime() + seconds * 1000);
      return json(res, 200, {
        access_token: value,
        token_type: 'bearer',
        expires_in: seconds,
        scope: form.get('scope') ?? '',
      });
    }

    const logo = /^\/logos\/([a-z0-9-]+)\.svg$/.exec(path);
    if (req.method === 'GET' && logo) {
      const bank = SANDBOX_BANKS.find((b) => b.id === logo[1]);
      if (!bank) return json(res, 404, { error: 'not_found' });
      res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=86400' });
      return void res.end(logoSvg(bank));
    }

    const link = /^\/link\/([A-Za-z0-9_-]+)$/.exec(path);
    if (link) {
      const s = sessions.get(link[1] ?? '');
      if (!s) return json(res, 404, { error: 'session_not_found' });
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return void res.end(hostedPage(s));
      }
      if (req.method === 'POST') {
        const form = new URLSearchParams(await readBody(req));
        if (current(s).status === 'expired') {
          s.error = 'session_expired';
          return finish(s, res);
        }
        if (s.status !== 'pending') return json(res, 409, { error: 'session_closed' });
        const action = form.get('action');
        if (action === 'approve') {
          const account = s.bank.accounts.find((a) => a.id === form.get('account'));
          if (!account) return json(res, 400, { error: 'invalid_request' });
          const reportId = randomBytes(12).toString('hex');
          reports.set(reportId, {
            id: reportId,
            sessionId: s.id,
            created: now().toISOString(),
            userDataByProvider: [
              {
                providerName: s.bank.id,
                financialInstitutionName: s.bank.name,
                identity: { name: account.holderName, ssn: null },
                accounts: [
                  {
                    accountNumber: account.accountNumber ?? null,
                    clearingNumber: account.clearingNumber ?? null,
                    bankgiro: account.bankgiro ?? null,
                    iban: account.iban ?? null,
                    bic: s.bank.bic,
                    holderName: account.holderName,
                    currencyCode: account.currencyCode,
                    name: account.name,
                    accountType: 'CHECKING',
                    parties: [
                      {
                        name: account.holderName,
                        identifier: account.holderIdentifier ?? null,
                        role: 'HOLDER',
                      },
                    ],
                  },
                ],
              },
            ],
          });
          s.status = 'completed';
          s.reportId = reportId;
        } else if (action === 'error') {
          s.status = 'failed';
          s.error = 'provider_error';
        } else {
          s.status = 'cancelled';
          s.error = 'user_cancelled';
        }
        return finish(s, res);
      }
    }

    if (req.method === 'GET' && path === '/sandbox/failures')
      return json(res, 200, { failures: [...failures] });

    if (!authorized(req)) return json(res, 401, { error: 'invalid_token' });

    if (req.method === 'GET' && path === '/api/v1/institutions') {
      if (failures.has('banks')) return unavailable(res);
      const country = (url.searchParams.get('country') ?? '').toUpperCase();
      if (country !== 'SE' && country !== 'FI')
        return json(res, 400, { error: 'invalid_request', error_description: 'country' });
      return json(res, 200, {
        institutions: SANDBOX_BANKS.filter((b) => b.country === country).map((b) => ({
          id: b.id,
          name: b.name,
          bic: b.bic,
          logo: `${publicUrl}/logos/${b.id}.svg`,
          countries: [b.country],
        })),
      });
    }

    if (req.method === 'POST' && path === '/api/v1/sessions') {
      if (failures.has('start')) return unavailable(res);
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      } catch {
        return json(res, 400, { error: 'invalid_request' });
      }
      const bank = SANDBOX_BANKS.find((b) => b.id === body.institution_id && b.country === body.market);
      if (!bank) return json(res, 400, { error: 'institution_not_found' });
      if (typeof body.redirect_uri !== 'string' || !/^https?:\/\//.test(body.redirect_uri))
        return json(res, 400, { error: 'invalid_redirect_uri' });
      if (typeof body.state !== 'string' || body.state.length < 16 || body.state.length > 200)
        return json(res, 400, { error: 'invalid_state' });
      const id = randomBytes(16).toString('base64url');
      const createdAt = now().getTime();
      const session: SandboxSession = {
        id,
        bank,
        redirectUri: body.redirect_uri,
        state: body.state,
        locale: typeof body.locale === 'string' ? body.locale : 'en',
        createdAt,
        expiresAt: createdAt + SANDBOX_SESSION_MINUTES * 60_000,
        status: 'pending',
        reportId: null,
        error: null,
      };
      sessions.set(id, session);
      return json(res, 201, {
        id,
        link: `${publicUrl}/link/${id}`,
        expires_at: new Date(session.expiresAt).toISOString(),
      });
    }

    const sessionPath = /^\/api\/v1\/sessions\/([A-Za-z0-9_-]+)$/.exec(path);
    if (req.method === 'GET' && sessionPath) {
      if (failures.has('session')) return unavailable(res);
      const s = sessions.get(sessionPath[1] ?? '');
      if (!s) return json(res, 404, { error: 'session_not_found' });
      current(s);
      return json(res, 200, { id: s.id, status: s.status, report_id: s.reportId, error: s.error });
    }

    const reportPath = /^\/api\/v1\/account-verification-reports\/([a-f0-9]+)$/.exec(path);
    if (req.method === 'GET' && reportPath) {
      if (failures.has('report')) return unavailable(res);
      const report = reports.get(reportPath[1] ?? '');
      if (!report) return json(res, 404, { error: 'report_not_found' });
      return json(res, 200, report);
    }

    return json(res, 404, { error: 'not_found' });
  }

  const listening = await listenSandbox(server, options);
  publicUrl = (publicUrl || listening).replace(/\/+$/, '');

  return {
    url: publicUrl,
    setFailures: (list) => {
      failures.clear();
      for (const f of list) failures.add(f);
    },
    setWebhookUrl: (url) => {
      webhookUrl = url;
    },
    revokeTokens: () => tokens.clear(),
    webhooksDone: async () => {
      await Promise.all([...deliveries]);
    },
    close: () => closeSandbox(server),
  };
}
