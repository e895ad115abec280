import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { COMPRESS_THRESHOLD_BYTES } from '../src/app';
import { bearer } from './support/test-app';
import { useTestApp } from './support/use-test-app';
import { builtWebDir, INDEX_HTML } from './support/web-dist';

// A built web app as apps/web's build leaves it: each text file with its .br and .gz beside it. The
// compressed twins hold a marker the plain file does not, so a test sees which file was sent.
const APP_JS = `export const app = ${JSON.stringify('portal '.repeat(400))};\n`;
const SMALL_JS = 'export const x = 1;\n';

const withTwins = (path: string, text: string) => {
  writeFileSync(path, text);
  writeFileSync(`${path}.br`, brotliCompressSync(Buffer.from(`${text}/*br*/`)));
  writeFileSync(`${path}.gz`, gzipSync(Buffer.from(`${text}/*gz*/`)));
};

const t = useTestApp({
  webDistDir: builtWebDir((dir) => {
    withTwins(join(dir, 'index.html'), INDEX_HTML);
    withTwins(join(dir, 'assets', 'app-abc123.js'), APP_JS);
    // Too small to be worth compressing: the build leaves it without twins.
    writeFileSync(join(dir, 'assets', 'small-abc123.js'), SMALL_JS);
  }),
});

function get(url: string, acceptEncoding?: string, headers: Record<string, string> = {}) {
  return t.app.inject({
    url,
    headers: acceptEncoding === undefined ? headers : { ...headers, 'accept-encoding': acceptEncoding },
  });
}

/** The body as the client reads it, after undoing the Content-Encoding. */
function decoded(res: LightMyRequestResponse): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString('utf8');
  expect(encoding ?? 'identity').toBe('identity');
  return res.rawPayload.toString('utf8');
}

function varies(res: LightMyRequestResponse): boolean {
  return /(^|,)\s*accept-encoding\s*(,|$)/i.test(String(res.headers.vary ?? ''));
}

describe('static files compressed at build time', () => {
  const chrome = 'gzip, deflate, br, zstd';
  it.each([
    ['a browser that takes Brotli', chrome, 'br', '/*br*/'],
    ['Brotli preferred by weight', 'gzip;q=0.5, br;q=1', 'br', '/*br*/'],
    ['gzip only', 'gzip', 'gzip', '/*gz*/'],
    ['gzip preferred over Brotli', 'br;q=0.1, gzip', 'gzip', '/*gz*/'],
    ['identity', 'identity', undefined, ''],
    ['an encoding no file exists for', 'deflate', undefined, ''],
    ['no Accept-Encoding', undefined, undefined, ''],
  ])('a hashed asset for %s', async (_what, accept, encoding, marker) => {
    const res = await get('/assets/app-abc123.js', accept);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(varies(res)).toBe(true);
    expect(decoded(res)).toBe(APP_JS + marker);
    if (encoding) expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
  });

  it('sends a file without twins as it is, and compresses nothing on the fly', async () => {
    const res = await get('/assets/small-abc123.js', chrome);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(SMALL_JS);
  });

  it.each([
    ['/', chrome, 'br', '/*br*/'],
    ['/', 'gzip', 'gzip', '/*gz*/'],
    ['/', undefined, undefined, ''],
    ['/invoices/some-id', chrome, 'br', '/*br*/'],
    ['/login', 'gzip', 'gzip', '/*gz*/'],
    ['/login', 'identity', undefined, ''],
  ])('index.html at %s (%s): not cached for long', async (url, accept, encoding, marker) => {
    const res = await get(url, accept);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(varies(res)).toBe(true);
    expect(decoded(res)).toBe(INDEX_HTML + marker);
  });

  it('answers 304 to a revalidation of index.html with its ETag', async () => {
    const first = await get('/', chrome);
    const etag = String(first.headers.etag ?? '');
    expect(etag).not.toBe('');
    const again = await get('/', chrome, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
  });
});

describe('JSON answers compressed on the fly', () => {
  it.each([
    ['br', 'gzip, deflate, br'],
    ['gzip', 'gzip'],
  ])('a large answer in %s', async (encoding, accept) => {
    const plain = await get('/api/openapi.json');
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    const res = await get('/api/openapi.json', accept);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(varies(res)).toBe(true);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(decoded(res))).toEqual(JSON.parse(plain.body));
  });

  it('sends a large answer plain to a client that accepts no compression', async () => {
    for (const accept of [undefined, 'identity']) {
      const res = await get('/api/openapi.json', accept);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
      expect(() => JSON.parse(res.body)).not.toThrow();
    }
  });

  it('leaves an answer under the threshold plain', async () => {
    const res = await get('/api/health', 'gzip, br');
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toMatchObject({ status: 'ok' });
  });

  it('compresses a signed-in list, and an error answer keeps its code', async () => {
    const token = await t.login('demo');
    const list = await get('/api/limited/invoices', 'br', bearer(token));
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decoded(list))).toHaveProperty('items');
    const denied = await get('/api/limited/invoices', 'br');
    expect(denied.statusCode).toBe(401);
    expect(JSON.parse(decoded(denied))).toEqual({ code: 'auth.unauthorized' });
  });

  it('sends a PDF download unchanged, with its length', async () => {
    const token = await t.login('demo');
    const res = await get(
      '/api/limited/reports/activeRegress?from=2026-01-01&to=2026-12-31&fileType=pdf',
      'gzip, br',
      bearer(token),
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
  });

  it('reads a request body as it was sent: a Content-Encoding is not inflated', async () => {
    const body = gzipSync(Buffer.from(JSON.stringify({ username: 'demo', password: 'x' })));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login/limited',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: body,
    });
    expect(res.statusCode).toBe(400);
  });
});
