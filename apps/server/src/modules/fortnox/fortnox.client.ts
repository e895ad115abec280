// Over 500 lines on purpose: one partner's protocol in one file (OAuth2 code, refresh and revoke, the
// REST calls with Fortnox's paging, error envelopes, rate limit and retries), so it can be read against
// the domain note.
import { failureOfStatus, failureOfThrown, type PartnerFailure, retryWaitMs } from '../../lib/partner-http';

/**
 * The client of Fortnox's REST API v3 and its OAuth2 server (shared/domain/fortnox-api.md): the
 * authorization-code flow (§2), paged invoice lists (§3), one invoice, its customer and its PDF (§4),
 * the company's own details, and a payment registered back (§9). It reads Fortnox's error bodies in
 * both key casings (§5), waits and retries on 429 (§6), keeps its calls under the rate limit, renews
 * the access token before it lapses (and once more on a 401), and gives up on a call after a
 * time-out. The sandbox (fortnox.sandbox.ts) speaks the same protocol.
 */

/** The scopes the portal asks for (§2.5): invoices, their customers, the company's own details, payments. */
export const FORTNOX_SCOPES = ['invoice', 'customer', 'companyinformation', 'payment'] as const;

/** The five values of `filter` Fortnox accepts on /3/invoices (§3.1); any other is its 400 2000587. */
export type InvoiceFilter = 'cancelled' | 'fullypaid' | 'unpaid' | 'unpaidoverdue' | 'unbooked';

/** Why a call failed, as the service needs to tell it apart (403 is codes 2001101/2001103: scope or licence). */
export type FortnoxFailure =
  /** Client id or secret refused at the token endpoint (401 `invalid_client`). */
  | 'invalid_client'
  /** Code or refresh token refused (400 `invalid_grant`): the customer must connect again. */
  | 'invalid_grant'
  /** The rest as HTTP tells it; `unauthorized` is an access token refused even after a renewal. */
  | PartnerFailure;

export class FortnoxError extends Error {
  constructor(
    readonly failure: FortnoxFailure,
    /** HTTP status of Fortnox's answer; null when it did not answer. */
    readonly status: number | null,
    /** Fortnox's numeric error code (2000434, ...) or OAuth error (`invalid_grant`), when it sent one. */
    readonly code: string | null,
    message?: string,
  ) {
    super(message ?? `fortnox: ${failure} (${status ?? 'no answer'}${code ? ` ${code}` : ''})`);
  }
}

export interface FortnoxTokens {
  accessToken: string;
  refreshToken: string;
  expiresAt: Date;
  /** The granted scopes, space-separated as Fortnox answers them. */
  scope: string;
}

/**
 * Where a connection's tokens live (the service keeps them encrypted in the database). `renew` is
 * called when the access token is about to lapse or was refused: it is given the access token the
 * client holds and the refresh call, and answers the tokens to use: those another caller renewed
 * meanwhile (the stored access token is no longer `stale`), or the result of `refresh` after storing
 * it, since Fortnox rotates the refresh token at every use (§2.3).
 */
export interface TokenKeeper {
  get(): Promise<FortnoxTokens>;
  renew(stale: string, refresh: (refreshToken: string) => Promise<FortnoxTokens>): Promise<FortnoxTokens>;
}

/** An invoice as /3/invoices lists it (§3.3); amounts are Fortnox's decimal numbers as sent. */
export interface FortnoxInvoiceListItem {
  DocumentNumber: string;
  CustomerNumber: string;
  CustomerName: string;
  InvoiceDate: string;
  DueDate: string;
  FinalPayDate: string | null;
  Currency: string;
  /** A string in the list (`"1"`), a number on the single invoice. */
  CurrencyRate: string;
  Total: number;
  Balance: number;
  Booked: boolean;
  Cancelled: boolean;
  Sent: boolean;
  NoxFinans: boolean;
  OCR: string;
  InvoiceType: string;
  [field: string]: unknown;
}

