import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  LOGIN_MAX_FAILURES_PER_IP,
  LOGIN_MAX_FAILURES_PER_USERNAME,
  LOGIN_THROTTLE_WINDOW_MINUTES,
} from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from './app';
import type { Config } from './config';
import type { BankProvider, FortnoxProvider } from './context';
import { type Database, openEmbedded, openPostgres } from './db/client';
import { migrate } from './db/migrate';
import { DEMO_GROUP, DEMO_OPERATOR, DEMO_PASSWORD, DEMO_USERS, seedDemo } from './db/seed/demo';
import { outboxMailer, smtpMailer } from './mail/mailer';
import { createBankVerificationClient } from './modules/bank-verification/bank-verification.client';
import {
  type BankSandbox,
  SANDBOX_FAILURES,
  startBankSandbox,
} from './modules/bank-verification/bank-verification.sandbox';
import { createFortnoxClient } from './modules/fortnox/fortnox.client';
import {
  FORTNOX_SANDBOX_FAILURES,
  type FortnoxSandbox,
  startFortnoxSandbox,
} from './modules/fortnox/fortnox.sandbox';
import { refreshFortnoxConnections, registerFortnoxPayments } from './modules/fortnox/fortnox.service';
import { startDailyScheduler } from './modules/money/money.service';
import { databaseFileStore, folderFileStore } from './services/file-store';

/** How long a stop waits for handlers still at work before it closes the database anyway. */
const STOP_GRACE_MS = 10_000;

/**
 * How a partner's sandbox of the embedded demo starts: fresh credentials, its port on the app's host,
 * and the failures it is told to play (config), those it knows.
 */
function sandboxSettings<F extends string>(
  config: Config,
  sandbox: { port: number; failures: string[] },
  known: readonly F[],
) {
  return {
    clientId: 'portal-demo',
    clientSecret: randomBytes(24).toString('base64url'),
    port: sandbox.port,
    host: config.host,
    publicHostname: new URL(config.publicUrl).hostname,
    failures: sandbox.failures.filter((f): f is F => (known as readonly string[]).includes(f)),
  };
}

export function openDatabase(config: Config): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openEmbedded(config.dataDir);
}

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  stop(): Promise<void>;
}

/**
 * The bank-verification provider (issue #13): the one configured (docs/INTEGRATIONS.md), else in the
 * embedded demo the sandbox provider, started here on a port of its own with fresh credentials, so a
 * person can walk the whole flow; else none (its routes answer 502).
 */
async function bankProviderOf(
  config: Config,
  embedded: boolean,
): Promise<{ provider: BankProvider | undefined; sandbox: BankSandbox | null }> {
  if (config.bankVerification) {
    const { url, clientId, clientSecret, webhookSecret } = config.bankVerification;
    return {
      provider: {
        name: new URL(url).host,
        client: createBankVerificationClient({ baseUrl: url, clientId, clientSecret }),
        webhookSecret,
        demo: false,
      },
      sandbox: null,
    };
  }
  if (!embedded) return { provider: undefined, sandbox: null };
  const settings = sandboxSettings(config, config.bankSandbox, SANDBOX_FAILURES);
  const { clientId, clientSecret } = settings;
  const webhookSecret = randomBytes(24).toString('base64url');
  const sandbox = await startBankSandbox({ ...settings, webhookSecret });
  return {
    provider: {
      name: 'sandbox',
      client: createBankVerificationClient({ baseUrl: sandbox.url, clientId, clientSecret }),
      webhookSecret,
      demo: true,
    },
    sandbox,
  };
}

/**
 * Fortnox (issue #13): the configured app (docs/INTEGRATIONS.md "Fortnox"), else in the embedded demo
 * the Fortnox sandbox, started here on a port of its own with fresh credentials, so a person can
 * connect Demo Bygg AB's Fortnox and send its business invoices; else none (its routes answer 502).
 */
async function fortnoxOf(
  config: Config,
  embedded: boolean,
): Promise<{ provider: FortnoxProvider | undefined; sandbox: FortnoxSandbox | null }> {
  if (config.fortnox)
    return { provider: { client: createFortnoxClient(config.fortnox), demo: false }, sandbox: null };
  if (!embedded) return { provider: undefined, sandbox: null };
  const settings = sandboxSettings(config, config.fortnoxSandbox, FORTNOX_SANDBOX_FAILURES);
  const { clientId, clientSecret } = settings;
  const sandbox = await startFortnoxSandbox(settings);
  return {
    provider: {
      client: createFortnoxClient({ apiUrl: sandbox.url, authUrl: sandbox.url, clientId, clientSecret }),
      demo: true,
    },
    sandbox,
  };
}

