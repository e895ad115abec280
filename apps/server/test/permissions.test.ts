import { type Ability, type OperationId, ROUTES, type RouteDef, routePermissions } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { users } from '../src/db/schema';
import { setAbilities } from './support/abilities';
import { registeredRoutes } from './support/registered-routes';
import {
  ALL_OPERATIONS,
  OPERATOR_OPERATIONS,
  SESSION_OPERATIONS,
  type SessionOperationId,
  sampleRequest,
} from './support/route-samples';
import { bearer } from './support/test-app';
import { useTestApp } from './support/use-test-app';

const t = useTestApp();

/** The error code of an answer, or null when it is not a JSON error (a file, a list, ...). */
function errorCode(res: LightMyRequestResponse): string | null {
  if (!String(res.headers['content-type'] ?? '').startsWith('application/json')) return null;
  const body = res.json() as { code?: unknown };
  return typeof body.code === 'string' ? body.code : null;
}

describe('the route table of the contracts', () => {
  it('lists exactly the API routes the server registers', () => {
    const registered = registeredRoutes(t.app);
    const api = registered.filter((r) => r.split(' ')[1]?.startsWith('/api'));
    const declared = ALL_OPERATIONS.map((op) => `${ROUTES[op].method} ${ROUTES[op].path}`).sort();
    expect(api).toEqual(declared);
    // Outside /api only the runtime settings of the web app (no static files without a web build).
    expect(registered.filter((r) => !api.includes(r))).toEqual(['GET /config.js']);
  });

  it('has one operationId per method and path', () => {
    const keys = ALL_OPERATIONS.map((op) => `${ROUTES[op].method} ${ROUTES[op].path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('authentication', () => {
  const badHeaders: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['an unknown token', bearer('Z'.repeat(43))],
    ['a malformed token', bearer('short')],
    ['another scheme', { authorization: `Basic ${Buffer.from('demo:Portal-demo-1').toString('base64')}` }],
    ['a lower-case scheme with an unknown token', { authorization: `bearer ${'Z'.repeat(43)}` }],
  ];

  /** `op` answers 401 auth.unauthorized to each of the bad Authorization headers. */
  async function expectRefusesBadHeaders(op: OperationId) {
    for (const [what, headers] of badHeaders) {
      const res = await t.app.inject({ ...sampleRequest(op), headers });
      expect(res.statusCode, what).toBe(401);
      expect(res.json(), what).toEqual({ code: 'auth.unauthorized' });
    }
  }

  it.each(SESSION_OPERATIONS)('%s answers 401 auth.unauthorized without a valid session', (op) =>
    expectRefusesBadHeaders(op),
  );

  describe('after logout', () => {
    let ended: string;
    beforeAll(async () => {
      await t.reset();
      ended = await t.login('demo');
      await t.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(ended) });
    });

    it.each(SESSION_OPERATIONS)('%s refuses the ended session', async (op) => {
      const res = await t.app.inject(sampleRequest(op, ended));
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'auth.unauthorized' });
    });
  });

  it.each(ALL_OPERATIONS.filter((op) => ROUTES[op].auth === 'public'))('%s needs no token', async (op) => {
    const res = await t.app.inject(sampleRequest(op));
    expect(res.statusCode).toBeLessThan(500);
    expect(errorCode(res)).not.toBe('auth.unauthorized');
  });

  it.each(OPERATOR_OPERATIONS)('%s answers 401 auth.unauthorized without an operator session', (op) =>
    expectRefusesBadHeaders(op),
  );

  describe('customer and operator tokens', () => {
    let customer: string;
    let operator: string;
    beforeAll(async () => {
      await t.reset();
      customer = await t.login('demo');
      operator = await t.loginOperator();
    });

    it.each(OPERATOR_OPERATIONS)('%s refuses a customer token', async (op) => {
      const res = await t.app.inject(sampleRequest(op, customer));
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'auth.unauthorized' });
    });

    it.each(SESSION_OPERATIONS)('%s refuses an operator token', async (op) => {
      const res = await t.app.inject(sampleRequest(op, operator));
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'auth.unauthorized' });
    });

    it.each(OPERATOR_OPERATIONS)('%s accepts the operator token', async (op) => {
      const res = await t.app.inject(sampleRequest(op, operator));
      expect(res.statusCode, res.body).toBeLessThan(500);
      expect(errorCode(res)).not.toBe('auth.unauthorized');
    });
  });

  it('refuses the token of a deactivated user', async () => {
    await t.reset();
    const token = await t.login('demo');
    await t.db.update(users).set({ active: false }).where(eq(users.username, 'demo'));
    expect((await t.app.inject({ url: '/api/self', headers: bearer(token) })).statusCode).toBe(401);
  });
});

describe('permissions', () => {
  const LIMITED_ABILITIES = ['limited_invoices', 'limited_send_invoice'];
  // One session each for the whole loop, which runs in the table's order with logout last.
  let limited: string;
  let full: string;
  beforeAll(async () => {
    await t.reset();
    limited = await t.login('demo-limited');
    full = await t.login('demo');
  });

  it.each(SESSION_OPERATIONS)(
    '%s is refused to exactly the users without one of its abilities',
    async (op) => {
      const needed = routePermissions(ROUTES[op]);
      const asLimited = await t.app.inject(sampleRequest(op, limited));
      if (needed.length > 0 && !needed.some((a) => LIMITED_ABILITIES.includes(a))) {
        expect(asLimited.statusCode).toBe(403);
        expect(asLimited.json()).toEqual({ code: 'auth.forbidden' });
      } else {
        expect(errorCode(asLimited)).not.toBe('auth.forbidden');
      }
      const asFull = await t.app.inject(sampleRequest(op, full));
      expect(errorCode(asFull)).not.toBe('auth.forbidden');
    },
  );

  /**
   * The hook reads the route table at every request, so giving getSelf (open to every signed-in user)
   * a permission for the length of one test tries the check on a route whose answer is known.
   */
  it('answers 403 auth.forbidden when none of the route’s abilities is granted, and lets any one pass', async () => {
    await t.reset();
    const def: RouteDef = ROUTES.getSelf;
    const before = def.permission;
    const limited = await t.login('demo-limited');
    const selfAs = async (token?: string) =>
      t.app.inject({ url: '/api/self', ...(token ? { headers: bearer(token) } : {}) });
    try {
      def.permission = 'limited_report_ledger';
      const res = await selfAs(limited);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 'auth.forbidden' });
      expect((await selfAs(await t.login('demo'))).statusCode).toBe(200);
      // Authentication comes first: without a session it is 401.
      expect((await selfAs()).statusCode).toBe(401);

      def.permission = ['limited_report_ledger', 'limited_report_payments'];
      expect((await selfAs(limited)).statusCode).toBe(403);
      def.permission = ['limited_report_ledger', 'limited_send_invoice'];
      expect((await selfAs(limited)).statusCode).toBe(200);
      def.permission = 'limited_invoices';
      expect((await selfAs(limited)).statusCode).toBe(200);
    } finally {
      def.permission = before;
    }
    expect((await selfAs(limited)).statusCode).toBe(200);
  });
});

/**
 * Spec §6 shows the report entries, the two downloads among them, only to a user with a report
 * ability: a user with neither must not get the active invoices file, which lists every active
 * invoice of the issuer.
 */
describe('the report routes', () => {
  const REPORT_OPERATIONS = [
    'downloadActiveInvoices',
    'downloadActiveRegress',
    'getPaymentsReport',
    'exportPaymentsReport',
    'getLedgerReport',
    'exportLedgerReport',
  ] as const satisfies readonly SessionOperationId[];

  /** demo-limited (limited_invoices and limited_send_invoice only), with `extra` granted on top. */
  async function limitedWith(extra: Ability[]): Promise<string> {
    await setAbilities(t.db, 'demo-limited', ['limited_invoices', 'limited_send_invoice', ...extra]);
    return t.login('demo-limited');
  }

  it('are exactly the routes under /api/limited/reports', () => {
    const underReports = SESSION_OPERATIONS.filter((op) =>
      ROUTES[op].path.startsWith('/api/limited/reports/'),
    ).sort();
    expect(underReports).toEqual([...REPORT_OPERATIONS].sort());
  });

  it.each(REPORT_OPERATIONS)('%s answers 403 auth.forbidden with neither report ability', async (op) => {
    await t.reset();
    const res = await t.app.inject(sampleRequest(op, await limitedWith([])));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'auth.forbidden' });
  });

  it.each(
    (['downloadActiveInvoices', 'downloadActiveRegress'] as const).flatMap((op) =>
      (['limited_report_payments', 'limited_report_ledger'] as const).map((a) => [op, a] as const),
    ),
  )('%s answers 200 with %s only', async (op, ability) => {
    await t.reset();
    const res = await t.app.inject(sampleRequest(op, await limitedWith([ability])));
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  });
});

describe('the blocking setup (initial password or forced two-factor missing)', () => {
  it('answers 403 auth.setup_required on the routes that are closed during setup, only on those', async () => {
    await t.reset();
    const token = await t.login('demo-new');
    const closed = SESSION_OPERATIONS.filter((op) => !ROUTES[op].allowDuringSetup);
    expect(closed).toContain('saveIssuerInfo');
    for (const op of closed) {
      const res = await t.app.inject(sampleRequest(op, token));
      expect(res.statusCode, op).toBe(403);
      expect(res.json(), op).toEqual({ code: 'auth.setup_required' });
    }
    for (const op of SESSION_OPERATIONS.filter((o) => ROUTES[o].allowDuringSetup)) {
      const res = await t.app.inject(sampleRequest(op, token));
      expect(errorCode(res), op).not.toBe('auth.setup_required');
    }
  });

  it('does not block a user whose setup is complete', async () => {
    await t.reset();
    const token = await t.login('demo');
    const res = await t.app.inject(sampleRequest('saveIssuerInfo', token));
    expect(res.statusCode).toBe(200);
  });
});
