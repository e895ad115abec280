// Over 500 lines on purpose: the whole stand-in of Fortnox in one file (its OAuth2 server with the
// approval page, the REST API with paging and errors, failure switches), so the protocol reads as one.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { addDays } from '@portal/domain/calendar-date';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { closeSandbox, escapeHtml, listenSandbox, readBody, sendJson } from '../../lib/sandbox-http';
import {
  SANDBOX_COMPANY,
  SANDBOX_CUSTOMERS,
  type SandboxCustomer,
  type SandboxInvoice,
  sandboxInvoices,
} from './fortnox.sandbox-data';

/**
 * A stand-in for Fortnox (STYLE.md "Partners we cannot reach"): its own small HTTP server speaking
 * the protocol of shared/domain/fortnox-api.md as fortnox.client.ts uses it. The OAuth server has an
 * approval page a person can use (§2.1), the token endpoint for both grants with Basic credentials,
 * single-use codes of 10 minutes and rotating refresh tokens (§2.2–2.4), and revocation; the API has
 * paged invoice lists with `@` metadata and every filter (§3), single invoices, customers, the
 * company, the invoice PDF and invoice payments (§4, §9), Fortnox's error bodies in both casings (§5)
 * and the 25-per-5-seconds limit answered with 429 (§6). One switch per failure (§7.8). Tests run the
 * real client against it; `npm start` starts it for the embedded demo.
 */

export const FORTNOX_SANDBOX_FAILURES = [
  /** The token endpoint answers 500. */
  'token',
  /** /3/invoices (the list) answers 500. */
  'list',
  /** /3/invoices/{n} answers 500. */
  'invoice',
  'customer',
  'pdf',
  /** POST /3/invoicepayments answers 500 without registering. */
  'payment',
  /** POST /3/invoicepayments registers the payment and then answers too late (the client's time-out). */
  'payment_timeout',
  /** Every /3/ answer is cut JSON. */
  'malformed',
  /** Every /3/ answer comes after `slowMs`. */
  'slow',
] as const;
export type FortnoxSandboxFailure = (typeof FORTNOX_SANDBOX_FAILURES)[number];

/** An authorization code lives 10 minutes (§2.1); an access token an hour (§2.3). */
const CODE_MS = 10 * 60_000;

export interface FortnoxSandboxOptions {
  clientId: string;
  clientSecret: string;
  port?: number;
  host?: string;
  /** The host name browsers reach the sandbox by, with the port it listens on. */
  publicHostname?: string;
  now?: () => Date;
  failures?: readonly FortnoxSandboxFailure[];
  /** Lifetime of an access token, seconds; 3600 as Fortnox. */
  accessTokenSeconds?: number;
  /** The rate limit (§6): `max` calls per `windowMs` per access token; 25 per 5 000 ms as Fortnox. */
  rateLimit?: { max: number; windowMs: number };
  /** The delay of the `slow` and `payment_timeout` switches; 15 s by default. */
  slowMs?: number;
  /** The company's invoices; the demo set (fortnox.sandbox-data.ts) by default. */
  invoices?: SandboxInvoice[];
}

export interface FortnoxSandbox {
  /** The base of both the OAuth server and the API (`/oauth-v1/…`, `/3/…`). */
  url: string;
  setFailures(failures: readonly FortnoxSandboxFailure[]): void;
  /** The customer removes our integration in Fortnox: every token dies, refreshes answer invalid_grant. */
  revokeAll(): void;
  /** Every access token lapses now (the next call gets 401 and must refresh). */
  expireAccessTokens(): void;
  /** What was called, for tests: 429s answered, payments registered, token grants. */
  stats(): { rateLimited: number; apiCalls: number; refreshes: number; payments: StoredPayment[] };
  /** Approves an authorization as the approval page's button does, without a browser (for tests). */
  approve(authorizeUrl: string): Promise<URL>;
  close(): Promise<void>;
}

interface StoredPayment {
  Number: number;
  InvoiceNumber: string;
  Amount: number;
  PaymentDate: string;
}

interface CodeGrant {
  redirectUri: string;
  scope: string;
  expiresAt: number;
  used: boolean;
}

const html = escapeHtml;

/** Öre as Fortnox writes amounts: a JSON number with at most two decimals. */
const amount = (minor: number) => Number((minor / 100).toFixed(2));

const SCOPE_NAMES: Record<string, string> = {
  invoice: 'Fakturering',
  customer: 'Kundregister',
  companyinformation: 'Företagsinformation',
  payment: 'Inbetalningar',
};