export interface FortnoxInvoiceRow {
  RowId?: number;
  ArticleNumber: string;
  Description: string;
  /** A decimal string (`"1.12"`). */
  DeliveredQuantity: string;
  Unit: string;
  Price: number;
  VAT: number;
  Discount: number;
  DiscountType: 'PERCENT' | 'AMOUNT';
  HouseWork: boolean;
  Total: number;
  [field: string]: unknown;
}

export interface FortnoxInvoice extends FortnoxInvoiceListItem {
  OrganisationNumber: string;
  TotalVAT: number;
  Net: number;
  Gross: number;
  RoundOff: number;
  Freight: number;
  AdministrationFee: number;
  TotalToPay: number;
  Credit: string;
  VATIncluded: boolean;
  HouseWork: boolean;
  YourReference: string;
  OurReference: string;
  YourOrderNumber: string;
  Address1: string;
  Address2: string;
  ZipCode: string;
  City: string;
  Country: string;
  InvoiceRows: FortnoxInvoiceRow[];
}

/** The fields of a Fortnox customer we read (the sandbox's customers have them too). */
export interface FortnoxCustomerFields {
  CustomerNumber: string;
  Name: string;
  OrganisationNumber: string;
  Type: 'PRIVATE' | 'COMPANY';
  VATNumber: string;
  Address1: string;
  Address2: string;
  ZipCode: string;
  City: string;
  CountryCode: string;
  Email: string;
  Phone1: string;
}

export interface FortnoxCustomer extends FortnoxCustomerFields {
  [field: string]: unknown;
}

export interface FortnoxCompany {
  CompanyName: string;
  OrganizationNumber: string;
  [field: string]: unknown;
}

export interface InvoicePage {
  invoices: FortnoxInvoiceListItem[];
  currentPage: number;
  totalPages: number;
  totalResources: number;
}

export interface FortnoxPayment {
  Number: number;
  InvoiceNumber: string;
  Amount: number;
  PaymentDate: string;
  [field: string]: unknown;
}

