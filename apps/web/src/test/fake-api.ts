import type { Self } from '@portal/contracts';
import { vi } from 'vitest';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
}

export type FakeAnswer = { status: number; body?: unknown; headers?: Record<string, string> };
export type FakeHandler = (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

/**
 * A hand-written stand-in for the API. Page tests run the real server instead (test/real-api.ts, as
 * STYLE asks); this is left for lib/api-client.test.ts, which checks how the client reads answers the
 * real server does not give (a body outside the contract, chosen statuses), and for the invoice form and
 * import page tests until they move to real-api too. Do not use it in new tests.
 * Handlers are keyed "METHOD /api/path" and answer with the contract shapes; an unknown call is a
 * 404 `route.not_found`, as the server answers it.
 */
export function installFakeApi(handlers: Record<string, FakeHandler>) {
  const calls: FakeRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const request: FakeRequest = {
      method: (init.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      query: url.searchParams,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: (init.headers ?? {}) as Record<string, string>,
    };
    calls.push(request);
    const handler = handlers[`${request.method} ${request.path}`];
    const answer = handler ? await handler(request) : { status: 404, body: { code: 'route.not_found' } };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

/** A `self` answer in the contract shape; override what a test needs. */
export function makeSelf(overrides: Partial<Self> = {}): Self {
  return {
    userID: 'u1',
    username: 'demo',
    firstName: 'Anna',
    lastName: 'Andersson',
    email: 'anna@example.com',
    lastPasswordChange: '2026-01-10T10:00:00.000Z',
    force2fa: false,
    twoFactorEnabled: false,
    fortnoxSetting: null,
    groupID: null,
    language: null,
    abilities: ['limited_invoices'],
    issuer: {
      issuerID: 'i1',
      name: 'Demo Bygg AB',
      email: 'ekonomi@example.com',
      organizationNo: '556036-0793',
      vat: 'SE556036079301',
      telephone: '08-123 456 78',
      address: { address1: 'Storgatan 1', city: 'Stockholm', zipcode: '111 22' },
      country: 'SE',
      bankAccountVerified: true,
    },
    group: null,
    taxRates: [{ rateBasisPoints: 2500 }],
    currencies: ['SEK'],
    messages: [],
    ...overrides,
  };
}
