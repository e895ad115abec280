import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  LOGIN_MAX_FAILURES_PER_IP,
  LOGIN_MAX_FAILURES_PER_USERNAME,
  LOGIN_THROTTLE_WINDOW_MINUTES,
} from '@portal/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, HTTPMethods, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app';
import { type Config, loadConfig } from '../../src/config';
import type { ThrottleLimits } from '../../src/context';
import type { Db } from '../../src/db/client';
import { rows } from '../../src/db/migrate';
import { DEMO_PASSWORD, seedDemo } from '../../src/db/seed/demo';
import type { DbGateLimits } from '../../src/lib/db-gate';
import type { Mail, Mailer } from '../../src/mail/mailer';
import { createBankVerificationClient } from '../../src/modules/bank-verification/bank-verification.client';
import {
  type BankSandbox,
  startBankSandbox,
} from '../../src/modules/bank-verification/bank-verification.sandbox';
import { createESigningClient } from '../../src/modules/e-signing/e-signing.client';
import { type ESigningSandbox, startESigningSandbox } from '../../src/modules/e-signing/e-signing.sandbox';
import { createFortnoxClient } from '../../src/modules/fortnox/fortnox.client';
import { type FortnoxSandbox, startFortnoxSandbox } from '../../src/modules/fortnox/fortnox.sandbox';
import { createPreparedTestDb, createTestDb, prepareTemplates } from './test-db';

/** The fixed instant every test app starts at (a Monday morning, UTC). */
export const START = new Date('2026-03-02T08:00:00.000Z');

export const TEST_SECRET_KEY = '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0';
export const PUBLIC_URL = 'http://portal.test';
/** The credentials of the test apps' sandbox bank provider. */
export const TEST_BANK_CLIENT = {
  clientId: 'portal-test',
  clientSecret: 'sandbox-client-secret-for-tests',
  webhookSecret: 'sandbox-webhook-secret-for-tests',
} as const;
/** The credentials of the test apps' e-signing sandbox (Scrive's personal access credentials). */
const TEST_E_SIGNING_CREDENTIALS = {
  apiToken: 'esign-test-token',
  apiSecret: 'esign-test-secret',
  accessToken: 'esign-test-access',
  accessSecret: 'esign-test-access-secret',
};

/** The credentials of the test apps' Fortnox sandbox. */
export const TEST_FORTNOX_CLIENT = {
  clientId: 'portal-test',
  clientSecret: 'fortnox-sandbox-secret',
} as const;

/** A clock the test moves by hand; the app reads it through `ctx.now`. */
export interface TestClock {
  now(): Date;
  advance(ms: number): void;
  set(at: Date): void;
}

export function createClock(start = START): TestClock {
  let at = start.getTime();
  return {
    now: () => new Date(at),
    advance: (ms) => {
      at += ms;
    },
    set: (d) => {
      at = d.getTime();
    },
  };
}

/** A mailer that keeps what it is given. Kind 'outbox', as in embedded mode without SMTP. */
export interface CapturingMailer extends Mailer {
  sent: Mail[];
}

export function capturingMailer(): CapturingMailer {
  const sent: Mail[] = [];
  return {
    kind: 'outbox',
    sent,
    send: async (mail) => {
      sent.push(mail);
    },
  };
}