/** Opens and migrates the database, seeds the embedded demo data once, and listens. */
export async function startServer(config: Config): Promise<RunningServer> {
  const logger = pino({
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
  });
  const database = await openDatabase(config);
  let bankSandbox: BankSandbox | null = null;
  let fortnoxSandbox: FortnoxSandbox | null = null;
  try {
    const applied = await migrate(database.db);
    if (applied.length) logger.info({ applied }, 'migrations applied');
    let seeded = false;
    if (database.kind === 'embedded' && config.seedDemo)
      seeded = await seedDemo(database.db, config.secretKey);

    const bank = await bankProviderOf(config, database.kind === 'embedded');
    bankSandbox = bank.sandbox;
    const fortnox = await fortnoxOf(config, database.kind === 'embedded');
    fortnoxSandbox = fortnox.sandbox;
    const mailer = config.smtpUrl
      ? smtpMailer(config.smtpUrl, config.mailFrom)
      : outboxMailer(database.db, logger);
    const app = await buildApp({
      ctx: {
        db: database.db,
        config,
        mailer,
        now: () => new Date(),
        bankProvider: bank.provider,
        fortnox: fortnox.provider,
        files:
          database.kind === 'embedded'
            ? folderFileStore(join(config.dataDir, 'files'))
            : databaseFileStore(database.db),
        throttle: {
          perUsername: LOGIN_MAX_FAILURES_PER_USERNAME,
          perIp: LOGIN_MAX_FAILURES_PER_IP,
          windowMinutes: LOGIN_THROTTLE_WINDOW_MINUTES,
        },
      },
      logger: {
        level: config.logLevel,
        redact: ['req.headers.authorization', 'req.headers.cookie'],
        serializers: {
          req: (req: { method: string; url: string; ip?: string }) => ({
            method: req.method,
            url: req.url.replace(/(\/password\/reset\/)[^/?&#]+/, '$1[redacted]'),
            ip: req.ip,
          }),
        },
      },
      dbGate:
        database.kind === 'embedded'
          ? {
              concurrency: config.dbConcurrency,
              queueLimit: config.dbQueueLimit,
              maxWaitMs: config.dbQueueWaitMs,
            }
          : undefined,
    });
    await app.listen({ port: config.port, host: config.host });
    if (bankSandbox) {
      const { port } = app.server.address() as AddressInfo;
      const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
      bankSandbox.setWebhookUrl(`http://${host}:${port}/api/bank-verification/webhook`);
    }
    const scheduler = config.dailyJob
      ? startDailyScheduler(database.db, logger, {
          referenceRateBp: config.referenceRateBp,
          afterRun: async () => {
            const fortnoxCtx = { db: database.db, config, now: () => new Date(), fortnox: fortnox.provider };
            return {
              fortnoxPayments: await registerFortnoxPayments(fortnoxCtx, logger),
              fortnoxConnections: await refreshFortnoxConnections(fortnoxCtx, logger),
            };
          },
        })
      : null;
    if (database.kind === 'embedded') {
      const lines = DEMO_USERS.map((u) => `  ${u.username.padEnd(16)} ${u.state}`);
      lines.push(`  ${DEMO_OPERATOR.padEnd(16)} back-office operator (npm run backoffice -- pending)`);
      if (bankSandbox)
        lines.push(`Demo bank-verification provider on ${bankSandbox.url} (docs/INTEGRATIONS.md).`);
      if (fortnoxSandbox) lines.push(`Demo Fortnox on ${fortnoxSandbox.url} (docs/INTEGRATIONS.md).`);
      logger.info(
        `Portal on ${config.publicUrl} (embedded database in ${config.dataDir}${seeded ? ', demo data seeded now' : ''}).\n` +
          `Demo sign-ins, password ${DEMO_PASSWORD}; branded login at ${config.publicUrl}/${DEMO_GROUP}/login:\n${lines.join('\n')}`,
      );
    }
    return {
      app,
      database,
      stop: async () => {
        await app.close();
        await scheduler?.stop();
        await bankSandbox?.close();
        await fortnoxSandbox?.close();
        if (!(await app.whenHandlersDone(STOP_GRACE_MS)))
          app.log.warn('stopping: handlers still at work after the grace period');
        await database.close();
      },
    };
  } catch (err) {
    await bankSandbox?.close();
    await fortnoxSandbox?.close();
    await database.close();
    throw err;
  }
}
