import { failureOfStatus, failureOfThrown, type PartnerFailure, retryWaitMs } from '../../lib/partner-http';

/**
 * The client of Scrive's Document API v2 (shared/domain/e-signing.md), as far as the portal needs it:
 * a document from a PDF (`documents/new`, multipart), its parties and callback URL (`update`, the
 * document JSON as the form field `document`), `start`, `get`, `cancel`, `callback`, and the main file
 * (`files/main/{name}`: the sealed PDF once the document is closed, 503 until Scrive has sealed it).
 * It signs every call with personal access credentials (OAuth 1.0 PLAINTEXT in the Authorization
 * header), reads Scrive's error body (`error_type`, `error_message`, `http_code`), waits and retries
 * on 429, retries 5xx only where a second try cannot do the work twice (reads and `update`), and
 * gives up on a call after a time-out. The sandbox (e-signing.sandbox.ts) speaks the same protocol.
 */

/** The statuses of a Scrive document (DocumentStatus). */
export const DOCUMENT_STATUSES = [
  'preparation',
  'pending',
  'closed',
  'canceled',
  'timedout',
  'rejected',
  'document_error',
] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** The ways a party proves who signs (`authentication_method_to_sign`), those the portal uses. */
export type SignAuthentication = 'standard' | 'sms_pin' | 'se_bankid' | 'no_bankid' | 'fi_tupas';

/**
 * Why a call failed, as the service needs to tell it apart: 409 is Scrive's `document_state_error`
 * (starting a started document) or `document_object_version_mismatch`; 401 its `invalid_authorisation`,
 * 404 its `resource_not_found`.
 */
export type ESigningFailure = 'conflict' | PartnerFailure;

export class ESigningError extends Error {
  constructor(
    readonly failure: ESigningFailure,
    /** HTTP status of Scrive's answer; null when it did not answer. */
    readonly status: number | null,
    /** Scrive's `error_type` (`resource_not_found`, `document_state_error`, ...), when it sent one. */
    readonly errorType: string | null,
    message?: string,
  ) {
    super(message ?? `e-signing: ${failure} (${status ?? 'no answer'}${errorType ? ` ${errorType}` : ''})`);
  }
}

/** One signatory field as the Signatory JSON has it; only the types the portal sets are named. */
export interface ScriveField {
  type: 'name' | 'email' | 'mobile' | 'personal_number' | 'company' | 'company_number' | string;
  /** For `name`: 1 is the first name, 2 the last name. */
  order?: number;
  value?: string;
  is_obligatory?: boolean;
  should_be_filled_by_sender?: boolean;
  placements?: unknown[];
  [key: string]: unknown;
}

/** A party (Signatory JSON); read-only keys are as Scrive answers them. */
export interface ScriveParty {
  id?: string;
  is_author?: boolean;
  signatory_role?: 'signing_party' | 'viewer' | 'approver';
  fields: ScriveField[];
  sign_order?: number;
  sign_time?: string | null;
  seen_time?: string | null;
  rejected_time?: string | null;
  rejection_reason?: string | null;
  delivery_method?: 'email' | 'mobile' | 'email_mobile' | 'pad' | 'api';
  authentication_method_to_sign?: SignAuthentication | string;
  confirmation_delivery_method?: string;
  /** With `delivery_method: api`, once started: the party's signing link, relative to Scrive's host. */
  api_delivery_url?: string | null;
  [key: string]: unknown;
}

/** The Document JSON, with the keys the portal reads or sets. */
export interface ScriveDocument {
  id: string;
  title: string;
  status: DocumentStatus;
  parties: ScriveParty[];
  file: { id: string; name: string } | null;
  sealed_file: { id: string; name: string } | null;
  ctime?: string;
  mtime?: string;
  timeout_time: string | null;
  days_to_sign: number;
  /** The language of the signing pages and messages: `sv`, `en`, `fi`, ... */
  lang: string;
  api_callback_url: string | null;
  object_version?: number;
  [key: string]: unknown;
}

/** Personal access credentials (Scrive account → Integration settings, or `getpersonaltoken`). */
export interface ScriveCredentials {
  apiToken: string;
  apiSecret: string;
  accessToken: string;
  accessSecret: string;
}

