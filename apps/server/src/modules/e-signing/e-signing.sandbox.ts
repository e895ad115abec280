// Over 500 lines on purpose: the whole stand-in of Scrive in one file (the Document API with its
// statuses and errors, the signing page, callbacks with retries, the sealed file, failure switches),
// so the protocol reads as one.
import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { closeSandbox, escapeHtml, listenSandbox, readBodyBytes, sendJson } from '../../lib/sandbox-http';
import { winAnsi } from '../../services/invoice-pdf';
import type { DocumentStatus, ScriveCredentials, ScriveDocument, ScriveParty } from './e-signing.client';
import { SANDBOX_AUTHOR, textsOf } from './e-signing.sandbox-data';

/**
 * A stand-in for Scrive (STYLE.md "Partners we cannot reach"): its own small HTTP server speaking the
 * Document API v2 as e-signing.client.ts uses it (shared/domain/e-signing.md). Documents live in
 * memory: `new` (multipart PDF) gives one in `preparation` with the author as its first party,
 * `update` takes the Document JSON, `start` makes it `pending` and gives each `api` party its signing
 * link; a person opens the link, sees the PDF and signs (with the personal number when the party has
 * one and signs with an eID) or rejects. Every signature and every status change (pending, closed,
 * canceled, timedout, rejected) is POSTed to `api_callback_url` as Scrive does (form fields
 * `document_id`, `document_json`, `document_signed_and_sealed`), retried while the receiver does not
 * answer 2xx. When every signing party has signed the document is `closed` and its main file is the
 * sealed PDF: the original pages and a signature page. Tests run the real client against it;
 * `npm start` starts it for the embedded demo.
 */

export const E_SIGNING_SANDBOX_FAILURES = [
  /** Every API call answers 500. */
  'api',
  /** Every API answer comes after `slowMs`. */
  'slow',
  /** The sealed file of a closed document is not ready at the first download (503, as Scrive). */
  'sealing',
  /** The next callback is held back and delivered after the one that follows it (once). */
  'callback_out_of_order',
  /** The next callback is delivered twice (once). */
  'callback_twice',
] as const;
export type ESigningSandboxFailure = (typeof E_SIGNING_SANDBOX_FAILURES)[number];

/** Scrive stops after 10 failed deliveries of a callback. */
const CALLBACK_ATTEMPTS = 10;

export interface ESigningSandboxOptions extends ScriveCredentials {
  port?: number;
  host?: string;
  /** The host name browsers reach the sandbox by. */
  publicHostname?: string;
  now?: () => Date;
  failures?: readonly ESigningSandboxFailure[];
  /** The waits before the 2nd, 3rd, ... delivery of a callback; the last repeats. Scrive: 5 min, growing. */
  callbackRetryMs?: readonly number[];
  /** The delay of the `slow` switch; 15 s by default. */
  slowMs?: number;
}

/** A callback as the sandbox tried to deliver it, for tests. */
export interface CallbackAttempt {
  documentId: string;
  /** The status the document had when the callback was made. */
  status: DocumentStatus;
  attempt: number;
  /** The receiver's status; null when it could not be reached. */
  answer: number | null;
}

export interface ESigningSandbox {
  /** The host's base; the API is under `/api/v2`. */
  url: string;
  apiUrl: string;
  setFailures(failures: readonly ESigningSandboxFailure[]): void;
  /** The next `count` API calls answer `status` (500, 503, 429) with Scrive's error body. */
  failNext(status: number, count?: number): void;
  /** The pending document times out now (as when `timeout_time` passes). */
  timeOut(documentId: string): void;
  /** Every callback delivery tried so far. */
  callbacks(): CallbackAttempt[];
  /** Resolves when no callback is waiting for delivery or a retry. */
  callbacksSettled(): Promise<void>;
  close(): Promise<void>;
}

interface StoredDocument {
  json: ScriveDocument;
  pdf: Uint8Array;
  sealed: Uint8Array | null;
  /** The secret part of each party's link, by party id. */
  tokens: Map<string, string>;
  /** Downloads of the sealed file refused so far (the `sealing` switch refuses the first). */
  sealingRefusals: number;
}

const html = escapeHtml;
const AUTHENTICATIONS = ['standard', 'sms_pin', 'se_bankid', 'no_bankid', 'fi_tupas'];
const DELIVERIES = ['email', 'mobile', 'email_mobile', 'pad', 'api'];
const ROLES = ['signing_party', 'viewer', 'approver'];

