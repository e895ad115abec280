import { hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_REFERENCE_RATE_BP } from '@portal/domain/money-flow';
import { z } from 'zod';

/** The folder of apps/server, found from this module whether it runs from src/ or from dist/. */
export function serverRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && readFileSync(pkg, 'utf8').includes('"@portal/server"')) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the @portal/server package folder');
    dir = parent;
  }
}

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  SECRET_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/i, 'must be 64 hexadecimal characters (32 bytes)')
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Kundportalen <no-reply@portal.local>'),
  PUBLIC_URL: z.url().optional(),
  POSTHOG_KEY: z.string().default(''),
  WEB_DIST_DIR: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  DB_QUEUE_LIMIT: z.coerce.number().int().min(0).max(10_000).default(64),
  DB_QUEUE_WAIT_MS: z.coerce.number().int().min(1).max(60_000).default(250),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  SEED_DEMO: z.enum(['auto', 'never']).default('auto'),
  BACKOFFICE_TWO_FACTOR: z.enum(['required', 'optional']).default('optional'),
  REFERENCE_RATE_BP: z.coerce.number().int().min(-1000).max(5000).default(DEFAULT_REFERENCE_RATE_BP),
  DAILY_JOB: z.enum(['on', 'off']).default('on'),
  BANK_VERIFICATION_URL: z.url().optional(),
  BANK_VERIFICATION_CLIENT_ID: z.string().min(1).optional(),
  BANK_VERIFICATION_CLIENT_SECRET: z.string().min(8).optional(),
  BANK_VERIFICATION_WEBHOOK_SECRET: z.string().min(16).optional(),
  BANK_SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  BANK_SANDBOX_FAIL: z.string().default(''),
  FORTNOX_URL: z.url().optional(),
  FORTNOX_AUTH_URL: z.url().optional(),
  FORTNOX_CLIENT_ID: z.string().min(1).optional(),
  FORTNOX_CLIENT_SECRET: z.string().min(8).optional(),
  FORTNOX_ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/i, 'must be 64 hexadecimal characters (32 bytes)')
    .optional(),
  FORTNOX_REDIRECT_URI: z.url().optional(),
  FORTNOX_SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  FORTNOX_SANDBOX_FAIL: z.string().default(''),
  E_SIGNING_URL: z.url().optional(),
  E_SIGNING_API_TOKEN: z.string().min(1).optional(),
  E_SIGNING_API_SECRET: z.string().min(8).optional(),
  E_SIGNING_ACCESS_TOKEN: z.string().min(1).optional(),
  E_SIGNING_ACCESS_SECRET: z.string().min(8).optional(),
  E_SIGNING_SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  E_SIGNING_SANDBOX_FAIL: z.string().default(''),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** 32 bytes: the key that encrypts TOTP secrets at rest. */
  secretKey: Buffer;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  posthogKey: string;
  webDistDir: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Embedded database: requests at it at once, waiting for it, and how long one may wait (lib/db-gate.ts). */
  dbConcurrency: number;
  dbQueueLimit: number;
  dbQueueWaitMs: number;
  /** PostgreSQL: connections of the statements' pool; the lookups' pool has at most 4 (db/client.ts `openPostgres`). */
  dbPoolSize: number;
  trustProxy: boolean;
  seedDemo: boolean;
  /** Refuse a password-only sign-in of an operator without two-factor (docs/BACKOFFICE.md). */
  backofficeTwoFactorRequired: boolean;
  /** The reference rate in basis points; late-payment interest is this plus 8 percentage points. */
  referenceRateBp: number;
  /** Run the daily job on start and every day at 06:00 Europe/Stockholm (docs/MONEY.md). */
  dailyJob: boolean;
  /**
   * The open-banking provider of bank-account verification (docs/INTEGRATIONS.md). Null: none given;
   * the embedded demo then starts the sandbox provider (modules/bank-verification) and uses it.
   */
  bankVerification: { url: string; clientId: string; clientSecret: string; webhookSecret: string } | null;
  /** The embedded demo's sandbox provider: its port (0 = any free one) and the steps switched to fail. */
  bankSandbox: { port: number; failures: string[] };
  /**
   * The Fortnox app of the portal (docs/INTEGRATIONS.md "Fortnox"). Null: none given; the embedded demo
   * then starts the Fortnox sandbox (modules/fortnox) and uses it.
   */
  fortnox: { apiUrl: string; authUrl: string; clientId: string; clientSecret: string } | null;
  /**
   * 32 bytes: the AES-256-GCM key the Fortnox tokens are sealed with at rest. FORTNOX_ENCRYPTION_KEY,
   * else derived from SECRET_KEY (HKDF, a label of its own).
   */
  fortnoxKey: Buffer;
  /** Where Fortnox sends the browser back: the pending business invoices page by default. */
  fortnoxRedirectUri: string;
  /** The embedded demo's Fortnox sandbox: its port (0 = any free one) and the switched-on failures. */
  fortnoxSandbox: { port: number; failures: string[] };
  /**
   * The e-signing provider's API (Scrive Document API v2) and the portal account's personal access
   * credentials (docs/INTEGRATIONS.md "E-signing"). Null: none given; the embedded demo then starts
   * the e-signing sandbox (modules/e-signing) and uses it.
   */
  eSigning: {
    apiUrl: string;
    apiToken: string;
    apiSecret: string;
    accessToken: string;
    accessSecret: string;
  } | null;
  /** 32 bytes: the key of the tokens in our e-signing callback URLs, derived from SECRET_KEY (HKDF). */
  eSigningCallbackKey: Buffer;
  /** The embedded demo's e-signing sandbox: its port (0 = any free one) and the switched-on failures. */
  eSigningSandbox: { port: number; failures: string[] };
}

