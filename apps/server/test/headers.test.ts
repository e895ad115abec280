import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { bearer, createTestApp } from './support/test-app';
import { useTestApp } from './support/use-test-app';
import { builtWebDir, INDEX_HTML } from './support/web-dist';

const ASSET_JS = 'console.log("portal");\n';

const t = useTestApp({
  webDistDir: builtWebDir((dir) => {
    writeFileSync(join(dir, 'index.html'), INDEX_HTML);
    writeFileSync(join(dir, 'assets', 'x.js'), ASSET_JS);
  }),
  posthogKey: 'phc_test_key',
});

function expectSecurityHeaders(res: LightMyRequestResponse, what: string): void {
  const csp = String(res.headers['content-security-policy'] ?? '');
  const directives = new Map(
    csp.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name ?? '', values.join(' ')] as const;
    }),
  );
  expect(directives.get('default-src'), what).toBe("'self'");
  expect(directives.get('script-src'), what).toBe("'self'");
  expect(directives.get('object-src'), what).toBe("'none'");
  expect(directives.get('base-uri'), what).toBe("'none'");
  expect(directives.get('frame-ancestors'), what).toBe("'none'");
  expect(directives.get('form-action'), what).toBe("'self'");
  expect(directives.get('connect-src'), what).toContain('https://eu.i.posthog.com');
  expect(csp, what).not.toContain('unsafe-inline');
  expect(csp, what).not.toContain('unsafe-eval');
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['x-frame-options'], what).toBe('DENY');
  expect(res.headers['referrer-policy'], what).toBe('no-referrer');
  expect(res.headers['cross-origin-opener-policy'], what).toBe('same-origin');
  expect(res.headers['cross-origin-resource-policy'], what).toBe('same-origin');
  expect(res.headers['permissions-policy'], what).toContain('camera=()');
  // PUBLIC_URL is http in the tests: no HSTS on a site that is not https.
  expect(res.headers['strict-transport-security'], what).toBeUndefined();
}

describe('security headers', () => {
  const cases: [string, InjectOptions, number][] = [
    ['JSON answer', { url: '/api/health' }, 200],
    ['401 without a token', { url: '/api/self' }, 401],
    ['401 with an unknown token', { url: '/api/self', headers: bearer('Q'.repeat(43)) }, 401],
    ['400 for a bad body', { method: 'POST', url: '/api/login/limited', payload: { username: '' } }, 400],
    [
      '400 for a body that is not JSON',
      {
        method: 'POST',
        url: '/api/login/limited',
        headers: { 'content-type': 'application/json' },
        payload: '{"username":',
      },
      400,
    ],
    ['404 of an unknown API route', { url: '/api/unknown' }, 404],
    ['404 of an unknown method on a route', { method: 'DELETE', url: '/api/self' }, 404],
    ['a static asset', { url: '/assets/x.js' }, 200],
    ['the SPA fallback', { url: '/some/route' }, 200],
    ['the SPA root', { url: '/' }, 200],
    ['a missing file', { url: '/missing.png' }, 404],
    ['the runtime settings', { url: '/config.js' }, 200],
  ];

  it.each(cases)('are on %s', async (what, request, status) => {
    const res = await t.app.inject(request);
    expect(res.statusCode).toBe(status);
    expectSecurityHeaders(res, what);
  });

  it('are on a signed-in answer, which is never cached', async () => {
    const res = await t.app.inject({ url: '/api/self', headers: bearer(await t.login('demo')) });
    expect(res.statusCode).toBe(200);
    expectSecurityHeaders(res, 'self');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('add HSTS when the public address is https', async () => {
    const https = await createTestApp({ publicUrl: 'https://portal.example' });
    try {
      const res = await https.app.inject({ url: '/api/health' });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await https.close();
    }
  });
});

describe('the web app', () => {
  it('serves assets with a long cache and the HTML without one', async () => {
    const asset = await t.app.inject({ url: '/assets/x.js' });
    expect(asset.body).toBe(ASSET_JS);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await t.app.inject({ url: '/some/route' });
    expect(page.body).toBe(INDEX_HTML);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    const root = await t.app.inject({ url: '/' });
    expect(root.body).toBe(INDEX_HTML);
  });

  it('answers JSON 404 route.not_found under /api and for missing files, never the page', async () => {
    for (const url of ['/api/unknown', '/api', '/api/limited/nothing/here', '/missing.png']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ code: 'route.not_found' });
    }
    const post = await t.app.inject({ method: 'POST', url: '/some/route' });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toEqual({ code: 'route.not_found' });
  });

  it('gives the runtime settings with the analytics key', async () => {
    const res = await t.app.inject({ url: '/config.js' });
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    const match = /^window\.__PORTAL_CONFIG__ = (.*);\n$/.exec(res.body);
    expect(match?.[1]).toBeDefined();
    expect(JSON.parse(match?.[1] ?? '')).toEqual({ apiBaseUrl: '/api', posthogKey: 'phc_test_key' });
  });

  it('does not serve files outside the web folder', async () => {
    for (const url of ['/../package.json', '/assets/../../secret.key', '/%2e%2e/%2e%2e/etc/passwd']) {
      const res = await t.app.inject({ url });
      expect(res.body, url).not.toContain('"name"');
      expect(res.body, url).not.toContain('root:');
    }
  });
});