export interface ESigningClientConfig extends ScriveCredentials {
  /** The API's base with its version, `https://scrive.com/api/v2` (the testbed: `https://api-testbed.scrive.com/api/v2`). */
  apiUrl: string;
  /** Time-out of each call; 15 s by default (an upload may be a few MB). */
  timeoutMs?: number;
  /** Retries of a call answered 429, or 5xx where retrying is safe; 3 by default. */
  retries?: number;
  /** The first wait before a retry when Scrive names none (`Retry-After`); doubled each time. 1 s by default. */
  backoffMs?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

export interface ESigningClient {
  /** `POST documents/new`: a document in `preparation` with the PDF as its main file. */
  createDocument(pdf: Uint8Array, fileName: string): Promise<ScriveDocument>;
  /** `POST documents/{id}/update` with the whole Document JSON (only in `preparation`). */
  updateDocument(document: ScriveDocument): Promise<ScriveDocument>;
  /** `POST documents/{id}/start`: `pending`; parties with `api` delivery get their `api_delivery_url`. */
  startDocument(id: string): Promise<ScriveDocument>;
  getDocument(id: string): Promise<ScriveDocument>;
  /** `POST documents/{id}/cancel` (only `pending`): `canceled`. */
  cancelDocument(id: string): Promise<ScriveDocument>;
  /** `POST documents/{id}/callback`: Scrive calls `api_callback_url` again now. */
  triggerCallback(id: string): Promise<void>;
  /**
   * `GET documents/{id}/files/main/{name}`: the sealed PDF once `closed` (503 until it is sealed, which
   * is retried), else the document as it stands.
   */
  downloadMainFile(id: string): Promise<Buffer>;
  /** A party's `api_delivery_url` (relative to Scrive's host) as an absolute address. */
  signingLink(apiDeliveryUrl: string): string;
}

/** The Authorization header of personal access credentials (OAuth 1.0, PLAINTEXT signature). */
export function personalAccessHeader(c: ScriveCredentials): string {
  const q = (s: string) => `"${s.replace(/["\\]/g, '')}"`;
  return [
    `oauth_signature_method=${q('PLAINTEXT')}`,
    `oauth_consumer_key=${q(c.apiToken)}`,
    `oauth_token=${q(c.accessToken)}`,
    `oauth_signature=${q(`${c.apiSecret}&${c.accessSecret}`)}`,
  ].join(', ');
}

export function createESigningClient(config: ESigningClientConfig): ESigningClient {
  const base = config.apiUrl.replace(/\/+$/, '');
  const origin = new URL(base).origin;
  const timeoutMs = config.timeoutMs ?? 15_000;
  const retries = config.retries ?? 3;
  const backoffMs = config.backoffMs ?? 1000;
  const httpFetch = config.fetch ?? globalThis.fetch;
  const sleep = config.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const authorization = personalAccessHeader(config);

  async function errorOf(res: Response): Promise<ESigningError> {
    let errorType: string | null = null;
    let message: string | undefined;
    try {
      const body = JSON.parse(await res.text()) as Record<string, unknown>;
      if (typeof body.error_type === 'string') errorType = body.error_type;
      if (typeof body.error_message === 'string')
        message = `e-signing: ${res.status} ${errorType ?? ''} ${body.error_message}`;
    } catch {
      // No readable body: the status says enough.
    }
    const failure: ESigningFailure = res.status === 409 ? 'conflict' : failureOfStatus(res.status);
    return new ESigningError(failure, res.status, errorType, message);
  }

  /**
   * One call. A 429 waits (`Retry-After`, else a doubling back-off) and tries again; so does a 5xx when
   * `retryServerErrors` (reads and `update`, which set the same state twice; `new`, `start` and
   * `cancel` are not repeated blindly: the first try may have done the work).
   */
  async function call(
    path: string,
    init: { method: 'GET' | 'POST'; body?: () => RequestInit['body']; accept?: string },
    retryServerErrors: boolean,
  ): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await httpFetch(`${base}${path}`, {
          method: init.method,
          headers: { authorization, accept: init.accept ?? 'application/json' },
          body: init.body?.(),
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        throw new ESigningError(failureOfThrown(err), null, null);
      }
      const retryable = res.status === 429 || (retryServerErrors && res.status >= 500);
      if (retryable && attempt < retries) {
        await res.body?.cancel();
        await sleep(retryWaitMs(res, backoffMs, attempt));
        continue;
      }
      if (!res.ok) throw await errorOf(res);
      return res;
    }
  }

  async function documentOf(res: Response): Promise<ScriveDocument> {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await res.text()) as Record<string, unknown>;
    } catch (err) {
      if (err instanceof SyntaxError) throw new ESigningError('malformed', res.status, null);
      throw new ESigningError(failureOfThrown(err), res.status, null);
    }
    if (
      !body ||
      typeof body.id !== 'string' ||
      typeof body.status !== 'string' ||
      !(DOCUMENT_STATUSES as readonly string[]).includes(body.status) ||
      !Array.isArray(body.parties)
    )
      throw new ESigningError('malformed', res.status, null);
    return body as unknown as ScriveDocument;
  }

  const id = (documentId: string) => {
    if (!/^[0-9]{1,40}$/.test(documentId)) throw new ESigningError('not_found', null, 'resource_not_found');
    return documentId;
  };

  return {
    async createDocument(pdf, fileName) {
      const res = await call(
        '/documents/new',
        {
          method: 'POST',
          body: () => {
            const form = new FormData();
            form.set('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), fileName);
            form.set('saved', 'true');
            return form;
          },
        },
        false,
      );
      return documentOf(res);
    },
    async updateDocument(document) {
      const res = await call(
        `/documents/${id(document.id)}/update`,
        {
          method: 'POST',
          body: () => new URLSearchParams({ document: JSON.stringify(document) }),
        },
        true,
      );
      return documentOf(res);
    },
    async startDocument(documentId) {
      return documentOf(await call(`/documents/${id(documentId)}/start`, { method: 'POST' }, false));
    },
    async getDocument(documentId) {
      return documentOf(await call(`/documents/${id(documentId)}/get`, { method: 'GET' }, true));
    },
    async cancelDocument(documentId) {
      return documentOf(await call(`/documents/${id(documentId)}/cancel`, { method: 'POST' }, false));
    },
    async triggerCallback(documentId) {
      const res = await call(`/documents/${id(documentId)}/callback`, { method: 'POST' }, true);
      await res.body?.cancel();
    },
    async downloadMainFile(documentId) {
      const res = await call(
        `/documents/${id(documentId)}/files/main/${encodeURIComponent(`${documentId}.pdf`)}`,
        { method: 'GET', accept: 'application/pdf' },
        true,
      );
      let bytes: Buffer;
      try {
        bytes = Buffer.from(await res.arrayBuffer());
      } catch (err) {
        throw new ESigningError(failureOfThrown(err), res.status, null);
      }
      if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-')
        throw new ESigningError('malformed', res.status, null);
      return bytes;
    },
    signingLink(apiDeliveryUrl) {
      return new URL(apiDeliveryUrl, origin).toString();
    },
  };
}
