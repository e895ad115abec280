import { type ErrorCode, errorResponseSchema, type OperationId, ROUTES } from '@portal/contracts';
import type { AuthContext, OperatorContext } from '../context';
import { ApiError } from '../lib/errors';

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

export function clientOf(request: { ip: string; headers: Record<string, unknown> }) {
  const ua = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof ua === 'string' ? ua : undefined };
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
