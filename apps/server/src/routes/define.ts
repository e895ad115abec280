import type { Readable } from 'node:stream';
import {
  type ErrorCode,
  errorResponseSchema,
  idParamsSchema,
  type OperationId,
  okResponseSchema,
  ROUTES,
} from '@portal/contracts';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AppContext, AuthContext, OperatorContext } from '../context';
import type { Db } from '../db/client';
import type { Caller } from '../lib/audit';
import { ApiError } from '../lib/errors';
import { contentDisposition } from '../lib/file-names';

/**
 * Method, URL and operationId of a route, from the contracts' route table, so a route's path and
 * permission are written once (packages/contracts/src/routes.ts). The operationId goes into the route's
 * config; app.ts copies it into the OpenAPI schema, so a route never writes its name twice.
 * `validationCode` is the error code a body that fails its schema answers (default `validation.invalid`).
 */
export function routeOf<Op extends OperationId>(op: Op, options: { validationCode?: ErrorCode } = {}) {
  const def = ROUTES[op];
  return {
    method: def.method,
    url: def.path,
    config: { operationId: op, ...options },
  } as const;
}

export const errorResponses = { '4xx': errorResponseSchema, '5xx': errorResponseSchema } as const;

/** The Fastify instance a route file declares its routes on: request types inferred from zod schemas. */
export type RouteApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What declares a route of a file: `route('op', 'summary', { body, ok }, handler)` (routesOn). */
export type DeclareRoute = ReturnType<typeof routesOn>;

/**
 * A route file's plugin: `export const xRoutes = routeModule(['tag'], (route, ctx) => { route(…) })`,
 * where `route` declares a route with the file's tags (routesOn), so no route file writes the type
 * provider, the context or its tags again. `fastify` is there for what needs the instance itself
 * (routes of another tag, a scope of its own with another body parser, for example).
 */
export function routeModule(
  tags: string[],
  declare: (route: DeclareRoute, ctx: AppContext, fastify: RouteApp) => void | Promise<void>,
) {
  return async (instance: FastifyInstance): Promise<void> => {
    const app = instance.withTypeProvider<ZodTypeProvider>();
    await declare(routesOn(app, tags), instance.ctx, app);
  };
}

/**
 * Reads every body of the scope's routes as bytes (a Buffer) of at most `bodyLimit`, whatever content
 * type it is sent as: the body of a file upload is the file itself.
 */
export function bodiesAsBytes(fastify: RouteApp, bodyLimit: number): void {
  fastify.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, done) =>
    done(null, body),
  );
}

/** What a route file writes of a route besides its name, summary and handler: inputs, 200 answer, options. */
interface RouteParts {
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  headers?: z.ZodType;
  /** The 200 answer; left out for a file download, which answers bytes. */
  ok?: z.ZodType;
  /** The error code a body or query failing its schema answers (default `validation.invalid`). */
  validationCode?: ErrorCode;
  /** Left out of the OpenAPI document (the e-signing callback, for example). */
  hide?: boolean;
  /** The route's own body limit in bytes (a file upload's); the server's otherwise. */
  bodyLimit?: number;
}

/** The schema a route's parts make: the file's tags, the summary, the inputs and `ok` as the 200 answer. */
type SchemaOf<P> = { tags: string[]; summary: string } & Omit<P, 'ok' | 'validationCode' | 'bodyLimit'> &
  (P extends { ok: infer R } ? { response: { 200: R } & typeof errorResponses } : unknown);

/** A route's handler, its request and reply typed by the route's schema as Fastify types them. */
type HandlerOf<P> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaOf<P>,
  ZodTypeProvider,
  FastifyBaseLogger
>;

/**
 * The declaration of a file's routes, one call each: `route('op', 'summary', { body, ok }, handler)`.
 * Method, URL and operationId come from the contracts' route table (routeOf), the tags are the file's,
 * and every route answers errors in the one error shape. The handler's request and reply are typed by
 * the schema, as Fastify types them when the schema is written out in `app.route`.
 */
