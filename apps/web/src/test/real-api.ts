// Test files only: the web's tests run the real server in this process (STYLE "Testing layers", web).
// The rule "the web never imports the server" is about app code; nothing under src/ but tests imports this.

import type { User } from '@portal/contracts';
import { createTestApp, DEMO_PASSWORD, type TestApp } from '@portal/server/testing';
import { afterAll, beforeAll, beforeEach, vi } from 'vitest';
import { getSession, updateSession } from '../lib/session-store';
import { readBlob } from './downloads';

/** One call the page made, as the server received it. */
export interface RealCall {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The parsed JSON body, or undefined for no body or a raw (file) body. */
  body: unknown;
  headers: Record<string, string>;
}

export interface RealApi {
  /** The server of this test file; valid inside tests and hooks (after beforeAll). */
  readonly server: TestApp;
  /** The calls the page made in the current test, in order. */
  readonly calls: RealCall[];
  /** Signs in a demo user on the real server and puts token and user where the session store reads them. */
  signIn(username?: string): Promise<{ token: string; user: User }>;
  /** The status the server answers `GET /api/self` with for the session `token`: 200 while it lives. */
  selfStatus(token: string): Promise<number>;
  /**
   * Answers the next matching call (`'POST /api/limited/invoices/pdf'`) with `answer` instead of the
   * server, once. Only for a condition the real server cannot be made to produce here (a 5xx, a broken
   * network): say why at the call. `'network'` makes fetch reject, as a dropped connection does.
   */
  failNext(route: string, answer: { status: number; body?: unknown } | 'network'): void;
  /** A real PDF (the server checks that it opens and has pages): its own PDF of demo invoice 10042. */
  demoPdf(): Promise<Uint8Array>;
  /** The id of a demo invoice by its number (seeded ids are random). */
  invoiceID(invoiceNumber: string): Promise<string>;
  /**
   * Calls the server directly (not through the page) as the signed-in user, to look up seeded rows
   * (ids are random per seed) or to check what a page changed. Fails on an error status.
   */
  call<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ): Promise<T>;
}

async function bodyBytes(body: BodyInit | null | undefined): Promise<Buffer | string | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  // A file the page picked is jsdom's Blob, not Node's: read it as jsdom offers it.
  if (typeof Blob !== 'undefined' && body instanceof Blob) return Buffer.from(await readBlob(body));
  if (body instanceof URLSearchParams) return body.toString();
  throw new Error(`real-api: unsupported request body ${Object.prototype.toString.call(body)}`);
}

function headerRecord(headers: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers).forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

/**
 * Vitest's jsdom environment gives the test its own Uint8Array, so Node's Buffers are not instances of
 * it and libraries the server uses (pdf-lib's type check) refuse the bytes it received: a real PDF would
 * be answered `files.not_pdf`. While the server runs here, Uint8Array is Node's again (again before each
 * test, as a test's `vi.unstubAllGlobals()` undoes it).
 */
function useNodeUint8Array(): void {
  vi.stubGlobal('Uint8Array', Object.getPrototypeOf(Buffer.prototype).constructor);
}

/**
 * Starts the real server (buildApp over embedded PGlite with the demo seed) once for the test file,
 * restores the seeded state before each test, and routes the browser code's `fetch` to it through
 * `app.inject`: no socket, the same routes, validation, permissions and error codes as production.
 */
