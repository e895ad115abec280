import { ROUTES } from '@portal/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALL_OPERATIONS } from './support/route-samples';
import { useTestApp } from './support/use-test-app';

interface OpenApiDoc {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>>;
}

const t = useTestApp();
let doc: OpenApiDoc;
beforeAll(async () => {
  const res = await t.app.inject({ url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  doc = res.json() as OpenApiDoc;
});

/** Fastify's `:hash` is OpenAPI's `{hash}`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBeTruthy();
  });

  it.each(ALL_OPERATIONS.filter((op) => op !== 'getOpenApi'))('describes %s', (op) => {
    const def = ROUTES[op];
    const operation = doc.paths[openApiPath(def.path)]?.[def.method.toLowerCase()];
    expect(operation, `${def.method} ${def.path}`).toBeDefined();
    expect(operation?.operationId).toBe(op);
    expect(Object.keys(operation?.responses ?? {})).toContain('200');
  });

  it('lists nothing else, and hides itself', () => {
    const listed = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const expected = ALL_OPERATIONS.filter((op) => op !== 'getOpenApi').map(
      (op) => `${ROUTES[op].method} ${openApiPath(ROUTES[op].path)}`,
    );
    expect(listed.sort()).toEqual(expected.sort());
    expect(doc.paths['/api/openapi.json']).toBeUndefined();
  });

  it('uses unique operationIds', () => {
    const ids = Object.values(doc.paths).flatMap((methods) =>
      Object.values(methods).map((o) => o.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });
});