export interface TestAppOptions {
  throttle?: Partial<ThrottleLimits>;
  /** Folder of a built web app (index.html, assets/); by default an empty folder, so no static files. */
  webDistDir?: string;
  /** The embedded database's gate (buildApp's `dbGate`); none by default. */
  dbGate?: DbGateLimits;
  posthogKey?: string;
  /** Base of links in mails; http://portal.test by default. */
  publicUrl?: string;
  /** Skip the demo data. */
  seed?: boolean;
  /** More environment for loadConfig (e.g. BACKOFFICE_TWO_FACTOR). */
  env?: Record<string, string>;
  /** Without the sandbox bank provider (bank verification then has no provider). */
  bankSandbox?: false;
  /** Without the Fortnox sandbox (Fortnox then answers 502). */
  fortnoxSandbox?: false;
  /** Without the e-signing sandbox (sending a plan for signing then answers 502). */
  eSigningSandbox?: false;
  /** Extra routes or hooks, added after buildApp and before the app is ready. */
  extend?: (app: FastifyInstance) => void | Promise<void>;
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  clock: TestClock;
  mailer: CapturingMailer;
  /** The sandbox bank provider the app's bank verification talks to over HTTP (issue #13), or null. */
  bankSandbox: BankSandbox | null;
  /** The Fortnox sandbox the app's Fortnox client talks to over HTTP (issue #13), or null. */
  fortnoxSandbox: FortnoxSandbox | null;
  /** The e-signing sandbox the app's e-signing client talks to over HTTP (issue #14), or null. */
  eSigningSandbox: ESigningSandbox | null;
  /** The limits the app reads at every sign-in: a test may change them (reset() restores them). */
  throttle: ThrottleLimits;
  /**
   * A request on the session of `token` (its bearer header), with `payload` as the JSON body when
   * given and `headers` added (e.g. accept-language).
   */
  call(
    token: string,
    method: HTTPMethods,
    url: string,
    payload?: object,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  /** Signs in a user without two-factor and returns the session token (fails the test otherwise). */
  login(username: string, password?: string): Promise<string>;
  /** Signs in a back-office operator (the demo `operator` by default) and returns its token. */
  loginOperator(username?: string, password?: string): Promise<string>;
  /**
   * Back to the state right after creation: every table holds again what it held after the demo
   * seed (copied back from a snapshot schema), the clock at START, no mail, the throttle limits of
   * the options. Much faster than a new database or a new seed.
   */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** Where the state after the seed is kept for reset(); outside `public`, so no query of the app sees it. */
const SNAPSHOT_SCHEMA = 'test_snapshot';

async function appTables(db: Db): Promise<string[]> {
  return rows<{ tablename: string }>(
    await db.execute(
      sql`select tablename from pg_tables where schemaname = 'public' and tablename <> 'schema_migrations' order by tablename`,
    ),
  ).map((r) => r.tablename);
}

async function takeSnapshot(db: Db): Promise<void> {
  await db.execute(sql.raw(`create schema ${SNAPSHOT_SCHEMA}`));
  for (const table of await appTables(db))
    await db.execute(sql.raw(`create table ${SNAPSHOT_SCHEMA}."${table}" as table public."${table}"`));
}

async function restoreSnapshot(db: Db): Promise<void> {
  const tables = await appTables(db);
  await db.transaction(async (tx) => {
    // Foreign keys are not checked while the rows are copied back: the snapshot was consistent.
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql.raw(`truncate table ${tables.map((t) => `public."${t}"`).join(', ')}`));
    for (const table of tables)
      await tx.execute(sql.raw(`insert into public."${table}" select * from ${SNAPSHOT_SCHEMA}."${table}"`));
  });
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/** What a test app's database holds at creation: the demo seed at START, and reset()'s snapshot of it. */
function seededState(config: Config) {
  return async (db: Db) => {
    await seedDemo(db, config.secretKey, START);
    await takeSnapshot(db);
  };
}

/**
 * Builds the seeded template of createTestApp, and the migrated one of createTestDb, now if this
 * version of the code has none yet (without opening a copy). For a Vitest globalSetup: it runs in Node,
 * where PGlite's archive is a Blob Node can read (in jsdom the global Blob is jsdom's and cannot be read
 * back).
 */
export async function prepareSeededTemplate(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-template-'));
  try {
    const config = loadConfig({ DATA_DIR: dataDir, SECRET_KEY: TEST_SECRET_KEY, LOG_LEVEL: 'silent' });
    await prepareTemplates(seededState(config));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-test-'));
  const emptyWeb = join(dataDir, 'no-web');
  const config = loadConfig({
    DATA_DIR: dataDir,
    SECRET_KEY: TEST_SECRET_KEY,
    PUBLIC_URL: opts.publicUrl ?? PUBLIC_URL,
    WEB_DIST_DIR: opts.webDistDir ?? emptyWeb,
    POSTHOG_KEY: opts.posthogKey,
    LOG_LEVEL: 'silent',
    ...opts.env,
  });
  const clock = createClock();
  const mailer = capturingMailer();
  // The seeded state is the same for every app with the tests' own secret key: it comes from a
  // template built once (test-db.ts), the snapshot of reset() included.
  const seeded = opts.seed !== false && !opts.env?.SECRET_KEY;
  const testDb = seeded ? await createPreparedTestDb(seededState(config)) : await createTestDb();
  const initialThrottle: ThrottleLimits = {
    perUsername: opts.throttle?.perUsername ?? LOGIN_MAX_FAILURES_PER_USERNAME,
    perIp: opts.throttle?.perIp ?? LOGIN_MAX_FAILURES_PER_IP,
    windowMinutes: opts.throttle?.windowMinutes ?? LOGIN_THROTTLE_WINDOW_MINUTES,
  };
  const throttle = { ...initialThrottle };
  let app: FastifyInstance | undefined;
  let bankSandbox: BankSandbox | null = null;
  let fortnoxSandbox: FortnoxSandbox | null = null;
  let eSigningSandbox: ESigningSandbox | null = null;
  try {
    if (opts.eSigningSandbox !== false)
      eSigningSandbox = await startESigningSandbox({
        ...TEST_E_SIGNING_CREDENTIALS,
        now: () => clock.now(),
        callbackRetryMs: [50],
        slowMs: 1500,
      });
    if (opts.fortnoxSandbox !== false)
      fortnoxSandbox = await startFortnoxSandbox({
        ...TEST_FORTNOX_CLIENT,
        now: () => clock.now(),
        slowMs: 1500,
      });
    if (opts.bankSandbox !== false)
      bankSandbox = await startBankSandbox({
        clientId: TEST_BANK_CLIENT.clientId,
        clientSecret: TEST_BANK_CLIENT.clientSecret,
        webhookSecret: TEST_BANK_CLIENT.webhookSecret,
        now: () => clock.now(),
      });
    if (!seeded) {
      if (opts.seed !== false) await seedDemo(testDb.db, config.secretKey, clock.now());
      await takeSnapshot(testDb.db);
    }
    app = await buildApp({
      ctx: {
        db: testDb.db,
        config,
        mailer,
        now: () => clock.now(),
        throttle,
        bankProvider: bankSandbox
          ? {
              name: 'sandbox',
              client: createBankVerificationClient({
                baseUrl: bankSandbox.url,
                clientId: TEST_BANK_CLIENT.clientId,
                clientSecret: TEST_BANK_CLIENT.clientSecret,
                now: () => clock.now(),
              }),
              webhookSecret: TEST_BANK_CLIENT.webhookSecret,
              demo: true,
            }
          : undefined,
        fortnox: fortnoxSandbox
          ? {
              client: createFortnoxClient({
                apiUrl: fortnoxSandbox.url,
                authUrl: fortnoxSandbox.url,
                ...TEST_FORTNOX_CLIENT,
                now: () => clock.now(),
                minIntervalMs: 0,
                rateLimitBackoffMs: 20,
                timeoutMs: 1000,
              }),
              demo: true,
            }
          : undefined,
        eSigning: eSigningSandbox
          ? {
              client: createESigningClient({ apiUrl: eSigningSandbox.apiUrl, ...TEST_E_SIGNING_CREDENTIALS }),
              demo: true,
              callbackKey: config.eSigningCallbackKey,
            }
          : undefined,
      },
      dbGate: opts.dbGate,
    });
    await opts.extend?.(app);
    await app.ready();
  } catch (err) {
    await app?.close();
    await bankSandbox?.close();
    await fortnoxSandbox?.close();
    await eSigningSandbox?.close();
    await testDb.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const ready = app;

  return {
    app: ready,
    db: testDb.db,
    config,
    clock,
    mailer,
    bankSandbox,
    fortnoxSandbox,
    eSigningSandbox,
    throttle,
    call: (token, method, url, payload, headers = {}) =>
      ready.inject({
        method,
        url,
        headers: { ...bearer(token), ...headers },
        ...(payload ? { payload } : {}),
      }),
    login: async (username, password = DEMO_PASSWORD) => {
      const res = await ready.inject({
        method: 'POST',
        url: '/api/login/limited',
        payload: { username, password },
      });
      const body = res.json() as { requireTwoFactor?: boolean; token?: string };
      if (res.statusCode !== 200 || body.requireTwoFactor !== false || !body.token)
        throw new Error(`login of ${username} failed: ${res.statusCode} ${res.body}`);
      return body.token;
    },
    loginOperator: async (username = 'operator', password = DEMO_PASSWORD) => {
      const res = await ready.inject({
        method: 'POST',
        url: '/api/backoffice/login',
        payload: { username, password },
      });
      const body = res.json() as { token?: string };
      if (res.statusCode !== 200 || !body.token)
        throw new Error(`operator login of ${username} failed: ${res.statusCode} ${res.body}`);
      return body.token;
    },
    reset: async () => {
      await restoreSnapshot(testDb.db);
      clock.set(START);
      mailer.sent.length = 0;
      Object.assign(throttle, initialThrottle);
      bankSandbox?.setFailures([]);
      fortnoxSandbox?.setFailures([]);
      eSigningSandbox?.setFailures([]);
    },
    close: async () => {
      await ready.close();
      await bankSandbox?.close();
      await fortnoxSandbox?.close();
      await eSigningSandbox?.close();
      await testDb.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The token of the reset link in a mail (`${PUBLIC_URL}/password/reset/<token>`). */
export function resetTokenOf(mail: Mail | undefined): string {
  const match = mail ? /http:\/\/portal\.test\/password\/reset\/([A-Za-z0-9_-]+)/.exec(mail.text) : null;
  if (!match?.[1]) throw new Error(`no reset link in ${JSON.stringify(mail)}`);
  return match[1];
}

export const MINUTE = 60_000;