export function routesOn(app: RouteApp, tags: string[]) {
  return function route<P extends RouteParts>(
    op: OperationId,
    summary: string,
    parts: P,
    handler: HandlerOf<P>,
  ): void {
    const { ok, validationCode, bodyLimit, ...inputs } = parts;
    app.route<RouteGenericInterface, ContextConfigDefault, FastifySchema>({
      ...routeOf(op, validationCode ? { validationCode } : {}),
      ...(bodyLimit ? { bodyLimit } : {}),
      schema: { tags, summary, ...inputs, ...(ok ? { response: { 200: ok, ...errorResponses } } : {}) },
      handler: handler as RouteHandlerMethod,
    });
  };
}

export function clientOf(request: { ip: string; headers: Record<string, unknown> }) {
  const ua = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof ua === 'string' ? ua : undefined };
}

/** One sign-in step's route: its name, summary, body and answer, and the service call that signs in. */
interface SignInStep<B> {
  op: OperationId;
  summary: string;
  body: z.ZodType<B>;
  ok: z.ZodType;
  /** Gets the body and the client (address, browser); answers the session, or a step token when two-factor is on. */
  signIn: (ctx: AppContext, body: B, client: ReturnType<typeof clientOf>) => Promise<unknown>;
}

/**
 * The sign-in routes of one kind of session (the customer's, the operator's): the password step, the
 * two-factor step, and the sign-out, which answers `{ ok: true }` once `end` has ended the caller's
 * own session.
 */
export function signInRoutes<P, T>(
  route: DeclareRoute,
  ctx: AppContext,
  routes: {
    password: SignInStep<P>;
    twoFactor: SignInStep<T>;
    signOut: {
      op: OperationId;
      summary: string;
      end: (request: {
        auth: AuthContext | null;
        operator: OperatorContext | null;
        ip: string;
      }) => Promise<void>;
    };
  },
): void {
  const stepRoute = <B>({ op, summary, body, ok, signIn }: SignInStep<B>) =>
    route(op, summary, { body, ok }, async (request) => signIn(ctx, request.body as B, clientOf(request)));
  stepRoute(routes.password);
  stepRoute(routes.twoFactor);
  const { signOut } = routes;
  route(signOut.op, signOut.summary, { ok: okResponseSchema }, async (request) =>
    okAfter(signOut.end(request)),
  );
}

/** The caller of a session route (the auth hook has set it; a route without one is a bug, answered 401). */
export function signedIn(request: { auth: AuthContext | null }): AuthContext {
  if (!request.auth) throw new ApiError('auth.unauthorized');
  return request.auth;
}

/** The caller of an operator route (the auth hook has set it; a route without one is a bug, answered 401). */
export function operatorOf(request: { operator: OperatorContext | null }): OperatorContext {
  if (!request.operator) throw new ApiError('auth.unauthorized');
  return request.operator;
}

/** What a register the caller owns (articles, recipients) does for its routes, each the issuer's own. */
export interface OwnedRegister<Body, Query = unknown> {
  /** One page of the caller's list (search, sort, pages as the list's query says). */
  list(db: Db, issuerId: string, query: Query): Promise<unknown>;
  get(db: Db, issuerId: string, id: string): Promise<unknown>;
  /** Adds one (`id` null) or changes the caller's `id`. */
  save(db: Db, issuerId: string, id: string | null, body: Body, now: Date): Promise<unknown>;
  remove(db: Db, issuerId: string, id: string): Promise<void>;
}

/**
 * The list, show, add, change and delete routes of a register the caller owns: each one call into its
 * service with the caller's issuer, answered as `page` (list), `item` (show, add, change) or
 * `{ ok: true }` (delete); a body that fails its schema answers `validationCode`. Declared with the
 * `route` and context a routeModule gives.
 */
