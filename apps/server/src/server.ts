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
import { createESigningClient } from './modules/e-signing/e-signing.client';
import {
  E_SIGNING_SANDBOX_FAILURES,
  type ESigningSandbox,
  startESigningSandbox,
} from './modules/e-signing/e-signing.sandbox';
import type { ESigningProvider } from './modules/e-signing/e-signing.service';
import { createFortnoxClient } from './modules/fortnox/fortnox.client';
import {
  FORTNOX_SANDBOX_FAILURES,
  type FortnoxSandbox,
  startFortnoxSandbox,
} from './modules/fortnox/fortnox.sandbox';
import { refreshFortnoxConnections, registerFortnoxPayments } from './modules/fortnox/fortnox.service';
import { runPlanSteps } from './modules/installments/installments.service';
import { startDailyScheduler } from './modules/money/money.service';
import { databaseFileStore, folderFileStore } from './services/file-store';

/** How long a stop waits for handlers still at work before it closes the database anyway. */
const STOP_GRACE_MS = 10_000;

export function openDatabase(config: Config): Promise<Database> {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl, config.dbPoolSize)
    : openEmbedded(config.dataDir);
}

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  stop(): Promise<void>;
}

/**
 * Where a demo sandbox listens (its configured port, our host, the host name browsers use) and which of
 * its failure switches the environment turns on (unknown names are ignored).
 */
function sandboxPlace<F extends string>(
  config: Config,
  sandbox: { port: number; failures: string[] },
  known: readonly F[],
): { port: number; host: string; publicHostname: string; failures: F[] } {
  return {
    port: sandbox.port,
    host: config.host,
    publicHostname: new URL(config.publicUrl).hostname,
    failures: sandbox.failures.filter((f): f is F => (known as readonly string[]).includes(f)),
  };
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
  const clientId = 'portal-demo';
  const clientSecret = randomBytes(24).toString('base64url');
  const webhookSecret = randomBytes(24).toString('base64url');
  const sandbox = await startBankSandbox({
    clientId,
    clientSecret,
    webhookSecret,
    ...sandboxPlace(config, config.bankSandbox, SANDBOX_FAILURES),
  });
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
  const clientId = 'portal-demo';
  const clientSecret = randomBytes(24).toString('base64url');
  const sandbox = await startFortnoxSandbox({
    clientId,
    clientSecret,
    ...sandboxPlace(config, config.fortnoxSandbox, FORTNOX_SANDBOX_FAILURES),
  });
  return {
    provider: {
      client: createFortnoxClient({ apiUrl: sandbox.url, authUrl: sandbox.url, clientId, clientSecret }),
      demo: true,
    },
    sandbox,
  };
}

/**
 * E-signing (issue #14): the configured Scrive account (docs/INTEGRATIONS.md "E-signing"), else in the
 * embedded demo the e-signing sandbox, started here on a port of its own with fresh credentials, so a
 * person can open a signee's link and sign; else none.
 */
async function eSigningOf(
  config: Config,
  embedded: boolean,
): Promise<{ provider: ESigningProvider | undefined; sandbox: ESigningSandbox | null }> {
  const callbackKey = config.eSigningCallbackKey;
  if (config.eSigning)
    return {
      provider: { client: createESigningClient(config.eSigning), demo: false, callbackKey },
      sandbox: null,
    };
  if (!embedded) return { provider: undefined, sandbox: null };
  const credentials = {
    apiToken: `portal-demo_${randomBytes(4).toString('hex')}`,
    apiSecret: randomBytes(12).toString('hex'),
    accessToken: `portal-demo_${randomBytes(4).toString('hex')}`,
    accessSecret: randomBytes(12).toString('hex'),
  };
  const sandbox = await startESigningSandbox({
    ...credentials,
    ...sandboxPlace(config, config.eSigningSandbox, E_SIGNING_SANDBOX_FAILURES),
  });
  return {
    provider: {
      client: createESigningClient({ apiUrl: sandbox.apiUrl, ...credentials }),
      demo: true,
      callbackKey,
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
  let eSigningSandbox: ESigningSandbox | null = null;
  try {
    const applied = await migrate(database.db);
    if (applied.length) logger.info({ applied }, 'migrations applied');
    const files =
      database.kind === 'embedded'
        ? folderFileStore(join(config.dataDir, 'files'))
        : databaseFileStore(database.db);
    // E-signing first: the demo's plan waiting for its signee is sent to the sandbox this server runs,
    // so its "Open signing" link leads there (the seed signs the others on a sandbox of its own).
    const eSigning = await eSigningOf(config, database.kind === 'embedded');
    eSigningSandbox = eSigning.sandbox;
    let seeded = false;
    if (database.kind === 'embedded' && config.seedDemo)
      seeded = await seedDemo(database.db, config.secretKey, new Date(), {
        files,
        ...(eSigning.provider
          ? {
              signing: {
                provider: eSigning.provider,
                callbackUrl: `${config.publicUrl}/api/e-signing/callback`,
              },
            }
          : {}),
      });

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
        eSigning: eSigning.provider,
        files,
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
          plans: runPlanSteps,
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
      if (eSigningSandbox) lines.push(`Demo e-signing on ${eSigningSandbox.url} (docs/INTEGRATIONS.md).`);
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
        await eSigningSandbox?.close();
        if (!(await app.whenHandlersDone(STOP_GRACE_MS)))
          app.log.warn('stopping: handlers still at work after the grace period');
        await database.close();
      },
    };
  } catch (err) {
    await bankSandbox?.close();
    await fortnoxSandbox?.close();
    await eSigningSandbox?.close();
    await database.close();
    throw err;
  }
}
