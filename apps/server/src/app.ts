import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import {
  ANALYTICS_EU_HOST,
  type ErrorCode,
  type OperationId,
  ROUTES,
  type RouteDef,
  routePermissions,
} from '@portal/contracts';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from './context';
import { isConnectionLost } from './db/postgres-transactions';
import { answerSerializerCompiler } from './lib/answer-serializer';
import { createDbGate, type DbGateLimits } from './lib/db-gate';
import { ApiError } from './lib/errors';
import { createHealthCheck } from './lib/health';
import { accountRoutes } from './modules/account/account.routes';
import { articleRoutes } from './modules/articles/articles.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { backofficeRoutes } from './modules/backoffice/backoffice.routes';
import { backofficeMoneyRoutes } from './modules/backoffice-money/backoffice-money.routes';
import { bankVerificationRoutes } from './modules/bank-verification/bank-verification.routes';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { fileRoutes } from './modules/files/files.routes';
import { fortnoxRoutes } from './modules/fortnox/fortnox.routes';
import { installmentPlanRoutes } from './modules/installments/installments.routes';
import { invoiceImportRoutes } from './modules/invoice-import/invoice-import.routes';
import { invoiceDocumentRoutes } from './modules/invoices/invoice-documents.routes';
import { invoiceRoutes } from './modules/invoices/invoices.routes';
import { messageRoutes } from './modules/messages/messages.routes';
import { moneyRoutes } from './modules/money/money.routes';
import { recipientRoutes } from './modules/recipients/recipients.routes';
import { reportsRoutes } from './modules/reports/reports.routes';
import { errorResponses, routeOf } from './routes/define';
import { authenticateOperator } from './services/operator-sessions';
import { authenticate } from './services/sessions';

export interface BuildAppOptions {
  ctx: AppContext;
  logger?: FastifyServerOptions['logger'];
  /** Embedded database: requests at it at once and waiting for it; beyond, 503 + Retry-After. */
  dbGate?: DbGateLimits;
}

/** The spec writes some queries with `&` in place of `?` (`limited/group&group=x`); both forms work. */
export function rewriteAmpersandQuery(url: string): string {
  if (url.includes('?')) return url;
  const amp = url.indexOf('&');
  if (amp < 0 || !url.startsWith('/api/')) return url;
  return `${url.slice(0, amp)}?${url.slice(amp + 1)}`;
}