export function ownedItemRoutes<B extends z.ZodType, Q extends z.ZodType>(
  route: DeclareRoute,
  ctx: AppContext,
  c: {
    validationCode: ErrorCode;
    /** The list's query and its answer. */
    query: Q;
    page: z.ZodType;
    item: z.ZodType;
    body: B;
    service: OwnedRegister<z.output<B>, z.output<Q>>;
    routes: Record<'list' | 'get' | 'create' | 'update' | 'delete', { op: OperationId; summary: string }>;
  },
): void {
  const { validationCode, item, body, routes } = c;
  route(routes.list.op, routes.list.summary, { querystring: c.query, ok: c.page }, async (request) =>
    c.service.list(ctx.db, signedIn(request).issuerId, request.query as z.output<Q>),
  );
  route(
    routes.get.op,
    routes.get.summary,
    { params: idParamsSchema, ok: item },
    issuerItem(ctx, c.service.get),
  );
  route(routes.create.op, routes.create.summary, { body, validationCode, ok: item }, async (request) =>
    c.service.save(ctx.db, signedIn(request).issuerId, null, request.body as z.output<B>, ctx.now()),
  );
  route(
    routes.update.op,
    routes.update.summary,
    { params: idParamsSchema, body, validationCode, ok: item },
    async (request) =>
      c.service.save(
        ctx.db,
        signedIn(request).issuerId,
        request.params.id,
        request.body as z.output<B>,
        ctx.now(),
      ),
  );
  route(
    routes.delete.op,
    routes.delete.summary,
    { params: idParamsSchema, ok: okResponseSchema },
    issuerItemOk(ctx, c.service.remove),
  );
}

/** What sendFile needs of a reply: a route's reply, whatever its schema. */
interface FileReply {
  header(key: string, value: string): FileReply;
  type(contentType: string): FileReply;
  send(payload: Buffer | Readable): FileReply;
}

/**
 * Answers a file download: `Content-Disposition: attachment` with the file name in its ASCII form and
 * its RFC 5987 UTF-8 one (`filename*=UTF-8''…`, lib/file-names.ts), the content type, then the bytes
 * (sent as a Buffer) or the stream.
 */
export function sendFile(
  reply: FileReply,
  filename: string,
  contentType: string,
  content: Uint8Array | Readable,
): FileReply {
  return reply
    .header('Content-Disposition', contentDisposition(filename))
    .type(contentType)
    .send(content instanceof Uint8Array ? Buffer.from(content) : content);
}

/** The signed-in caller as the audit log names them (user, issuer, username, address); 401 without one. */
export function callerOf(request: { auth: AuthContext | null; ip: string }): Caller {
  const auth = signedIn(request);
  return { userId: auth.userId, issuerId: auth.issuerId, username: auth.username, ip: request.ip };
}

/** The handler of a route whose work takes only the signed-in caller as the audit log names them (callerOf). */
export function asCaller<R>(ctx: AppContext, work: (ctx: AppContext, caller: Caller) => Promise<R>) {
  return async (request: { auth: AuthContext | null; ip: string }) => work(ctx, callerOf(request));
}

/**
 * `{ ok: true }` (okResponseSchema) once `work` is done: the answer of a route whose work answers
 * nothing (a sign-out, a password change, a delete); its error, if it fails.
 */
export async function okAfter(work: Promise<unknown>): Promise<{ ok: true }> {
  await work;
  return { ok: true };
}

/**
 * The handler of a read of the caller's own data by the route's query (a list, a report): the caller's
 * issuer and the validated query go to `read`, whose result is the answer.
 */
export function issuerQuery<Q, R>(ctx: AppContext, read: (db: Db, issuerId: string, query: Q) => Promise<R>) {
  return async (request: { auth: AuthContext | null; query: Q }) =>
    read(ctx.db, signedIn(request).issuerId, request.query);
}

/** The handler of a read of one of the caller's own items: the caller's issuer and the path's id go to `read`. */
export function issuerItem<R>(ctx: AppContext, read: (db: Db, issuerId: string, id: string) => Promise<R>) {
  return async (request: { auth: AuthContext | null; params: { id: string } }) =>
    read(ctx.db, signedIn(request).issuerId, request.params.id);
}

/** The handler of an act on one of the caller's own items that answers nothing (a delete, a mark read): `{ ok: true }` once `act` is done. */
export function issuerItemOk(
  ctx: AppContext,
  act: (db: Db, issuerId: string, id: string) => Promise<unknown>,
) {
  return async (request: { auth: AuthContext | null; params: { id: string } }) =>
    okAfter(act(ctx.db, signedIn(request).issuerId, request.params.id));
}

