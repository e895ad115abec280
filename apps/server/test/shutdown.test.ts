import { listInvoicesResponseSchema } from '@portal/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer } from './support/test-app';
import { useLogins, useTestApp } from './support/use-test-app';

// server.ts stops with app.close(), then app.whenHandlersDone(), then closes the database. Fastify's
// close() returns once the sockets are gone, so a handler whose client disconnected can still be at
// work; these tests check the counter and the wait that keep the database open for it.
describe('handlers at work', () => {
  const t = useTestApp();
  const user = useLogins(t, { token: 'demo' });
  let id: string;
  beforeAll(async () => {
    const list = listInvoicesResponseSchema.parse(
      (await t.call(user.token, 'GET', '/api/limited/invoices?pageSize=1')).json(),
    );
    id = list.items[0]?.invoiceID ?? '';
  });

  it('counts a request from its first hook until it has answered, and the wait ends with it', async () => {
    expect(t.app.handlersAtWork()).toBe(0);
    expect(await t.app.whenHandlersDone(0)).toBe(true);
    // light-my-request sends when asked for the result: Promise.resolve asks at once.
    const answer = Promise.resolve(
      t.app.inject({ method: 'GET', url: `/api/limited/invoices/${id}`, headers: bearer(user.token) }),
    );
    // Embedded PGlite answers in the same process: look between microtasks, not between macrotasks.
    for (let i = 0; i < 100_000 && t.app.handlersAtWork() === 0; i++) await null;
    expect(t.app.handlersAtWork()).toBe(1);
    const done = t.app.whenHandlersDone(10_000);
    const res = await answer;
    expect(await done).toBe(true);
    expect(res.statusCode, res.body).toBe(200);
    expect(t.app.handlersAtWork()).toBe(0);
  });

  it('counts answers that are errors too: refused, unknown and failing requests end their count', async () => {
    await t.app.inject({ method: 'GET', url: `/api/limited/invoices/${id}` });
    await t.call(user.token, 'GET', '/api/no-such-route');
    await t.call(user.token, 'GET', '/api/limited/invoices/not-a-uuid');
    expect(t.app.handlersAtWork()).toBe(0);
  });
});