export function startRealApi(): RealApi {
  let server: TestApp | undefined;
  const calls: RealCall[] = [];
  let failures: { route: string; answer: { status: number; body?: unknown } | 'network' }[] = [];

  async function realFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
    if (!server)
      throw new Error('real-api: the server is not started (call startRealApi at the top of the file)');
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request ? request.url : String(input), 'http://localhost');
    const method = (init.method ?? request?.method ?? 'GET').toUpperCase();
    const headers = headerRecord(init.headers ?? request?.headers);
    const signal = init.signal ?? request?.signal;
    if (signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    const payload = await bodyBytes(init.body ?? (request?.body ? await request.arrayBuffer() : undefined));
    let body: unknown;
    if (typeof payload === 'string' && headers['content-type']?.includes('json')) body = JSON.parse(payload);
    calls.push({ method, path: url.pathname, query: url.searchParams, body, headers });
    const failure = failures.find((f) => f.route === `${method} ${url.pathname}`);
    if (failure) {
      failures = failures.filter((f) => f !== failure);
      if (failure.answer === 'network') throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(failure.answer.body ?? null), {
        status: failure.answer.status,
        headers: { 'content-type': 'application/json' },
      });
    }
    const answer = await server.app.inject({
      method: method as 'GET',
      url: `${url.pathname}${url.search}`,
      headers,
      ...(payload === undefined ? {} : { payload }),
    });
    const responseHeaders = new Headers();
    for (const [key, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(key, String(one));
    }
    const hasBody = ![101, 204, 205, 304].includes(answer.statusCode) && method !== 'HEAD';
    return new Response(hasBody ? new Uint8Array(answer.rawPayload) : null, {
      status: answer.statusCode,
      headers: responseHeaders,
    });
  }

  beforeAll(async () => {
    useNodeUint8Array();
    server = await createTestApp();
  });

  afterAll(async () => {
    await server?.close();
  });

  beforeEach(async () => {
    calls.length = 0;
    failures = [];
    await server?.reset();
    useNodeUint8Array();
    vi.stubGlobal('fetch', vi.fn(realFetch));
  });

  async function call<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) {
    if (!server) throw new Error('real-api: the server is not started yet');
    const { token } = getSession();
    const answer = await server.app.inject({
      method,
      url,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(method === 'GET' ? {} : { 'idempotency-key': crypto.randomUUID().replaceAll('-', '') }),
      },
      ...(payload === undefined ? {} : { payload }),
    });
    if (answer.statusCode >= 400)
      throw new Error(`real-api: ${method} ${url}: ${answer.statusCode} ${answer.body}`);
    return (answer.statusCode === 204 ? undefined : answer.json()) as T;
  }

  async function invoiceID(invoiceNumber: string): Promise<string> {
    const list = await call<{ items: { invoiceID: string; invoiceNumber: string }[] }>(
      'GET',
      `/api/limited/invoices?search=${invoiceNumber}`,
    );
    const found = list.items.find((i) => i.invoiceNumber === invoiceNumber);
    if (!found) throw new Error(`real-api: no demo invoice ${invoiceNumber}`);
    return found.invoiceID;
  }

  async function demoPdf(): Promise<Uint8Array> {
    const answer = await (server as TestApp).app.inject({
      method: 'GET',
      url: `/api/limited/invoices/${await invoiceID('10042')}/pdf?language=en-US`,
      headers: { authorization: `Bearer ${getSession().token}` },
    });
    if (answer.statusCode !== 200) throw new Error(`real-api: demo PDF: ${answer.statusCode}`);
    return new Uint8Array(answer.rawPayload);
  }

  return {
    call,
    demoPdf,
    invoiceID,
    failNext: (route, answer) => {
      failures.push({ route, answer });
    },
    get server() {
      if (!server) throw new Error('real-api: the server is not started yet');
      return server;
    },
    calls,
    selfStatus: async (token) => {
      if (!server) throw new Error('real-api: the server is not started yet');
      const answer = await server.app.inject({
        method: 'GET',
        url: '/api/self',
        headers: { authorization: `Bearer ${token}` },
      });
      return answer.statusCode;
    },
    signIn: async (username = 'demo') => {
      if (!server) throw new Error('real-api: the server is not started yet');
      const answer = await server.app.inject({
        method: 'POST',
        url: '/api/login/limited',
        payload: { username, password: DEMO_PASSWORD },
      });
      const { token, user } = answer.json() as { token?: string; user?: User };
      if (answer.statusCode !== 200 || !token || !user)
        throw new Error(`real-api: sign-in of ${username} failed: ${answer.statusCode} ${answer.body}`);
      updateSession({ token, user });
      return { token, user };
    },
  };
}

/** startRealApi with `username` signed in before each test (after the reset to the seeded state). */
export function startSignedInApi(username = 'demo'): RealApi {
  const api = startRealApi();
  beforeEach(async () => {
    await api.signIn(username);
  });
  return api;
}
