import {
  getSelfResponseSchema,
  invoiceDetailSchema,
  listMessagesResponseSchema,
  messageSchema,
} from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices, messages } from '../src/db/schema';
import { bearer, createTestApp, type TestApp } from './support/test-app';

describe('messages', () => {
  let t: TestApp;
  let demo: string;
  let colleague: string;
  let other: string;
  beforeAll(async () => {
    t = await createTestApp();
    demo = await t.login('demo');
    other = await t.login('demo-other');
    colleague = await t.login('demo-limited');
  });
  afterAll(() => t.close());

  const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  it('lists the issuer’s messages newest first with the unread count of spec §3', async () => {
    const list = listMessagesResponseSchema.parse((await call(demo, 'GET', '/api/limited/messages')).json());
    const dates = list.items.map((m) => m.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(list.items.every((m) => m.title !== 'Tervetuloa')).toBe(true);
    // Type 4, unread, not written by demo: the two from Kundtjänst.
    expect(list.unread).toBe(2);
    // For another user of the same issuer, demo's own unread message counts too.
    const forColleague = listMessagesResponseSchema.parse(
      (await call(colleague, 'GET', '/api/limited/messages')).json(),
    );
    expect(forColleague.unread).toBe(3);
  });

  it('writes a message on an invoice thread, adds a timeline event, and marks read', async () => {
    const [inv] = await t.db.select().from(invoices).where(eq(invoices.invoiceNumber, '10042'));
    const invoiceID = inv?.id ?? '';
    const res = await call(demo, 'POST', '/api/limited/messages', {
      invoiceID,
      title: 'Fråga om 10042',
      message: 'När sker utbetalningen?',
    });
    expect(res.statusCode, res.body).toBe(200);
    const msg = messageSchema.parse(res.json());
    expect(msg).toMatchObject({ invoiceNumber: '10042', author: 'Dana Demosson', messageType: '4' });
    const thread = listMessagesResponseSchema.parse(
      (await call(demo, 'GET', `/api/limited/messages?invoiceID=${invoiceID}`)).json(),
    );
    expect(thread.items.map((m) => m.messageID)).toContain(msg.messageID);
    expect(thread.items.every((m) => m.invoiceID === invoiceID)).toBe(true);
    const detail = invoiceDetailSchema.parse(
      (await call(demo, 'GET', `/api/limited/invoices/${invoiceID}`)).json(),
    );
    expect(detail.events.at(-1)?.event).toBe(23);

    const unread = listMessagesResponseSchema.parse(
      (await call(demo, 'GET', '/api/limited/messages?unreadOnly=true')).json(),
    );
    const target = unread.items.find((m) => m.authorID === null);
    expect(target).toBeDefined();
    expect((await call(demo, 'POST', `/api/limited/messages/${target?.messageID}/read`)).statusCode).toBe(
      200,
    );
    const self = getSelfResponseSchema.parse((await call(demo, 'GET', '/api/self')).json());
    expect(self.messages.find((m) => m.messageID === target?.messageID)?.read).toBe(true);
  });

  it('refuses an empty message and a foreign invoice, writing nothing', async () => {
    const before = (await t.db.select().from(messages)).length;
    const empty = await call(demo, 'POST', '/api/limited/messages', { title: ' ', message: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().issues).toEqual(
      expect.arrayContaining([
        { path: 'title', code: 'validation.required' },
        { path: 'message', code: 'validation.required' },
      ]),
    );
    const [inv] = await t.db.select().from(invoices).where(eq(invoices.invoiceNumber, '10042'));
    const foreign = await call(other, 'POST', '/api/limited/messages', {
      invoiceID: inv?.id,
      title: 'x',
      message: 'y',
    });
    expect(foreign.statusCode).toBe(404);
    expect(await t.db.select().from(messages)).toHaveLength(before);
  });

  it('another issuer neither sees nor marks Demo Bygg AB’s messages', async () => {
    const mine = listMessagesResponseSchema.parse(
      (await call(demo, 'GET', '/api/limited/messages?pageSize=100')).json(),
    );
    const theirs = listMessagesResponseSchema.parse(
      (await call(other, 'GET', '/api/limited/messages?pageSize=100')).json(),
    );
    const mineIds = new Set(mine.items.map((m) => m.messageID));
    expect(theirs.items.some((m) => mineIds.has(m.messageID))).toBe(false);
    const target = mine.items.find((m) => !m.read);
    expect(target).toBeDefined();
    expect((await call(other, 'POST', `/api/limited/messages/${target?.messageID}/read`)).statusCode).toBe(
      404,
    );
    const [still] = await t.db
      .select()
      .from(messages)
      .where(eq(messages.id, target?.messageID ?? ''));
    expect(still?.read).toBe(false);
  });
});