/** Never log a token: reset links carry one in the path. */
export function redactUrl(url: string): string {
  return url.replace(/(\/password\/reset\/)[^/?&#]+/, '$1[redacted]');
}

const ANALYTICS_ASSETS_HOST = ANALYTICS_EU_HOST.replace('eu.i.', 'eu-assets.i.');

/** Only what the SPA needs: its own scripts and styles, data: images (QR, logos), the analytics host. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  `connect-src 'self' ${ANALYTICS_EU_HOST} ${ANALYTICS_ASSETS_HOST}`,
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { ctx } = options;
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: ctx.config.trustProxy,
    bodyLimit: 1024 * 1024,
    rewriteUrl: (req) => rewriteAmpersandQuery(req.url ?? '/'),
    // A malformed URL or a path parameter longer than any id: Fastify's own answers carry no code of ours.
    frameworkErrors: (_error, _request, reply) => {
      (reply as unknown as FastifyReply).status(400).send({ code: 'validation.invalid' });
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializerCompiler);
  app.decorate('ctx', ctx);
  app.decorateRequest('auth', null);
  app.decorateRequest('operator', null);

  // Handlers still at work. A client that goes away does not stop its handler, and Fastify's close()
  // returns once the sockets are gone, so a stop must also wait for this before closing the database:
  // otherwise a handler's next query fails half-way through its work.
  const working = new Set<FastifyRequest>();
  const onDone = new Set<() => void>();
  // Hooks on the path of every request take a callback, not a promise: an async hook costs a promise
  // and a turn of the microtask queue on each call (issue #15).
  app.addHook('onRequest', (request, _reply, next) => {
    working.add(request);
    next();
  });
  app.decorate('handlersAtWork', () => working.size);
  app.decorate('whenHandlersDone', (timeoutMs: number) => {
    if (working.size === 0) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const finish = (ok: boolean) => {
        clearTimeout(timer);
        onDone.delete(done);
        resolve(ok);
      };
      const done = () => finish(true);
      const timer = setTimeout(() => finish(false), timeoutMs);
      onDone.add(done);
    });
  });

  // The embedded database is one connection: a few requests are at it at once, a few more wait their
  // turn for a bounded time, any other is refused at once with 503 + Retry-After (lib/db-gate.ts).
  // The health check and the API description stay outside: they do not queue for the database.
  const gate = options.dbGate ? createDbGate(options.dbGate) : undefined;
  if (gate) {
    const gateDone = new WeakMap<FastifyRequest, () => void>();
    app.addHook('onRequest', async (request, reply) => {
      if (!request.url.startsWith('/api/')) return;
      const op = request.routeOptions.config.operationId as OperationId | undefined;
      if (op === 'getHealth' || op === 'getOpenApi') return;
      const ticket = gate.enter();
      const cancel = () => ticket.cancel();
      reply.raw.once('close', cancel);
      const admitted = await ticket.admitted;
      reply.raw.off('close', cancel);
      if (!admitted) throw new ApiError('server.unavailable', { retryAfterSeconds: 1 });
      // The place is given back once the answer is made (onSend) and written or abandoned: a client
      // that goes away does not free a place its handler still uses, and a streamed answer keeps it.
      let answered = false;
      let ended = false;
      const leave = () => {
        if (answered && ended) ticket.leave();
      };
      gateDone.set(request, () => {
        answered = true;
        leave();
      });
      const end = () => {
        ended = true;
        leave();
      };
      reply.raw.once('finish', end);
      reply.raw.once('close', end);
    });
    app.addHook('onSend', async (request) => {
      gateDone.get(request)?.();
    });
  }

  // Authentication and permission from the route table: a route's needs are declared once, in contracts.
  // A customer token is looked up in `sessions` only and an operator token in `operator_sessions` only,
  // so neither opens the other kind of route (docs/BACKOFFICE.md). The check is a hook of each route
  // that needs one, made once when the route is added (`authHookOf`): a public route runs none, and a
  // request does not look its route up again.
  app.addHook('onRoute', (route) => {
    const op = (route.config as { operationId?: string } | undefined)?.operationId as OperationId | undefined;
    const check = op ? authHookOf(ctx, ROUTES[op]) : null;
    if (!check) return;
    const own = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [...own, check];
  });

  // The security headers of every answer; an API answer is never cached. The handler is done once its
  // answer is made: a stop waits for that (whenHandlersDone).
  const securityHeaders = Object.entries({
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    ...(ctx.config.publicUrl.startsWith('https://')
      ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' }
      : {}),
  });
  app.addHook('onSend', (request, reply, payload, next) => {
    if (working.delete(request) && working.size === 0) for (const done of onDone) done();
    for (const [name, value] of securityHeaders) reply.header(name, value);
    if (request.url.startsWith('/api/')) reply.header('Cache-Control', 'no-store');
    next(null, payload);
  });

  app.setErrorHandler(async (thrown, request, reply) => {
    // A lost database connection (a failover, a terminated backend): the transaction rolled back,
    // and the same request may succeed on a new connection in a moment (docs/SECURITY.md).
    const error = isConnectionLost(thrown) ? connectionLost(request, thrown) : thrown;
    if (error instanceof ApiError) {
      if (error.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.retryAfterSeconds));
      return reply.status(error.status).send({
        code: error.code,
        ...(error.issues ? { issues: error.issues } : {}),
        ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
        ...(error.details ? { details: error.details } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const code: ErrorCode = request.routeOptions.config.validationCode ?? 'validation.invalid';
      const issues = error.validation.map((v) => {
        const issue = (v.params as { issue?: { path?: PropertyKey[] } } | undefined)?.issue;
        const path =
          issue?.path?.map(String).join('.') ?? v.instancePath.replace(/^\//, '').replaceAll('/', '.');
        const message = v.message ?? '';
        return { path, code: /^[a-zA-Z]+(\.[a-z_]+)+$/.test(message) ? message : 'validation.invalid' };
      });
      return reply.status(400).send({ code, issues });
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      // Too large: a JSON body is a request, anything else sent as a body is an uploaded file.
      const tooLarge = /json/i.test(String(request.headers['content-type'] ?? ''))
        ? 'request.too_large'
        : 'files.too_large';
      const code = status === 404 ? 'route.not_found' : status === 413 ? tooLarge : 'validation.invalid';
      return reply.status(status).send({ code });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ code: 'server.internal' });
  });

  // A route's name is written once, in `routeOf` (routes/define.ts): the OpenAPI document takes it from there.
  app.addHook('onRoute', (route) => {
    const operationId = (route.config as { operationId?: string } | undefined)?.operationId;
    if (operationId && route.schema && !('operationId' in route.schema))
      (route.schema as { operationId?: string }).operationId = operationId;
  });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Invoice finance portal API',
        version: '1.0.0',
        description:
          'Every call of the customer portal. Errors answer `{ code, issues? }`; the codes are in packages/contracts/src/errors.ts.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
    },
    transform: jsonSchemaTransform,
  });

  // JSON answers of 1 kB and more are compressed on the fly (Brotli or gzip, as the client accepts);
  // only the API's: the static files are compressed at build time (apps/web/scripts/precompress.ts) and
  // sent as they are. PDF and spreadsheet downloads are not compressible types and go out unchanged.
  // Request bodies are never inflated: an upload is read as it was sent.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) route.compress = false;
  });
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
    globalDecompression: false,
  });

  const typed = app.withTypeProvider<ZodTypeProvider>();
  const healthOfDatabase = createHealthCheck(ctx.db, gate);
  typed.route({
    ...routeOf('getHealth'),
    schema: {
      tags: ['meta'],
      summary: 'Liveness and database check',
      description:
        'Answers at once, never queued behind other requests: `database` is `ok` when a probe answered ' +
        'within 50 ms, `busy` when the database is at work on other requests; 503 `server.unavailable` ' +
        'when the probe failed or the database has answered nothing for too long.',
      response: {
        200: z.object({ status: z.literal('ok'), database: z.enum(['ok', 'busy']) }),
        ...errorResponses,
      },
    },
    handler: async () => {
      const database = await healthOfDatabase();
      if (database === 'unavailable') throw new ApiError('server.unavailable', { retryAfterSeconds: 1 });
      return { status: 'ok' as const, database };
    },
  });
  typed.route({
    ...routeOf('getOpenApi'),
    schema: { hide: true },
    handler: async () => app.swagger(),
  });

  await app.register(authRoutes);
  await app.register(accountRoutes);
  await app.register(recipientRoutes);
  await app.register(articleRoutes);
  await app.register(invoiceRoutes);
  await app.register(invoiceDocumentRoutes);
  await app.register(messageRoutes);
  await app.register(fileRoutes);
  await app.register(invoiceImportRoutes);
  await app.register(backofficeRoutes);
  await app.register(backofficeMoneyRoutes);
  await app.register(moneyRoutes);
  await app.register(reportsRoutes);
  await app.register(dashboardRoutes);
  await app.register(bankVerificationRoutes);
  await app.register(fortnoxRoutes);
  await app.register(installmentPlanRoutes);

  // Runtime settings of the SPA (spec §7: the base address comes from a global setting).
  app.get('/config.js', { schema: { hide: true } }, async (_request, reply) => {
    const settings = { apiBaseUrl: '/api', posthogKey: ctx.config.posthogKey };
    reply.header('Cache-Control', 'no-cache').type('text/javascript; charset=utf-8');
    return `window.__PORTAL_CONFIG__ = ${JSON.stringify(settings)};\n`;
  });

  const webDist = ctx.config.webDistDir;
  const hasWeb = existsSync(join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: true,
      index: false,
      // The build writes a .br and a .gz beside each text file: sent by the client's Accept-Encoding
      // (Brotli first), with `Vary: Accept-Encoding`; the plain file when it accepts neither.
      preCompressed: true,
      // On the reply, not on reply.raw: the reply's own Cache-Control (max-age=0) would win over raw's.
      setHeaders: (reply, path) => {
        reply.header(
          'Cache-Control',
          path.includes(`${join(webDist, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  const sendIndex = (reply: FastifyReply) => {
    reply.header('Cache-Control', 'no-cache');
    return reply.type('text/html; charset=utf-8').sendFile('index.html', { cacheControl: false });
  };
  if (hasWeb) app.get('/', { schema: { hide: true } }, async (_request, reply) => sendIndex(reply));

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path === '/api' || path.startsWith('/api/') || !['GET', 'HEAD'].includes(request.method) || !hasWeb) {
      return reply.status(404).send({ code: 'route.not_found' });
    }
    if (/\.[a-z0-9]+$/i.test(path)) return reply.status(404).send({ code: 'route.not_found' });
    // Every other GET is a route of the single-page app.
    return sendIndex(reply);
  });

  return app;
}

/** Smallest API answer worth compressing: below it, the headers cost more than the bytes saved. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/** Seconds a client is asked to wait after a lost database connection before it tries again. */
const CONNECTION_LOST_RETRY_SECONDS = 2;

function connectionLost(request: FastifyRequest, err: unknown): ApiError {
  request.log.warn({ err }, 'database connection lost: answered 503');
  return new ApiError('server.unavailable', { retryAfterSeconds: CONNECTION_LOST_RETRY_SECONDS });
}

/** The bearer token of a request's Authorization header, if it has the form of one. */
function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return typeof header === 'string' ? /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(header)?.[1] : undefined;
}

/**
 * The onRequest hook of a route that needs a signed-in caller (null for a public route): the bearer
 * token's session, customer or operator as the route's `auth` says, set on the request; 401 without
 * one, 403 without one of the route's permissions, 403 `auth.setup_required` while the user's setup
 * is not done and the route is not allowed during it.
 */
function authHookOf(ctx: AppContext, def: RouteDef) {
  if (def.auth === 'public') return null;
  if (def.auth === 'operator')
    return async (request: FastifyRequest) => {
      const token = tokenOf(request);
      const operator = token ? await authenticateOperator(ctx.db, token, ctx.now()) : null;
      if (!operator) throw new ApiError('auth.unauthorized');
      request.operator = operator;
    };
  return async (request: FastifyRequest) => {
    const token = tokenOf(request);
    const auth = token ? await authenticate(ctx.db, token, ctx.now()) : null;
    if (!auth) throw new ApiError('auth.unauthorized');
    request.auth = auth;
    // The route's permissions as the table has them now (a test changes them for a while).
    const needed = routePermissions(def);
    if (needed.length > 0 && !needed.some((p) => auth.abilities.includes(p)))
      throw new ApiError('auth.forbidden');
    if (auth.setupRequired && !def.allowDuringSetup) throw new ApiError('auth.setup_required');
  };
}