export async function startFortnoxSandbox(options: FortnoxSandboxOptions): Promise<FortnoxSandbox> {
  const now = options.now ?? (() => new Date());
  const failures = new Set<FortnoxSandboxFailure>(options.failures ?? []);
  const limit = options.rateLimit ?? { max: 25, windowMs: 5000 };
  const slowMs = options.slowMs ?? 15_000;
  const accessSeconds = options.accessTokenSeconds ?? 3600;
  const codes = new Map<string, CodeGrant>();
  const refreshTokens = new Map<string, string>();
  const accessTokens = new Map<string, number>();
  const calls = new Map<string, number[]>();
  const payments: StoredPayment[] = [];
  const stats = { rateLimited: 0, apiCalls: 0, refreshes: 0 };
  const startDay = now().toISOString().slice(0, 10);
  const invoices = options.invoices ?? sandboxInvoices();
  let publicUrl = '';

  const json = sendJson;
  /** Fortnox's error envelope; `upper` gives the Error/Message/Code casing of its 404s (§5). */
  const fortnoxError = (res: ServerResponse, status: number, code: number, message: string, upper = false) =>
    json(res, status, {
      ErrorInformation: upper ? { Error: 1, Message: message, Code: code } : { error: 1, message, code },
    });

  const same = (a: string, b: string) =>
    a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
  const basicOk = (req: IncomingMessage) => {
    const match = /^Basic (\S+)$/.exec(String(req.headers.authorization ?? ''));
    if (!match?.[1]) return false;
    const [id, ...secret] = Buffer.from(match[1], 'base64').toString('utf8').split(':');
    return same(id ?? '', options.clientId) && same(secret.join(':'), options.clientSecret);
  };

  const issueTokens = (scope: string) => {
    const access = randomBytes(24).toString('base64url');
    const refresh = randomBytes(24).toString('base64url');
    accessTokens.set(access, now().getTime() + accessSeconds * 1000);
    refreshTokens.set(refresh, scope);
    return {
      access_token: access,
      refresh_token: refresh,
      scope,
      expires_in: accessSeconds,
      token_type: 'bearer',
    };
  };

  const paidOf = (inv: SandboxInvoice) =>
    (inv.paidMinor ?? 0) +
    payments
      .filter((p) => p.InvoiceNumber === inv.documentNumber)
      .reduce((s, p) => s + Math.round(p.Amount * 100), 0);

  const customerOf = (inv: SandboxInvoice): SandboxCustomer => {
    const c = SANDBOX_CUSTOMERS.find((x) => x.CustomerNumber === inv.customerNumber);
    if (!c) throw new Error(`sandbox: no customer ${inv.customerNumber}`);
    return c;
  };

  /** The totals as Fortnox computes them: row nets, VAT per rate, no rounding off (whole öre). */
  const totalsOf = (inv: SandboxInvoice) => {
    const rowNets = inv.rows.map((r) => (r.quantityMilli * r.priceMinor) / 1000);
    const net = rowNets.reduce((s, n) => s + n, 0);
    const vatByRate = new Map<number, number>();
    inv.rows.forEach((r, i) => {
      vatByRate.set(r.vat, (vatByRate.get(r.vat) ?? 0) + (rowNets[i] ?? 0));
    });
    const vat = [...vatByRate].reduce((s, [rate, n]) => s + (n * rate) / 100, 0);
    return { rowNets, net, vat, total: net + vat };
  };

  const listItem = (inv: SandboxInvoice) => {
    const c = customerOf(inv);
    const { total } = totalsOf(inv);
    const balance = inv.cancelled ? 0 : Math.max(0, total - paidOf(inv));
    const invoiceDate = addDays(startDay, -inv.invoiceDaysAgo);
    return {
      '@url': `${publicUrl}/3/invoices/${inv.documentNumber}`,
      Balance: amount(balance),
      Booked: inv.booked !== false,
      Cancelled: inv.cancelled === true,
      CostCenter: '',
      Currency: inv.currency ?? 'SEK',
      CurrencyRate: '1',
      CurrencyUnit: 1,
      CustomerName: c.Name,
      CustomerNumber: c.CustomerNumber,
      DocumentNumber: inv.documentNumber,
      DueDate: addDays(invoiceDate, inv.termsDays),
      ExternalInvoiceReference1: '',
      ExternalInvoiceReference2: '',
      FinalPayDate: !inv.cancelled && balance === 0 ? addDays(invoiceDate, inv.termsDays - 2) : null,
      InvoiceDate: invoiceDate,
      InvoiceType: 'INVOICE',
      NoxFinans: inv.noxFinans === true,
      OCR: inv.ocr,
      Project: '',
      Sent: true,
      TermsOfPayment: String(inv.termsDays),
      Total: amount(total),
      VoucherNumber: inv.booked === false ? null : Number(inv.documentNumber) - 1900,
      VoucherSeries: 'B',
      VoucherYear: 1,
      WayOfDelivery: 'EMAIL',
    };
  };

  const fullInvoice = (inv: SandboxInvoice) => {
    const c = customerOf(inv);
    const { rowNets, net, vat, total } = totalsOf(inv);
    return {
      ...listItem(inv),
      CurrencyRate: 1,
      OrganisationNumber: c.OrganisationNumber,
      Address1: c.Address1,
      Address2: c.Address2,
      ZipCode: c.ZipCode,
      City: c.City,
      Country: 'Sverige',
      Phone1: c.Phone1,
      Phone2: '',
      EmailInformation: { EmailAddressTo: c.Email },
      Net: amount(net),
      Gross: amount(net),
      TotalVAT: amount(vat),
      RoundOff: 0,
      Freight: 0,
      FreightVAT: 0,
      AdministrationFee: 0,
      AdministrationFeeVAT: 0,
      TotalToPay: amount(total),
      Credit: 'false',
      CreditInvoiceReference: '0',
      InvoiceReference: '0',
      OrderReference: '0',
      OfferReference: '0',
      NotCompleted: false,
      VATIncluded: false,
      HouseWork: false,
      TaxReductionType: 'none',
      TaxReduction: null,
      BasisTaxReduction: null,
      YourReference: inv.yourReference ?? '',
      OurReference: 'Dana Demosson',
      YourOrderNumber: inv.yourOrderNumber ?? '',
      Language: 'SV',
      InvoiceRows: inv.rows.map((r, i) => ({
        RowId: i + 1,
        ArticleNumber: r.articleNumber,
        Description: r.description,
        DeliveredQuantity: (r.quantityMilli / 1000).toFixed(2).replace(/\.?0+$/, '') || '0',
        Unit: r.unit,
        Price: amount(r.priceMinor),
        PriceExcludingVAT: amount(r.priceMinor),
        VAT: r.vat,
        VATCode: r.vat === 25 ? 'MP1' : r.vat === 12 ? 'MP2' : 'MP3',
        Discount: 0,
        DiscountType: 'PERCENT',
        Total: amount(rowNets[i] ?? 0),
        TotalExcludingVAT: amount(rowNets[i] ?? 0),
        AccountNumber: 3001,
        CostCenter: '',
        Project: '',
        HouseWork: false,
        HouseWorkType: null,
        HouseWorkHoursToReport: null,
        ContributionPercent: '100',
        ContributionValue: amount(rowNets[i] ?? 0),
        Cost: 0,
        StockPointCode: null,
      })),
    };
  };

  const matchesFilter = (inv: SandboxInvoice, filter: string | null) => {
    const item = listItem(inv);
    switch (filter) {
      case null:
        return true;
      case 'cancelled':
        return item.Cancelled;
      case 'fullypaid':
        return !item.Cancelled && item.Balance === 0;
      case 'unpaid':
        return !item.Cancelled && item.Balance > 0;
      case 'unpaidoverdue':
        return !item.Cancelled && item.Balance > 0 && item.DueDate < now().toISOString().slice(0, 10);
      case 'unbooked':
        return !item.Booked;
      default:
        return false;
    }
  };

  const approvalPage = (params: URLSearchParams, error: string | null) => {
    const scopes = (params.get('scope') ?? '').split(' ').filter(Boolean);
    const hidden = [...params]
      .map(([k, v]) => `<input type="hidden" name="${html(k)}" value="${html(v)}">`)
      .join('');
    const body = error
      ? `<p class="error">${html(error)}</p>`
      : `<p>Applikationen <strong>Kundportalen</strong> vill få åtkomst till <strong>${html(SANDBOX_COMPANY.CompanyName)}</strong> (${html(SANDBOX_COMPANY.OrganizationNumber)}):</p><ul>${scopes.map((s) => `<li>${html(SCOPE_NAMES[s] ?? s)}</li>`).join('')}</ul><form method="post" action="/oauth-v1/auth">${hidden}<div class="buttons"><button name="decision" value="approve" class="primary">Godkänn</button><button name="decision" value="deny">Avbryt</button></div></form>`;
    return `<!doctype html><html lang="sv"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Fortnox – Godkänn integration</title><style>body{font-family:system-ui,sans-serif;background:#f1f4f2;margin:0;color:#1b2733}main{max-width:520px;margin:40px auto;background:#fff;border-radius:12px;padding:28px;box-shadow:0 2px 12px rgba(0,0,0,.08)}header{display:flex;align-items:center;gap:12px}.logo{font-weight:800;font-size:22px;color:#0a7d3b}.badge{margin-left:auto;background:#ffd54f;color:#4a3b00;border-radius:999px;padding:2px 10px;font-size:12px;font-weight:700}.buttons{display:flex;gap:8px;margin-top:16px}button{font:inherit;padding:8px 16px;border-radius:6px;border:1px solid #9aa5b1;background:#fff;cursor:pointer}button.primary{background:#0a7d3b;border-color:#0a7d3b;color:#fff}.error{color:#a3141b}</style></head><body><main><header><span class="logo">fortnox</span><span class="badge">Demo</span></header><h1>Godkänn integration</h1>${body}</main></body></html>`;
  };

  const pdfOf = async (inv: SandboxInvoice): Promise<Uint8Array> => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const item = fullInvoice(inv);
    let y = 790;
    const line = (text: string, size = 11, f = font) => {
      page.drawText(text, { x: 50, y, size, font: f });
      y -= size + 8;
    };
    line(SANDBOX_COMPANY.CompanyName, 16, bold);
    line(`Org.nr ${SANDBOX_COMPANY.OrganizationNumber}`);
    y -= 10;
    line(`Faktura ${item.DocumentNumber}`, 20, bold);
    line(`Fakturadatum ${item.InvoiceDate}   Förfallodatum ${item.DueDate}   OCR ${item.OCR}`);
    line(`Kund: ${item.CustomerName} (${item.OrganisationNumber})`);
    line(`${item.Address1}, ${item.ZipCode} ${item.City}`);
    y -= 10;
    for (const r of item.InvoiceRows)
      line(
        `${r.ArticleNumber}  ${r.Description}  ${r.DeliveredQuantity} ${r.Unit} à ${r.Price.toFixed(2)}  moms ${r.VAT}%  ${r.Total.toFixed(2)}`,
        10,
      );
    y -= 10;
    line(`Netto ${item.Net.toFixed(2)}   Moms ${item.TotalVAT.toFixed(2)}`);
    line(`Att betala ${item.Total.toFixed(2)} ${item.Currency}`, 14, bold);
    return doc.save();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) fortnoxError(res, 500, 1000003, 'Systemfel');
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const path = url.pathname;

    if (path === '/oauth-v1/auth' && (req.method === 'GET' || req.method === 'POST')) {
      const params = req.method === 'GET' ? url.searchParams : new URLSearchParams(await readBody(req));
      const redirectUri = params.get('redirect_uri') ?? '';
      const state = params.get('state') ?? '';
      let problem: string | null = null;
      if (params.get('client_id') !== options.clientId) problem = 'Okänd applikation (client_id).';
      else if (params.get('response_type') !== 'code') problem = 'response_type måste vara code.';
      else if (!/^https?:\/\//.test(redirectUri)) problem = 'Ogiltig redirect_uri.';
      else if (!state) problem = 'state saknas.';
      else if (!(params.get('scope') ?? '').trim()) problem = 'scope saknas.';
      if (problem || req.method === 'GET') {
        res.writeHead(problem ? 400 : 200, { 'content-type': 'text/html; charset=utf-8' });
        return void res.end(approvalPage(params, problem));
      }
      const target = new URL(redirectUri);
      if (params.get('decision') === 'approve') {
        const code = randomBytes(16).toString('hex');
        codes.set(code, {
          redirectUri,
          scope: (params.get('scope') ?? '').trim(),
          expiresAt: now().getTime() + CODE_MS,
          used: false,
        });
        target.searchParams.set('code', code);
      } else target.searchParams.set('error', 'access_denied');
      target.searchParams.set('state', state);
      res.writeHead(303, { location: target.toString() });
      return void res.end();
    }

    if (req.method === 'POST' && path === '/oauth-v1/token') {
      if (failures.has('token')) return json(res, 500, { error: 'server_error' });
      // Fortnox labels these JSON bodies text/plain and text/html (§2.4); the client must not care.
      if (!basicOk(req))
        return json(
          res,
          401,
          { error: 'invalid_client', error_description: 'The client credentials are invalid' },
          'text/plain;charset=UTF-8',
        );
      const form = new URLSearchParams(await readBody(req));
      const invalidGrant = (description: string) =>
        json(
          res,
          400,
          { error: 'invalid_grant', error_description: description },
          'text/html; charset=UTF-8',
        );
      if (form.get('grant_type') === 'authorization_code') {
        const grant = codes.get(form.get('code') ?? '');
        if (!grant || grant.used || grant.expiresAt <= now().getTime())
          return invalidGrant('Invalid authorization code');
        if (form.get('redirect_uri') !== grant.redirectUri) return invalidGrant('Redirect URI mismatch');
        grant.used = true;
        return json(res, 200, issueTokens(grant.scope));
      }
      if (form.get('grant_type') === 'refresh_token') {
        const old = form.get('refresh_token') ?? '';
        const scope = refreshTokens.get(old);
        if (scope === undefined) return invalidGrant('Invalid refresh token');
        refreshTokens.delete(old);
        stats.refreshes++;
        return json(res, 200, issueTokens(scope));
      }
      return json(res, 400, { error: 'unsupported_grant_type' });
    }

    if (req.method === 'POST' && path === '/oauth-v1/revoke') {
      if (!basicOk(req)) return json(res, 401, { error: 'invalid_client' }, 'text/plain;charset=UTF-8');
      const form = new URLSearchParams(await readBody(req));
      refreshTokens.delete(form.get('token') ?? '');
      // Revoking the refresh token ends the integration's access as a whole in the sandbox.
      if (refreshTokens.size === 0) accessTokens.clear();
      res.writeHead(200);
      return void res.end();
    }

    if (!path.startsWith('/3/')) return json(res, 404, { message: 'not found' });

    const token = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    const expires = accessTokens.get(token);
    if (expires === undefined || expires <= now().getTime())
      return json(res, 401, { message: 'unauthorized' });

    const at = Date.now();
    const recent = (calls.get(token) ?? []).filter((t) => t > at - limit.windowMs);
    if (recent.length >= limit.max) {
      stats.rateLimited++;
      calls.set(token, recent);
      res.writeHead(429, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ message: 'Too many requests' }));
    }
    recent.push(at);
    calls.set(token, recent);
    stats.apiCalls++;

    if (failures.has('slow')) await new Promise((r) => setTimeout(r, slowMs));
    if (failures.has('malformed')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end('{"Invoices":[{"DocumentNumber":');
    }

    if (req.method === 'GET' && path === '/3/companyinformation')
      return json(res, 200, { CompanyInformation: SANDBOX_COMPANY });

    if (req.method === 'GET' && path === '/3/invoices') {
      if (failures.has('list')) return fortnoxError(res, 500, 1000003, 'Systemfel');
      const filter = url.searchParams.get('filter');
      if (
        filter !== null &&
        !['cancelled', 'fullypaid', 'unpaid', 'unpaidoverdue', 'unbooked'].includes(filter)
      )
        return fortnoxError(res, 400, 2000587, 'Ett ogiltigt filter har använts.');
      const pageSize = Number(url.searchParams.get('limit') ?? 100);
      const page = Number(url.searchParams.get('page') ?? 1);
      if (
        !Number.isInteger(pageSize) ||
        pageSize < 1 ||
        pageSize > 500 ||
        !Number.isInteger(page) ||
        page < 1
      )
        return fortnoxError(res, 400, 2000588, 'Ogiltig parameter.');
      const q = (name: string) => url.searchParams.get(name);
      const found = invoices.filter((inv) => {
        if (!matchesFilter(inv, filter)) return false;
        const item = listItem(inv);
        if (q('customernumber') && !item.CustomerNumber.includes(q('customernumber') ?? '')) return false;
        if (q('documentnumber') && !item.DocumentNumber.includes(q('documentnumber') ?? '')) return false;
        if (q('fromdate') && item.InvoiceDate < (q('fromdate') ?? '')) return false;
        if (q('todate') && item.InvoiceDate > (q('todate') ?? '')) return false;
        return true;
      });
      const totalPages = Math.ceil(found.length / pageSize);
      return json(res, 200, {
        MetaInformation: { '@TotalResources': found.length, '@TotalPages': totalPages, '@CurrentPage': page },
        Invoices: found.slice((page - 1) * pageSize, page * pageSize).map(listItem),
      });
    }

    const invoicePath = /^\/3\/invoices\/([^/]+)(\/preview)?$/.exec(path);
    if (req.method === 'GET' && invoicePath) {
      const inv = invoices.find((i) => i.documentNumber === decodeURIComponent(invoicePath[1] ?? ''));
      if (invoicePath[2]) {
        if (failures.has('pdf')) return fortnoxError(res, 500, 1000003, 'Systemfel');
        if (!inv) return fortnoxError(res, 404, 2000434, 'Kan inte hitta fakturan.', true);
        res.writeHead(200, { 'content-type': 'application/pdf' });
        return void res.end(Buffer.from(await pdfOf(inv)));
      }
      if (failures.has('invoice')) return fortnoxError(res, 500, 1000003, 'Systemfel');
      if (!inv) return fortnoxError(res, 404, 2000434, 'Kan inte hitta fakturan.', true);
      return json(res, 200, { Invoice: fullInvoice(inv) });
    }

    const customerPath = /^\/3\/customers\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && customerPath) {
      if (failures.has('customer')) return fortnoxError(res, 500, 1000003, 'Systemfel');
      const c = SANDBOX_CUSTOMERS.find((x) => x.CustomerNumber === decodeURIComponent(customerPath[1] ?? ''));
      if (!c) return fortnoxError(res, 404, 2000433, 'Kan inte hitta kunden.', true);
      return json(res, 200, { Customer: { '@url': `${publicUrl}/3/customers/${c.CustomerNumber}`, ...c } });
    }

    if (path === '/3/invoicepayments' && req.method === 'GET') {
      const number = url.searchParams.get('invoicenumber');
      const list = payments.filter((p) => number === null || p.InvoiceNumber === number);
      return json(res, 200, {
        MetaInformation: {
          '@TotalResources': list.length,
          '@TotalPages': list.length ? 1 : 0,
          '@CurrentPage': 1,
        },
        InvoicePayments: list,
      });
    }

    if (path === '/3/invoicepayments' && req.method === 'POST') {
      if (failures.has('payment')) return fortnoxError(res, 500, 1000003, 'Systemfel');
      let body: { InvoicePayment?: Record<string, unknown> };
      try {
        body = JSON.parse(await readBody(req)) as typeof body;
      } catch {
        return fortnoxError(res, 400, 2002115, 'Felaktig JSON.');
      }
      const p = body.InvoicePayment;
      if (!p || typeof p !== 'object') return fortnoxError(res, 400, 2001392, 'Tom eller felaktig body.');
      const number = String(p.InvoiceNumber ?? '');
      const inv = invoices.find((i) => i.documentNumber === number);
      if (!inv) return fortnoxError(res, 400, 2000434, 'Kan inte hitta fakturan.');
      const paid = Math.round(Number(p.Amount) * 100);
      if (!Number.isFinite(paid) || paid <= 0 || !/^\d{4}-\d{2}-\d{2}$/.test(String(p.PaymentDate ?? '')))
        return fortnoxError(res, 400, 2000588, 'Ogiltig parameter.');
      const stored: StoredPayment = {
        Number: payments.length + 1,
        InvoiceNumber: number,
        Amount: amount(paid),
        PaymentDate: String(p.PaymentDate),
      };
      payments.push(stored);
      if (failures.has('payment_timeout')) await new Promise((r) => setTimeout(r, slowMs));
      return json(res, 201, {
        InvoicePayment: { '@url': `${publicUrl}/3/invoicepayments/${stored.Number}`, ...stored },
      });
    }

    return fortnoxError(res, 404, 2000434, 'Hittar inte resursen.', true);
  }

  publicUrl = await listenSandbox(server, options);

  return {
    url: publicUrl,
    setFailures: (list) => {
      failures.clear();
      for (const f of list) failures.add(f);
    },
    revokeAll: () => {
      refreshTokens.clear();
      accessTokens.clear();
    },
    expireAccessTokens: () => {
      for (const key of accessTokens.keys()) accessTokens.set(key, 0);
    },
    stats: () => ({ ...stats, payments: [...payments] }),
    approve: async (authorizeUrl) => {
      const params = new URL(authorizeUrl).searchParams;
      params.set('decision', 'approve');
      const res = await fetch(`${publicUrl}/oauth-v1/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: params.toString(),
        redirect: 'manual',
      });
      const location = res.headers.get('location');
      if (res.status !== 303 || !location) throw new Error(`sandbox approval failed: ${res.status}`);
      return new URL(location);
    },
    close: () => closeSandbox(server),
  };
}