/** A Scrive-like numeric id (Scrive's are 19 digits for documents). */
const numericId = (digits: number) =>
  `${randomInt(1, 10)}${Array.from({ length: digits - 1 }, () => randomInt(0, 10)).join('')}`;

const fieldValue = (party: ScriveParty, type: string, order?: number) =>
  String(
    party.fields.find((f) => f.type === type && (order === undefined || f.order === order))?.value ?? '',
  );

const partyName = (party: ScriveParty) =>
  [fieldValue(party, 'name', 1), fieldValue(party, 'name', 2)].filter(Boolean).join(' ');

const digitsOf = (s: string) => s.replace(/[^0-9A-Za-z]/g, '').toUpperCase();

export async function startESigningSandbox(options: ESigningSandboxOptions): Promise<ESigningSandbox> {
  const now = options.now ?? (() => new Date());
  const failures = new Set<ESigningSandboxFailure>(options.failures ?? []);
  const retryMs = options.callbackRetryMs?.length ? options.callbackRetryMs : [5 * 60_000, 15 * 60_000];
  const slowMs = options.slowMs ?? 15_000;
  const documents = new Map<string, StoredDocument>();
  const attempts: CallbackAttempt[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  let heldBack: (() => void) | null = null;
  let forced: { status: number; count: number } | null = null;
  let publicUrl = '';

  const scriveError = (res: ServerResponse, status: number, type: string, message: string) =>
    sendJson(res, status, { error_type: type, error_message: message, http_code: status });

  const same = (a: string, b: string) =>
    a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

  /** Personal access credentials in the Authorization header (OAuth 1.0 PLAINTEXT). */
  const authorized = (req: IncomingMessage) => {
    const header = String(req.headers.authorization ?? '');
    const params = new Map<string, string>();
    for (const m of header.matchAll(/(oauth_[a-z_]+)\s*=\s*"([^"]*)"/g)) params.set(m[1] ?? '', m[2] ?? '');
    return (
      params.get('oauth_signature_method') === 'PLAINTEXT' &&
      same(params.get('oauth_consumer_key') ?? '', options.apiToken) &&
      same(params.get('oauth_token') ?? '', options.accessToken) &&
      same(params.get('oauth_signature') ?? '', `${options.apiSecret}&${options.accessSecret}`)
    );
  };

  const touch = (doc: StoredDocument) => {
    doc.json.mtime = now().toISOString();
    doc.json.object_version = (doc.json.object_version ?? 0) + 1;
  };

  // --- callbacks -----------------------------------------------------------------------------------

  /** One delivery and its retries; the body is the document as it is now (later ones may overtake it). */
  function deliver(doc: StoredDocument, attempt = 1): Promise<void> {
    const url = doc.json.api_callback_url;
    if (!url) return Promise.resolve();
    const snapshot = JSON.stringify(doc.json);
    const status = doc.json.status;
    const body = new URLSearchParams({
      document_id: doc.json.id,
      document_json: snapshot,
      document_signed_and_sealed: String(status === 'closed' && doc.sealed !== null),
    });
    const run = (async () => {
      let answer: number | null = null;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        answer = res.status;
        await res.body?.cancel();
      } catch {
        answer = null;
      }
      attempts.push({ documentId: doc.json.id, status, attempt, answer });
      if ((answer === null || answer < 200 || answer >= 300) && attempt < CALLBACK_ATTEMPTS) {
        const wait = retryMs[Math.min(attempt - 1, retryMs.length - 1)] ?? 0;
        const timer = setTimeout(() => {
          timers.delete(timer);
          deliver(doc, attempt + 1);
        }, wait);
        timers.add(timer);
      }
    })();
    inFlight.add(run);
    void run.finally(() => inFlight.delete(run));
    return run;
  }

  /** A change worth a callback: the switches may hold it back behind the next one, or send it twice. */
  function changed(doc: StoredDocument): void {
    if (!doc.json.api_callback_url) return;
    if (failures.has('callback_out_of_order') && !heldBack) {
      failures.delete('callback_out_of_order');
      // The held-back delivery carries the document as it is now, so it arrives stale.
      const stale = { ...doc, json: structuredClone(doc.json) };
      heldBack = () => void deliver(stale);
      return;
    }
    const first = deliver(doc);
    if (failures.has('callback_twice')) {
      failures.delete('callback_twice');
      void first.then(() => deliver(doc));
    }
    if (heldBack) {
      const late = heldBack;
      heldBack = null;
      void first.then(late);
    }
  }

  // --- documents -----------------------------------------------------------------------------------

  function authorParty(): ScriveParty {
    return {
      id: numericId(10),
      is_author: true,
      signatory_role: 'signing_party',
      fields: [
        { type: 'name', order: 1, value: SANDBOX_AUTHOR.firstName, is_obligatory: true, placements: [] },
        { type: 'name', order: 2, value: SANDBOX_AUTHOR.lastName, is_obligatory: true, placements: [] },
        { type: 'email', value: SANDBOX_AUTHOR.email, is_obligatory: true, placements: [] },
        { type: 'company', value: SANDBOX_AUTHOR.company, is_obligatory: false, placements: [] },
      ],
      sign_order: 1,
      sign_time: null,
      seen_time: null,
      rejected_time: null,
      rejection_reason: null,
      delivery_method: 'email',
      authentication_method_to_sign: 'standard',
      confirmation_delivery_method: 'email',
      api_delivery_url: null,
    };
  }

  /** The time-out of a pending document is checked whenever the document is read, and every minute. */
  function current(id: string): StoredDocument | undefined {
    const doc = documents.get(id);
    if (
      doc?.json.status === 'pending' &&
      doc.json.timeout_time &&
      Date.parse(doc.json.timeout_time) <= now().getTime()
    )
      end(doc, 'timedout');
    return doc;
  }

  function end(doc: StoredDocument, status: DocumentStatus): void {
    doc.json.status = status;
    touch(doc);
    changed(doc);
  }

  /** Applies an `update`'s Document JSON: only what an author may set in preparation. */
  function applyUpdate(doc: StoredDocument, input: Record<string, unknown>): string | null {
    if (typeof input.title === 'string') doc.json.title = input.title.slice(0, 500);
    if (typeof input.lang === 'string') doc.json.lang = input.lang;
    if (input.days_to_sign !== undefined) {
      const days = Number(input.days_to_sign);
      if (!Number.isInteger(days) || days < 1 || days > 365) return 'days_to_sign must be 1 to 365';
      doc.json.days_to_sign = days;
    }
    if (input.api_callback_url !== undefined) {
      const url = input.api_callback_url;
      if (url !== null && (typeof url !== 'string' || !/^https?:\/\//.test(url)))
        return 'api_callback_url must be an http(s) URL';
      doc.json.api_callback_url = url;
    }
    if (input.parties !== undefined) {
      if (!Array.isArray(input.parties)) return 'parties must be an array';
      const author = doc.json.parties.find((p) => p.is_author);
      const parties: ScriveParty[] = [];
      for (const raw of input.parties as Record<string, unknown>[]) {
        if (!raw || typeof raw !== 'object') return 'a party must be an object';
        const existing = doc.json.parties.find((p) => p.id !== undefined && p.id === raw.id);
        if (raw.id !== undefined && !existing) return `no party ${String(raw.id)}`;
        const role = raw.signatory_role ?? existing?.signatory_role ?? 'signing_party';
        const delivery = raw.delivery_method ?? existing?.delivery_method ?? 'email';
        const auth =
          raw.authentication_method_to_sign ?? existing?.authentication_method_to_sign ?? 'standard';
        const order = Number(raw.sign_order ?? existing?.sign_order ?? 1);
        if (!ROLES.includes(String(role))) return `signatory_role ${String(role)} is unknown`;
        if (!DELIVERIES.includes(String(delivery))) return `delivery_method ${String(delivery)} is unknown`;
        if (!AUTHENTICATIONS.includes(String(auth)))
          return `authentication_method_to_sign ${String(auth)} is unknown`;
        if (!Number.isInteger(order) || order < 1) return 'sign_order must be a positive integer';
        const fields = Array.isArray(raw.fields)
          ? (raw.fields as ScriveParty['fields'])
          : (existing?.fields ?? []);
        if (fields.some((f) => !f || typeof f.type !== 'string')) return 'a field must have a type';
        parties.push({
          ...(existing ?? {
            id: numericId(10),
            is_author: false,
            sign_time: null,
            seen_time: null,
            rejected_time: null,
            rejection_reason: null,
            api_delivery_url: null,
            confirmation_delivery_method: 'none',
          }),
          signatory_role: role as ScriveParty['signatory_role'],
          delivery_method: delivery as ScriveParty['delivery_method'],
          authentication_method_to_sign: String(auth),
          sign_order: order,
          fields: fields.map((f) => ({ placements: [], ...f, value: String(f.value ?? '').slice(0, 200) })),
        });
      }
      if (!author || parties.filter((p) => p.is_author).length !== 1)
        return 'the author party must stay in the document';
      doc.json.parties = parties;
    }
    return null;
  }

  function startProblem(doc: StoredDocument): string | null {
    const signing = doc.json.parties.filter((p) => p.signatory_role === 'signing_party');
    if (signing.length === 0) return 'the document has no signing party';
    for (const p of signing) {
      if (!partyName(p)) return `party ${p.id} has no name`;
      if (p.delivery_method === 'email' && !fieldValue(p, 'email')) return `party ${p.id} has no email`;
      if (p.delivery_method === 'mobile' && !fieldValue(p, 'mobile')) return `party ${p.id} has no mobile`;
    }
    return null;
  }

  /** The original PDF's pages and a signature page listing every signing party. */
  async function seal(doc: StoredDocument): Promise<Uint8Array> {
    const pdf = await PDFDocument.load(doc.pdf);
    const t = textsOf(doc.json.lang);
    const page = pdf.addPage([595.28, 841.89]);
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
    let y = 780;
    const line = (text: string, size = 11, f = font, x = 50) => {
      page.drawText(winAnsi(text), { x, y, size, font: f, color: rgb(0.1, 0.12, 0.16) });
      y -= size + 7;
    };
    line(t.signaturePage, 20, bold);
    line(doc.json.title, 13);
    line(`${t.documentId} ${doc.json.id}`, 10);
    y -= 12;
    for (const p of doc.json.parties.filter((x) => x.signatory_role === 'signing_party')) {
      line(partyName(p), 13, bold);
      const pn = fieldValue(p, 'personal_number');
      const company = fieldValue(p, 'company');
      if (company) line(company, 10, font, 62);
      if (pn) line(`${t.personalNumber}: ${pn}`, 10, font, 62);
      const email = fieldValue(p, 'email');
      if (email) line(email, 10, font, 62);
      line(
        `${t.method}: ${t.methods[String(p.authentication_method_to_sign)] ?? String(p.authentication_method_to_sign)}`,
        10,
        font,
        62,
      );
      line(`${t.signedAt}: ${p.sign_time ?? ''}`, 10, font, 62);
      y -= 10;
    }
    y -= 10;
    line(`${t.sealed} ${now().toISOString()} - Demo e-signing`, 9);
    pdf.setTitle(doc.json.title);
    return pdf.save();
  }

  // --- the signing page ----------------------------------------------------------------------------

  const linkOf = (doc: StoredDocument, party: ScriveParty) =>
    `/s/${doc.json.id}/${party.id}/${doc.tokens.get(party.id ?? '') ?? ''}`;

  const mayEnter = (doc: StoredDocument, party: ScriveParty) =>
    doc.json.parties
      .filter((p) => p.signatory_role === 'signing_party' && (p.sign_order ?? 1) < (party.sign_order ?? 1))
      .every((p) => p.sign_time);

  function signingPage(doc: StoredDocument, party: ScriveParty, message: string | null): string {
    const t = textsOf(doc.json.lang);
    const link = linkOf(doc, party);
    const statusText: Partial<Record<DocumentStatus, string>> = {
      closed: t.documentClosed,
      rejected: t.documentRejected,
      canceled: t.documentCanceled,
      timedout: t.documentTimedout,
    };
    const rows = doc.json.parties
      .filter((p) => p.signatory_role === 'signing_party')
      .map(
        (p) =>
          `<li>${html(partyName(p))} – ${p.sign_time ? `${t.signed} ${html(p.sign_time.slice(0, 16).replace('T', ' '))}` : p.rejected_time ? t.rejected : t.waitingParty}</li>`,
      )
      .join('');
    let action = '';
    if (doc.json.status !== 'pending')
      action = `<p class="done">${html(statusText[doc.json.status] ?? '')}</p>`;
    else if (party.sign_time) action = `<p class="done">${html(t.youSigned)}</p>`;
    else if (!mayEnter(doc, party)) action = `<p>${html(t.waitForOthers)}</p>`;
    else {
      const eid = party.authentication_method_to_sign !== 'standard' && fieldValue(party, 'personal_number');
      action = `<form method="post" action="${html(link)}">${
        eid
          ? `<h2>${html(t.identify)}: ${html(t.methods[String(party.authentication_method_to_sign)] ?? '')}</h2><label>${html(t.personalNumber)} <input name="personal_number" autocomplete="off" required></label>`
          : ''
      }<div class="buttons"><button name="decision" value="sign" class="primary">${html(t.sign)}</button></div></form><form method="post" action="${html(link)}" class="reject"><label>${html(t.rejectReason)} <textarea name="reason" rows="2"></textarea></label><div class="buttons"><button name="decision" value="reject">${html(t.reject)}</button></div></form>`;
    }
    return `<!doctype html><html lang="${html(doc.json.lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${html(t.pageTitle)} – ${html(doc.json.title)}</title><style>body{font-family:system-ui,sans-serif;background:#f3f2f7;margin:0;color:#1b2733}main{max-width:560px;margin:40px auto;background:#fff;border-radius:12px;padding:28px;box-shadow:0 2px 12px rgba(0,0,0,.08)}header{display:flex;align-items:center;gap:12px}.logo{font-weight:800;font-size:22px;color:#3a2a8c}.badge{margin-left:auto;background:#ffd54f;color:#4a3b00;border-radius:999px;padding:2px 10px;font-size:12px;font-weight:700}.buttons{display:flex;gap:8px;margin-top:12px}button{font:inherit;padding:8px 16px;border-radius:6px;border:1px solid #9aa5b1;background:#fff;cursor:pointer}button.primary{background:#3a2a8c;border-color:#3a2a8c;color:#fff}label{display:block;margin-top:12px}input,textarea{display:block;width:100%;box-sizing:border-box;font:inherit;padding:6px;margin-top:4px}.reject{margin-top:24px;border-top:1px solid #e3e6ea;padding-top:8px}.message{color:#a3141b}.done{font-weight:600}</style></head><body><main><header><span class="logo">scrive</span><span class="badge">Demo</span></header><h1>${html(t.pageTitle)}</h1><p><strong>${html(doc.json.title)}</strong></p><p>${html(t.intro)}</p><p><a href="${html(link)}/document.pdf" target="_blank" rel="noopener">${html(t.openPdf)}</a></p><h2>${html(t.parties)}</h2><ul>${rows}</ul>${message ? `<p class="message">${html(message)}</p>` : ''}${action}</main></body></html>`;
  }

  async function signingDecision(
    doc: StoredDocument,
    party: ScriveParty,
    form: URLSearchParams,
  ): Promise<string | null> {
    const t = textsOf(doc.json.lang);
    if (doc.json.status !== 'pending' || party.sign_time || !mayEnter(doc, party)) return null;
    if (form.get('decision') === 'reject') {
      party.rejected_time = now().toISOString();
      party.rejection_reason = (form.get('reason') ?? '').trim().slice(0, 500) || null;
      end(doc, 'rejected');
      return t.youRejected;
    }
    if (form.get('decision') !== 'sign') return null;
    const expected = fieldValue(party, 'personal_number');
    if (
      party.authentication_method_to_sign !== 'standard' &&
      expected &&
      digitsOf(form.get('personal_number') ?? '') !== digitsOf(expected)
    )
      return t.wrongPersonalNumber;
    party.sign_time = now().toISOString();
    party.seen_time ??= party.sign_time;
    const signing = doc.json.parties.filter((p) => p.signatory_role === 'signing_party');
    if (signing.every((p) => p.sign_time)) {
      doc.json.status = 'closed';
      doc.sealed = await seal(doc);
      doc.json.sealed_file = {
        id: numericId(8),
        name: `${doc.json.title.replace(/[^\w\- ]+/g, '').trim() || 'document'}.pdf`,
      };
    }
    touch(doc);
    changed(doc);
    return t.youSigned;
  }

  // --- the server ----------------------------------------------------------------------------------

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) scriveError(res, 500, 'server_error', 'We encountered an unexpected error.');
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const path = url.pathname;

    const page = /^\/s\/([0-9]+)\/([0-9]+)\/([0-9a-f]+)(\/document\.pdf)?$/.exec(path);
    if (page) {
      const doc = current(page[1] ?? '');
      const party = doc?.json.parties.find((p) => p.id === page[2]);
      const token = doc && party ? doc.tokens.get(party.id ?? '') : undefined;
      if (!doc || !party || !token || !same(token, page[3] ?? '')) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        return void res.end(textsOf(doc?.json.lang ?? 'en').notFound);
      }
      if (page[4]) {
        res.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': 'inline' });
        return void res.end(Buffer.from(doc.sealed ?? doc.pdf));
      }
      let message: string | null = null;
      if (req.method === 'POST') {
        const form = new URLSearchParams((await readBodyBytes(req, 64 * 1024)).toString('utf8'));
        message = await signingDecision(doc, party, form);
      } else if (doc.json.status === 'pending' && !party.seen_time) {
        party.seen_time = now().toISOString();
        touch(doc);
      }
      res.writeHead(message === textsOf(doc.json.lang).wrongPersonalNumber ? 400 : 200, {
        'content-type': 'text/html; charset=utf-8',
      });
      return void res.end(signingPage(doc, party, message));
    }

    if (!path.startsWith('/api/v2/'))
      return scriveError(res, 404, 'endpoint_not_found', 'The endpoint was not found.');
    if (!authorized(req))
      return scriveError(res, 401, 'invalid_authorisation', 'No valid access credentials were provided.');
    if (failures.has('slow')) await new Promise((r) => setTimeout(r, slowMs));
    if (forced && forced.count > 0) {
      forced.count--;
      const { status } = forced;
      if (forced.count === 0) forced = null;
      if (status === 429) res.setHeader('retry-after', '0');
      return scriveError(
        res,
        status,
        status === 429 ? 'too_many_requests' : 'server_error',
        'Try again later.',
      );
    }
    if (failures.has('api'))
      return scriveError(res, 500, 'server_error', 'We encountered an unexpected error.');

    if (req.method === 'POST' && path === '/api/v2/documents/new') {
      const body = await readBodyBytes(req);
      let file: File | null = null;
      try {
        const form = await new Request('http://sandbox.invalid', {
          method: 'POST',
          headers: { 'content-type': String(req.headers['content-type'] ?? '') },
          body: new Uint8Array(body),
        }).formData();
        const value = form.get('file');
        file = value instanceof File ? value : null;
      } catch {
        return scriveError(
          res,
          400,
          'request_parameters_parse_error',
          'The parameter(s) file could not be parsed.',
        );
      }
      if (!file)
        return scriveError(res, 400, 'request_parameters_missing', 'The parameter(s) file were missing.');
      const pdf = new Uint8Array(await file.arrayBuffer());
      try {
        await PDFDocument.load(pdf);
      } catch {
        return scriveError(res, 400, 'request_parameters_invalid', 'The file is not a PDF.');
      }
      const id = numericId(19);
      const created = now().toISOString();
      const name = file.name || 'document.pdf';
      const doc: StoredDocument = {
        json: {
          id,
          title: name.replace(/\.pdf$/i, ''),
          status: 'preparation',
          parties: [authorParty()],
          file: { id: numericId(8), name },
          sealed_file: null,
          ctime: created,
          mtime: created,
          timeout_time: null,
          days_to_sign: 90,
          lang: 'sv',
          api_callback_url: null,
          object_version: 1,
          is_saved: true,
          is_template: false,
        },
        pdf,
        sealed: null,
        tokens: new Map(),
        sealingRefusals: 0,
      };
      documents.set(id, doc);
      return sendJson(res, 201, doc.json, 'application/json; charset=UTF-8');
    }

    const m = /^\/api\/v2\/documents\/([^/]+)\/(update|start|get|cancel|callback|files\/main\/[^/]+)$/.exec(
      path,
    );
    if (!m) return scriveError(res, 404, 'endpoint_not_found', 'The endpoint was not found.');
    const action = (m[2] ?? '').startsWith('files/main/') ? 'file' : m[2];
    const doc = current(decodeURIComponent(m[1] ?? ''));
    const method = action === 'get' || action === 'file' ? 'GET' : 'POST';
    if (req.method !== method)
      return scriveError(res, 404, 'endpoint_not_found', 'The endpoint was not found.');
    if (!doc)
      return scriveError(
        res,
        404,
        'resource_not_found',
        `The resource was not found. A document with id ${m[1]} was not found.`,
      );
    const stateError = (message: string) => scriveError(res, 409, 'document_state_error', message);

    switch (action) {
      case 'get':
        return sendJson(res, 200, doc.json);
      case 'update': {
        if (doc.json.status !== 'preparation') return stateError('The document is not in preparation.');
        const form = new URLSearchParams((await readBodyBytes(req, 1024 * 1024)).toString('utf8'));
        const raw = form.get('document');
        if (raw === null)
          return scriveError(
            res,
            400,
            'request_parameters_missing',
            'The parameter(s) document were missing.',
          );
        let input: Record<string, unknown>;
        try {
          input = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          return scriveError(
            res,
            400,
            'request_parameters_parse_error',
            'The parameter(s) document could not be parsed.',
          );
        }
        if (!input || typeof input !== 'object')
          return scriveError(
            res,
            400,
            'request_parameters_parse_error',
            'The parameter(s) document could not be parsed.',
          );
        if (input.object_version !== undefined && input.object_version !== doc.json.object_version)
          return scriveError(
            res,
            409,
            'document_object_version_mismatch',
            'The document has a different object_version.',
          );
        const before = structuredClone(doc.json);
        const problem = applyUpdate(doc, input);
        if (problem) {
          doc.json = before;
          return scriveError(res, 400, 'request_parameters_invalid', problem);
        }
        touch(doc);
        return sendJson(res, 200, doc.json);
      }
      case 'start': {
        if (doc.json.status !== 'preparation') return stateError('The document is not in preparation.');
        const problem = startProblem(doc);
        if (problem) return scriveError(res, 400, 'request_parameters_invalid', problem);
        doc.json.status = 'pending';
        doc.json.timeout_time = new Date(now().getTime() + doc.json.days_to_sign * 86_400_000).toISOString();
        for (const p of doc.json.parties) {
          if (p.signatory_role !== 'signing_party' || p.delivery_method !== 'api') continue;
          doc.tokens.set(p.id ?? '', randomBytes(8).toString('hex'));
          p.api_delivery_url = linkOf(doc, p);
        }
        touch(doc);
        changed(doc);
        return sendJson(res, 200, doc.json);
      }
      case 'cancel':
        if (doc.json.status !== 'pending') return stateError('Only a pending document can be cancelled.');
        end(doc, 'canceled');
        return sendJson(res, 200, doc.json);
      case 'callback':
        if (doc.json.api_callback_url) deliver(doc);
        return sendJson(res, 202, {});
      default: {
        if (doc.json.status === 'closed') {
          if (!doc.sealed || (failures.has('sealing') && doc.sealingRefusals === 0)) {
            doc.sealingRefusals++;
            return scriveError(
              res,
              503,
              'document_state_error',
              'The sealed PDF for the document is not ready yet, please wait and try again.',
            );
          }
          res.writeHead(200, { 'content-type': 'application/pdf' });
          return void res.end(Buffer.from(doc.sealed));
        }
        res.writeHead(200, { 'content-type': 'application/pdf' });
        return void res.end(Buffer.from(doc.pdf));
      }
    }
  }

  publicUrl = await listenSandbox(server, options);
  const sweep = setInterval(() => {
    for (const id of documents.keys()) current(id);
  }, 60_000);
  sweep.unref();

  return {
    url: publicUrl,
    apiUrl: `${publicUrl}/api/v2`,
    setFailures: (list) => {
      failures.clear();
      for (const f of list) failures.add(f);
    },
    failNext: (status, count = 1) => {
      forced = { status, count };
    },
    timeOut: (documentId) => {
      const doc = documents.get(documentId);
      if (doc?.json.status !== 'pending') throw new Error(`sandbox: document ${documentId} is not pending`);
      end(doc, 'timedout');
    },
    callbacks: () => [...attempts],
    callbacksSettled: async () => {
      while (inFlight.size > 0 || timers.size > 0) await new Promise((r) => setTimeout(r, 5));
    },
    close: () => {
      clearInterval(sweep);
      for (const t of timers) clearTimeout(t);
      timers.clear();
      return closeSandbox(server);
    },
  };
}
