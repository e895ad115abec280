import type { ErrorCode, ValidationIssue } from '@portal/contracts';
import type { z } from 'zod';
import { emitReloadAbilities } from './events';
import { loadPublicSchemas, loadSchemas, type PublicSchemas, type Schemas } from './load-schemas';
import { isPublicPath } from './public-paths';
import { clearSession, getSession } from './session-store';

/** A failed call: the HTTP status and the contract error code; never the server's own text (spec §8). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly issues: ValidationIssue[];
  readonly retryAfterSeconds: number | undefined;
  /** Facts the message shows, e.g. the existing invoice of `invoices.duplicate_number` (spec §5). */
  readonly details: Record<string, string | number>;

  constructor(
    status: number,
    code: ErrorCode,
    issues: ValidationIssue[] = [],
    retryAfterSeconds?: number,
    details: Record<string, string | number> = {},
  ) {
    super(`${status} ${code}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.issues = issues;
    this.retryAfterSeconds = retryAfterSeconds;
    this.details = details;
  }
}

export interface ApiRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A contracts ROUTES path, starting with `/api`. */
  path: string;
}

export interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  /** JSON body; a `Blob` (file upload) is sent as it is with `contentType`. */
  body?: unknown;
  /** The content type of a `Blob` body, e.g. `application/pdf`. */
  contentType?: string;
  signal?: AbortSignal;
  /** Extra request headers, e.g. `Idempotency-Key` on calls that accept one. */
  headers?: Record<string, string>;
}

/** The base address comes from the global setting of /config.js (spec §7), `/api` when absent. */
export function apiBaseUrl(): string {
  const configured = window.__PORTAL_CONFIG__?.apiBaseUrl;
  return (configured && configured.length > 0 ? configured : '/api').replace(/\/+$/, '');
}

/** Contract paths carry the `/api` prefix; the configured base replaces it. */
export function buildUrl(path: string, query?: RequestOptions['query']): string {
  const relative = path.replace(/^\/api(?=\/|$)/, '');
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.set(key, String(value));
  }
  const qs = search.toString();
  return `${apiBaseUrl()}${relative}${qs ? `?${qs}` : ''}`;
}

async function send(route: ApiRoute, options: RequestOptions, accept: string): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers, Accept: accept };
  // The screen's language: what the server words its own texts in (our messages, for one).
  const language = document.documentElement.lang;
  if (language) headers['Accept-Language'] = language;
  const { token } = getSession();
  if (token) headers.Authorization = `Bearer ${token}`;
  const raw = options.body instanceof Blob;
  if (options.body !== undefined) {
    headers['Content-Type'] = raw ? options.contentType || 'application/octet-stream' : 'application/json';
  }
  let response: Response;
  try {
    response = await fetch(buildUrl(route.path, options.query), {
      method: route.method,
      headers,
      body:
        options.body === undefined ? undefined : raw ? (options.body as Blob) : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'server.unavailable');
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}

async function toApiError(response: Response): Promise<ApiError> {
  let payload: unknown = null;
  try {
    payload = await response.json();
  } catch {
    payload = null;
  }
  const { errorResponseSchema } = await loadPublicSchemas();
  const parsed = errorResponseSchema.safeParse(payload);
  const fallback: ErrorCode = response.status >= 500 ? 'server.internal' : 'validation.invalid';
  const error = parsed.success
    ? new ApiError(
        response.status,
        parsed.data.code,
        parsed.data.issues,
        parsed.data.retryAfterSeconds,
        parsed.data.details,
      )
    : new ApiError(response.status, fallback);
  applyGlobalRules(error);
  return error;
}

/**
 * Global rules of spec §4 and §8: a 401 ends the session (the navigation guard then shows the login)
 * unless the user is on a public route, where a 401 is a wrong password or code; a 403 asks the shell
 * to load the abilities again. The caller still gets the error.
 */
function applyGlobalRules(error: ApiError): void {
  if (error.status === 401 && !isPublicPath(window.location.pathname)) clearSession();
  if (error.status === 403) emitReloadAbilities();
}

/**
 * Calls the API with JSON in and out and parses the answer with the contract schema that `pick`
 * chooses from the lazily loaded schema module (lib/schemas.ts).
 */
export function apiRequest<S extends z.ZodType>(
  route: ApiRoute,
  pick: (schemas: Schemas) => S,
  options: RequestOptions = {},
): Promise<z.infer<S>> {
  return requestParsed(loadSchemas, route, pick, options);
}

/**
 * `apiRequest` for the calls of the pages before sign-in: their schemas come from the small
 * public-schemas module, so the login page loads none of the signed-in screens' contracts.
 */
export function publicApiRequest<S extends z.ZodType>(
  route: ApiRoute,
  pick: (schemas: PublicSchemas) => S,
  options: RequestOptions = {},
): Promise<z.infer<S>> {
  return requestParsed(loadPublicSchemas, route, pick, options);
}

async function requestParsed<M, S extends z.ZodType>(
  load: () => Promise<M>,
  route: ApiRoute,
  pick: (schemas: M) => S,
  options: RequestOptions,
): Promise<z.infer<S>> {
  const [response, schemas] = await Promise.all([send(route, options, 'application/json'), load()]);
  const payload: unknown = response.status === 204 ? {} : await response.json();
  return pick(schemas).parse(payload);
}

export interface DownloadedFile {
  blob: Blob;
  filename: string | null;
}

/** Reads the file name of a `Content-Disposition` header, preferring the RFC 5987 `filename*`. */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      return extended[1].trim();
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  return plain?.[1]?.trim() ?? null;
}

/** A file answer (spec §7 report downloads): the body as a blob and the name from content-disposition. */
export async function apiDownload(route: ApiRoute, options: RequestOptions = {}): Promise<DownloadedFile> {
  const response = await send(route, options, '*/*');
  return {
    blob: await response.blob(),
    filename: filenameFromDisposition(response.headers.get('Content-Disposition')),
  };
}

/**
 * Sends a file as the raw request body (`POST limited/files`, the import preview) and parses the JSON
 * answer with the contract schema, like `apiRequest`.
 */
export function apiUpload<S extends z.ZodType>(
  route: ApiRoute,
  pick: (schemas: Schemas) => S,
  file: Blob,
  options: Omit<RequestOptions, 'body'> & { contentType: string },
): Promise<z.infer<S>> {
  return apiRequest(route, pick, { ...options, body: file });
}