export interface FortnoxClientConfig {
  /** The API's base, `https://api.fortnox.se` (the `/3/` paths are added). */
  apiUrl: string;
  /** The OAuth server's base, `https://apps.fortnox.se` (the `/oauth-v1/` paths are added). */
  authUrl: string;
  clientId: string;
  clientSecret: string;
  /** Time-out of each call; 10 s by default. */
  timeoutMs?: number;
  /** Retries of a call Fortnox answered 429 (§6), 4 by default. */
  rateLimitRetries?: number;
  /** The first wait after a 429 when Fortnox names none (`Retry-After`); doubled each time. 1 s by default. */
  rateLimitBackoffMs?: number;
  /**
   * The least time between two calls of one connection: Fortnox allows 25 calls per 5 s per client and
   * company (§6), so 200 ms (5 a second) by default keeps a long paging loop under it.
   */
  minIntervalMs?: number;
  now?: () => Date;
  /** The HTTP client; the global `fetch` as it is when the client is made by default. */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

/** The calls of one connected Fortnox company. */
export interface FortnoxApi {
  listInvoices(query: { filter?: InvoiceFilter; page?: number; limit?: number }): Promise<InvoicePage>;
  /** Every page of a filter, one after the other (`page=1..@TotalPages`). */
  listAllInvoices(filter: InvoiceFilter, limit?: number): Promise<FortnoxInvoiceListItem[]>;
  getInvoice(documentNumber: string): Promise<FortnoxInvoice>;
  /** The invoice as Fortnox prints it (`/preview` does not mark it as printed or sent). */
  getInvoicePdf(documentNumber: string): Promise<Buffer>;
  getCustomer(customerNumber: string): Promise<FortnoxCustomer>;
  getCompanyInformation(): Promise<FortnoxCompany>;
  createInvoicePayment(payment: {
    invoiceNumber: string;
    /** The amount in the invoice's currency, as a decimal string (`"1250.50"`). */
    amount: string;
    paymentDate: string;
  }): Promise<FortnoxPayment>;
  listInvoicePayments(invoiceNumber: string): Promise<FortnoxPayment[]>;
}

export interface FortnoxClient {
  /** The address the browser is sent to so the customer approves our access (§2.1). */
  authorizeUrl(input: { redirectUri: string; state: string; scopes?: readonly string[] }): string;
  /** A code from the callback for tokens (§2.2): single-use, 10 minutes. */
  exchangeCode(code: string, redirectUri: string): Promise<FortnoxTokens>;
  /** A refresh token for new tokens (§2.3); the refresh token given is dead afterwards. */
  refresh(refreshToken: string): Promise<FortnoxTokens>;
  /** Revokes a refresh token (and the access it gave). */
  revoke(refreshToken: string): Promise<void>;
  /** The API of the company whose tokens `keeper` holds. */
  connect(keeper: TokenKeeper): FortnoxApi;
}

/** An access token is renewed this long before Fortnox's expiry. */
const TOKEN_MARGIN_MS = 60_000;

export function createFortnoxClient(config: FortnoxClientConfig): FortnoxClient {
  const apiBase = config.apiUrl.replace(/\/+$/, '');
  const authBase = config.authUrl.replace(/\/+$/, '');
  const timeoutMs = config.timeoutMs ?? 10_000;
  const retries = config.rateLimitRetries ?? 4;
  const backoffMs = config.rateLimitBackoffMs ?? 1000;
  const minIntervalMs = config.minIntervalMs ?? 200;
  const now = config.now ?? (() => new Date());
  const httpFetch = config.fetch ?? globalThis.fetch;
  const sleep = config.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const basic = `Basic ${Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64')}`;

  async function send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await httpFetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw new FortnoxError(failureOfThrown(err), null, null);
    }
  }

  /** The body as JSON whatever its Content-Type says (§2.4: Fortnox labels JSON as text/html). */
  async function jsonOf(res: Response): Promise<unknown> {
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      throw new FortnoxError(failureOfThrown(err), res.status, null);
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new FortnoxError('malformed', res.status, null);
    }
  }

  /** Reads `ErrorInformation` in either casing (§5), or an OAuth `error`, into a FortnoxError. */
  async function errorOf(res: Response): Promise<FortnoxError> {
    let code: string | null = null;
    let message: string | undefined;
    try {
      const body = (await jsonOf(res)) as Record<string, unknown>;
      const info = body.ErrorInformation as Record<string, unknown> | undefined;
      if (info) {
        const c = info.code ?? info.Code;
        if (typeof c === 'number' || typeof c === 'string') code = String(c);
        const m = info.message ?? info.Message;
        if (typeof m === 'string') message = `fortnox: ${res.status} ${code ?? ''} ${m}`;
      } else if (typeof body.error === 'string') code = body.error;
    } catch {
      // No readable body: the status says enough.
    }
    const failure: FortnoxFailure =
      code === 'invalid_grant'
        ? 'invalid_grant'
        : code === 'invalid_client'
          ? 'invalid_client'
          : failureOfStatus(res.status);
    return new FortnoxError(failure, res.status, code, message);
  }

  async function tokenCall(form: Record<string, string>, path = '/oauth-v1/token'): Promise<Response> {
    const res = await send(`${authBase}${path}`, {
      method: 'POST',
      headers: {
        authorization: basic,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams(form).toString(),
    });
    if (!res.ok) throw await errorOf(res);
    return res;
  }

  async function tokens(form: Record<string, string>): Promise<FortnoxTokens> {
    const res = await tokenCall(form);
    const body = (await jsonOf(res)) as Record<string, unknown>;
    if (
      typeof body.access_token !== 'string' ||
      typeof body.refresh_token !== 'string' ||
      typeof body.expires_in !== 'number'
    )
      throw new FortnoxError('malformed', res.status, 'malformed_token');
    return {
      accessToken: body.access_token,
      refreshToken: body.refresh_token,
      expiresAt: new Date(now().getTime() + body.expires_in * 1000),
      scope: typeof body.scope === 'string' ? body.scope : '',
    };
  }

  const client: FortnoxClient = {
    authorizeUrl({ redirectUri, state, scopes = FORTNOX_SCOPES }) {
      const url = new URL(`${authBase}/oauth-v1/auth`);
      url.searchParams.set('client_id', config.clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('scope', scopes.join(' '));
      url.searchParams.set('state', state);
      url.searchParams.set('access_type', 'offline');
      url.searchParams.set('response_type', 'code');
      return url.toString();
    },
    exchangeCode: (code, redirectUri) =>
      tokens({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }),
    refresh: (refreshToken) => tokens({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    async revoke(refreshToken) {
      await tokenCall({ token: refreshToken, token_type_hint: 'refresh_token' }, '/oauth-v1/revoke');
    },
    connect(keeper) {
      return connectionApi(keeper);
    },
  };

  function connectionApi(keeper: TokenKeeper): FortnoxApi {
    let lastCallAt = 0;

    async function pace(): Promise<void> {
      const wait = lastCallAt + minIntervalMs - Date.now();
      if (wait > 0) await sleep(wait);
      lastCallAt = Date.now();
    }

    async function accessToken(): Promise<string> {
      const current = await keeper.get();
      if (current.expiresAt.getTime() - TOKEN_MARGIN_MS > now().getTime()) return current.accessToken;
      return (await keeper.renew(current.accessToken, client.refresh)).accessToken;
    }

    /**
     * One call with the bearer token: a 401 renews the token once and tries again (§5), a 429 waits
     * (`Retry-After`, else a doubling back-off) and tries again up to `retries` times (§6).
     */
    async function call(
      path: string,
      init: RequestInit = {},
      accept = 'application/json',
    ): Promise<Response> {
      let token = await accessToken();
      let renewed = false;
      for (let attempt = 0; ; attempt++) {
        await pace();
        const res = await send(`${apiBase}${path}`, {
          ...init,
          headers: {
            accept,
            ...(init.body ? { 'content-type': 'application/json' } : {}),
            authorization: `Bearer ${token}`,
          },
        });
        if (res.status === 401 && !renewed) {
          renewed = true;
          await res.body?.cancel();
          token = (await keeper.renew(token, client.refresh)).accessToken;
          continue;
        }
        if (res.status === 429 && attempt < retries) {
          await res.body?.cancel();
          await sleep(retryWaitMs(res, backoffMs, attempt));
          continue;
        }
        if (!res.ok) throw await errorOf(res);
        return res;
      }
    }

    async function getJson(path: string, init?: RequestInit): Promise<Record<string, unknown>> {
      const res = await call(path, init);
      const body = await jsonOf(res);
      if (!body || typeof body !== 'object') throw new FortnoxError('malformed', res.status, null);
      return body as Record<string, unknown>;
    }

    function objectIn<T>(body: Record<string, unknown>, key: string, required: string[]): T {
      const value = body[key] as Record<string, unknown> | undefined;
      if (!value || typeof value !== 'object' || required.some((f) => !(f in value)))
        throw new FortnoxError('malformed', 200, null);
      return value as T;
    }

    const api: FortnoxApi = {
      async listInvoices({ filter, page = 1, limit = 100 }) {
        const query = new URLSearchParams();
        if (filter) query.set('filter', filter);
        query.set('limit', String(limit));
        query.set('page', String(page));
        const body = await getJson(`/3/invoices?${query}`);
        const meta = body.MetaInformation as Record<string, unknown> | undefined;
        if (!meta || !Array.isArray(body.Invoices)) throw new FortnoxError('malformed', 200, null);
        const list = body.Invoices as Record<string, unknown>[];
        if (list.some((i) => typeof i.DocumentNumber !== 'string' || typeof i.Total !== 'number'))
          throw new FortnoxError('malformed', 200, null);
        return {
          invoices: list as FortnoxInvoiceListItem[],
          currentPage: Number(meta['@CurrentPage'] ?? page),
          totalPages: Number(meta['@TotalPages'] ?? 0),
          totalResources: Number(meta['@TotalResources'] ?? list.length),
        };
      },
      async listAllInvoices(filter, limit = 500) {
        const all: FortnoxInvoiceListItem[] = [];
        for (let page = 1; ; page++) {
          const result = await api.listInvoices({ filter, page, limit });
          all.push(...result.invoices);
          if (result.currentPage >= result.totalPages) return all;
        }
      },
      async getInvoice(documentNumber) {
        const body = await getJson(`/3/invoices/${encodeURIComponent(documentNumber)}`);
        const invoice = objectIn<FortnoxInvoice>(body, 'Invoice', ['DocumentNumber', 'Total', 'InvoiceRows']);
        if (!Array.isArray(invoice.InvoiceRows)) throw new FortnoxError('malformed', 200, null);
        return invoice;
      },
      async getInvoicePdf(documentNumber) {
        const res = await call(
          `/3/invoices/${encodeURIComponent(documentNumber)}/preview`,
          {},
          'application/pdf',
        );
        let bytes: Buffer;
        try {
          bytes = Buffer.from(await res.arrayBuffer());
        } catch {
          throw new FortnoxError('timeout', res.status, null);
        }
        if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-')
          throw new FortnoxError('malformed', res.status, null);
        return bytes;
      },
      async getCustomer(customerNumber) {
        const body = await getJson(`/3/customers/${encodeURIComponent(customerNumber)}`);
        return objectIn<FortnoxCustomer>(body, 'Customer', ['CustomerNumber', 'Name']);
      },
      async getCompanyInformation() {
        const body = await getJson('/3/companyinformation');
        return objectIn<FortnoxCompany>(body, 'CompanyInformation', ['CompanyName']);
      },
      async createInvoicePayment({ invoiceNumber, amount, paymentDate }) {
        const body = await getJson('/3/invoicepayments', {
          method: 'POST',
          body: JSON.stringify({
            InvoicePayment: {
              InvoiceNumber: Number(invoiceNumber),
              Amount: Number(amount),
              PaymentDate: paymentDate,
            },
          }),
        });
        return objectIn<FortnoxPayment>(body, 'InvoicePayment', ['InvoiceNumber', 'Amount']);
      },
      async listInvoicePayments(invoiceNumber) {
        const body = await getJson(`/3/invoicepayments?invoicenumber=${encodeURIComponent(invoiceNumber)}`);
        if (!Array.isArray(body.InvoicePayments)) throw new FortnoxError('malformed', 200, null);
        return body.InvoicePayments as FortnoxPayment[];
      },
    };
    return api;
  }

  return client;
}

/**
 * A decimal as Fortnox sends it (a JSON number such as `1250.5`, or a string such as `"1.12"`) in
 * units of 10^-scale, exactly: the digits are read from its text, never multiplied as a float. Null
 * when it has more decimals than `scale` or is not a plain decimal.
 */
export function decimalToScaled(value: unknown, scale: number): number | null {
  const text = typeof value === 'number' ? numberText(value) : typeof value === 'string' ? value.trim() : '';
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const trimmed = fraction.replace(/0+$/, '');
  if (trimmed.length > scale) return null;
  const scaled = Number(`${whole}${trimmed.padEnd(scale, '0')}`);
  if (!Number.isSafeInteger(scaled)) return null;
  return sign === '-' ? -scaled : scaled;
}

/** A JSON number's shortest decimal text without exponent (1e-7 and 1e21 are no amounts). */
function numberText(n: number): string {
  if (!Number.isFinite(n)) return '';
  const text = String(n);
  return /e/i.test(text) ? '' : text;
}
