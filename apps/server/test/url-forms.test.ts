import { getGroupResponseSchema } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { redactUrl, rewriteAmpersandQuery } from '../src/app';
import { useTestApp } from './support/use-test-app';

const t = useTestApp();

describe('query strings written with & (spec §7: limited/group&group=x)', () => {
  it.each([
    '/api/limited/group?group=acme',
    '/api/limited/group&group=acme',
    '/api/limited/group&group=acme&extra=1',
    '/api/limited/group?group=acme&extra=1',
  ])('%s answers the group', async (url) => {
    const res = await t.app.inject({ url });
    expect(res.statusCode).toBe(200);
    const group = getGroupResponseSchema.parse(res.json());
    expect(group).toMatchObject({ id: 'acme', name: 'Acme Finans' });
    expect(group.logo).toMatch(/^data:image\/svg\+xml;base64,/);
  });

  it.each(['/api/limited/group&group=nope', '/api/limited/group?group=nope'])(
    '%s answers 404 group.not_found',
    async (url) => {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'group.not_found' });
    },
  );

  it('answers 400 without a group', async () => {
    const res = await t.app.inject({ url: '/api/limited/group' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation.invalid', issues: [{ path: 'group' }] });
  });

  it('keeps the same answers for both forms', async () => {
    const a = await t.app.inject({ url: '/api/limited/group&group=acme' });
    const b = await t.app.inject({ url: '/api/limited/group?group=acme' });
    expect(a.body).toBe(b.body);
  });
});

describe('rewriteAmpersandQuery', () => {
  it.each([
    ['/api/limited/group&group=x', '/api/limited/group?group=x'],
    ['/api/a&b=1&c=2', '/api/a?b=1&c=2'],
    ['/api/a?b=1&c=2', '/api/a?b=1&c=2'],
    ['/api/a', '/api/a'],
    // Only API paths: a page of the web app keeps its URL.
    ['/some&page=1', '/some&page=1'],
  ])('%s → %s', (input, output) => {
    expect(rewriteAmpersandQuery(input)).toBe(output);
  });
});

describe('redactUrl', () => {
  it('hides the token of a reset link', () => {
    expect(redactUrl('/api/limited/password/reset/abcDEF_123-x')).toBe(
      '/api/limited/password/reset/[redacted]',
    );
    expect(redactUrl('/api/limited/password/reset/abc?x=1')).toBe(
      '/api/limited/password/reset/[redacted]?x=1',
    );
    expect(redactUrl('/api/limited/password/reset/abc&x=1')).toBe(
      '/api/limited/password/reset/[redacted]&x=1',
    );
    expect(redactUrl('/api/self')).toBe('/api/self');
  });
});