/**
 * The handler of a read of one of the caller's own items by the route's query (a settlement's page of
 * rows): the caller's issuer, the path's id and the validated query go to `read`.
 */
export function issuerItemQuery<Q, R>(
  ctx: AppContext,
  read: (db: Db, issuerId: string, id: string, query: Q) => Promise<R>,
) {
  return async (request: { auth: AuthContext | null; params: { id: string }; query: Q }) =>
    read(ctx.db, signedIn(request).issuerId, request.params.id, request.query);
}

/**
 * The handler of a download of a file made of one of the caller's own items (a settlement's BGMAX
 * file): the caller's issuer and the path's id go to `make`, whose file is answered (sendFile) as
 * `contentType`.
 */
export function issuerDownload(
  ctx: AppContext,
  contentType: string,
  make: (db: Db, issuerId: string, id: string) => Promise<{ fileName: string; bytes: Uint8Array }>,
) {
  return async (request: { auth: AuthContext | null; params: { id: string } }, reply: FileReply) => {
    const file = await make(ctx.db, signedIn(request).issuerId, request.params.id);
    return sendFile(reply, file.fileName, contentType, file.bytes);
  };
}

/**
 * The handler of a register route whose retries the Idempotency-Key header makes safe (an invoice, an
 * installment plan): the caller, the body, the headers and the time go to `create`.
 */
export function keyedCreate<B, R>(
  ctx: AppContext,
  create: (
    db: Db,
    auth: AuthContext,
    body: B,
    headers: Record<string, string | string[] | undefined>,
    now: Date,
  ) => Promise<R>,
) {
  return async (request: {
    auth: AuthContext | null;
    body: B;
    headers: Record<string, string | string[] | undefined>;
  }) => create(ctx.db, signedIn(request), request.body, request.headers, ctx.now());
}

/** The handler of a change of one of the caller's items: the caller, the path's id, the body and the time go to `change`. */
export function changeItem<B, R>(
  ctx: AppContext,
  change: (db: Db, auth: AuthContext, id: string, body: B, now: Date) => Promise<R>,
) {
  return async (request: { auth: AuthContext | null; params: { id: string }; body: B }) =>
    change(ctx.db, signedIn(request), request.params.id, request.body, ctx.now());
}

/** The answer of an operator route whose work needs no operator's name: `work` runs once operatorOf let the caller in. */
export function asOperator<T>(request: { operator: OperatorContext | null }, work: () => T): T {
  operatorOf(request);
  return work();
}

/** The handler of an operator's read by the route's query (a back-office list): the query goes to `read` once operatorOf let the caller in. */
export function operatorQuery<Q, R>(ctx: AppContext, read: (db: Db, query: Q) => Promise<R>) {
  return async (request: { operator: OperatorContext | null; query: Q }) =>
    asOperator(request, () => read(ctx.db, request.query));
}

/** The handler of an operator's read of one item (an issuer's fees): the path's id goes to `read` once operatorOf let the caller in. */
export function operatorItem<R>(ctx: AppContext, read: (db: Db, id: string) => Promise<R>) {
  return async (request: { operator: OperatorContext | null; params: { id: string } }) =>
    asOperator(request, () => read(ctx.db, request.params.id));
}

/**
 * An operator's request as the back office's work takes it: the operator (401 without one), the
 * address and the request's log.
 */
export function operatorCallOf(request: {
  operator: OperatorContext | null;
  ip: string;
  log: FastifyBaseLogger;
}) {
  return { operator: operatorOf(request), ip: request.ip, log: request.log };
}

/** The handler of an operator's action by the route's body (a payout run, the daily job): the call and the body go to `work`. */
export function operatorBody<B, R>(
  ctx: AppContext,
  work: (ctx: AppContext, call: ReturnType<typeof operatorCallOf>, body: B) => Promise<R>,
) {
  return async (request: { operator: OperatorContext | null; ip: string; log: FastifyBaseLogger; body: B }) =>
    work(ctx, operatorCallOf(request), request.body);
}