export class ConfigError extends Error {}

/**
 * Reads and checks the environment. A bad value stops the start with a message naming the variable.
 * In embedded mode a missing SECRET_KEY is generated once and kept in DATA_DIR/secret.key; with
 * DATABASE_URL it must be given, because every server behind the load balancer needs the same one.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  let secretKey: Buffer;
  if (e.SECRET_KEY) secretKey = Buffer.from(e.SECRET_KEY, 'hex');
  else if (e.DATABASE_URL)
    throw new ConfigError('Invalid configuration:\n  SECRET_KEY: required when DATABASE_URL is set');
  else secretKey = embeddedSecret(dataDir);
  allOrNone(
    [
      e.BANK_VERIFICATION_URL,
      e.BANK_VERIFICATION_CLIENT_ID,
      e.BANK_VERIFICATION_CLIENT_SECRET,
      e.BANK_VERIFICATION_WEBHOOK_SECRET,
    ],
    'BANK_VERIFICATION_URL, _CLIENT_ID, _CLIENT_SECRET and _WEBHOOK_SECRET',
  );
  allOrNone(
    [e.FORTNOX_URL, e.FORTNOX_CLIENT_ID, e.FORTNOX_CLIENT_SECRET],
    'FORTNOX_URL, FORTNOX_CLIENT_ID and FORTNOX_CLIENT_SECRET',
  );
  allOrNone(
    [
      e.E_SIGNING_URL,
      e.E_SIGNING_API_TOKEN,
      e.E_SIGNING_API_SECRET,
      e.E_SIGNING_ACCESS_TOKEN,
      e.E_SIGNING_ACCESS_SECRET,
    ],
    'E_SIGNING_URL, _API_TOKEN, _API_SECRET, _ACCESS_TOKEN and _ACCESS_SECRET',
  );
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    secretKey,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl,
    posthogKey: e.POSTHOG_KEY,
    webDistDir: resolve(e.WEB_DIST_DIR ?? join(serverRoot(), '..', 'web', 'dist')),
    logLevel: e.LOG_LEVEL,
    dbConcurrency: e.DB_CONCURRENCY,
    dbQueueLimit: e.DB_QUEUE_LIMIT,
    dbQueueWaitMs: e.DB_QUEUE_WAIT_MS,
    dbPoolSize: e.DB_POOL_SIZE,
    trustProxy: e.TRUST_PROXY === 'true',
    seedDemo: e.SEED_DEMO === 'auto',
    backofficeTwoFactorRequired: e.BACKOFFICE_TWO_FACTOR === 'required',
    referenceRateBp: e.REFERENCE_RATE_BP,
    dailyJob: e.DAILY_JOB === 'on',
    bankVerification:
      e.BANK_VERIFICATION_URL &&
      e.BANK_VERIFICATION_CLIENT_ID &&
      e.BANK_VERIFICATION_CLIENT_SECRET &&
      e.BANK_VERIFICATION_WEBHOOK_SECRET
        ? {
            url: e.BANK_VERIFICATION_URL.replace(/\/+$/, ''),
            clientId: e.BANK_VERIFICATION_CLIENT_ID,
            clientSecret: e.BANK_VERIFICATION_CLIENT_SECRET,
            webhookSecret: e.BANK_VERIFICATION_WEBHOOK_SECRET,
          }
        : null,
    bankSandbox: { port: e.BANK_SANDBOX_PORT, failures: switchList(e.BANK_SANDBOX_FAIL) },
    fortnox:
      e.FORTNOX_URL && e.FORTNOX_CLIENT_ID && e.FORTNOX_CLIENT_SECRET
        ? {
            apiUrl: e.FORTNOX_URL.replace(/\/+$/, ''),
            authUrl: (e.FORTNOX_AUTH_URL ?? 'https://apps.fortnox.se').replace(/\/+$/, ''),
            clientId: e.FORTNOX_CLIENT_ID,
            clientSecret: e.FORTNOX_CLIENT_SECRET,
          }
        : null,
    fortnoxKey: e.FORTNOX_ENCRYPTION_KEY
      ? Buffer.from(e.FORTNOX_ENCRYPTION_KEY, 'hex')
      : Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), 'portal fortnox tokens v1', 32)),
    fortnoxRedirectUri: e.FORTNOX_REDIRECT_URI ?? `${publicUrl}/invoice/send-business`,
    fortnoxSandbox: { port: e.FORTNOX_SANDBOX_PORT, failures: switchList(e.FORTNOX_SANDBOX_FAIL) },
    eSigning:
      e.E_SIGNING_URL &&
      e.E_SIGNING_API_TOKEN &&
      e.E_SIGNING_API_SECRET &&
      e.E_SIGNING_ACCESS_TOKEN &&
      e.E_SIGNING_ACCESS_SECRET
        ? {
            apiUrl: e.E_SIGNING_URL.replace(/\/+$/, ''),
            apiToken: e.E_SIGNING_API_TOKEN,
            apiSecret: e.E_SIGNING_API_SECRET,
            accessToken: e.E_SIGNING_ACCESS_TOKEN,
            accessSecret: e.E_SIGNING_ACCESS_SECRET,
          }
        : null,
    eSigningCallbackKey: Buffer.from(
      hkdfSync('sha256', secretKey, Buffer.alloc(0), 'portal e-signing callbacks v1', 32),
    ),
    eSigningSandbox: { port: e.E_SIGNING_SANDBOX_PORT, failures: switchList(e.E_SIGNING_SANDBOX_FAIL) },
  };
}

/** A partner's variables are given all together or not at all; `names` says which in the message. */
function allOrNone(values: (string | undefined)[], names: string): void {
  if (values.some(Boolean) && !values.every(Boolean))
    throw new ConfigError(`Invalid configuration:\n  ${names} go together`);
}

/** A sandbox's failure switches as an environment variable lists them: `a,b , c`. */
function switchList(value: string): string[] {
  return value
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
}

function embeddedSecret(dataDir: string): Buffer {
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) {
    const hex = readFileSync(file, 'utf8').trim();
    if (!/^[0-9a-f]{64}$/i.test(hex)) throw new ConfigError(`${file} does not hold a 64-character hex key`);
    return Buffer.from(hex, 'hex');
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600 });
  return key;
}
