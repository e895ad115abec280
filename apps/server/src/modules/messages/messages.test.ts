import {
  getSelfResponseSchema,
  invoiceDetailSchema,
  listMessagesResponseSchema,
  messageSchema,
} from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useSignedInApp } from '../../../test/support/use-test-app';
import { invoices, messages, users } from '../../db/schema';
import { headerLanguage } from '../../services/notices';

describe('messages', () => {
  const { t, who } = useSignedInApp({ demo: 'demo', other: 'demo-other', colleague: 'demo-limited' });

  const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object, language?: string) =>
    t.call(token, method, url, payload, language ? { 'accept-language': language } : {});
  const list = async (token: string, query = '', language?: string) =>
    listMessagesResponseSchema.parse(
      (await call(token, 'GET', `/api/limited/messages?pageSize=100${query}`, undefined, language)).json(),
    );
  const selfOf = async (token: string, language?: string) =>
    getSelfResponseSchema.parse((await call(token, 'GET', '/api/self', undefined, language)).json());

  it('words our notices in the reader’s language, signed with one name for our side (issue #11)', async () => {
    const wording = {
      'sv-SE': {
        author: 'Kundservice',
        welcome: 'Välkommen till Kundportalen',
        approved: 'Faktura 10042 är godkänd',
      },
      'en-US': {
        author: 'Customer service',
        welcome: 'Welcome to the Customer Portal',
        approved: 'Invoice 10042 approved',
      },
      'fi-FI': {
        author: 'Asiakaspalvelu',
        welcome: 'Tervetuloa asiakasportaaliin',
        approved: 'Lasku 10042 on hyväksytty',
      },
    } as const;
    for (const [language, want] of Object.entries(wording)) {
      for (const items of [
        (await list(who.demo, '', language)).items,
        (await selfOf(who.demo, language)).messages,
      ]) {
        const ours = items.filter((m) => m.authorID === null);
        expect(ours.length).toBeGreaterThanOrEqual(3);
        expect(new Set(ours.map((m) => m.author))).toEqual(new Set([want.author]));
        expect(ours.map((m) => m.title)).toEqual(expect.arrayContaining([want.welcome, want.approved]));
      }
    }
    // The reminder names the recipient and the invoice in English too.
    const reminder = (await list(who.demo, '', 'en-US')).items.find(
      (m) => m.invoiceNumber === '10037' && !m.authorID,
    );
    expect(reminder?.title).toBe('Invoice 10037: payment reminder sent');
    expect(reminder?.message).toMatch(/has not paid invoice 10037 on time/);
    // A user's own message is shown as written, whatever the reader's language.
    expect((await list(who.demo, '', 'fi-FI')).items.find((m) => m.authorID !== null)?.title).toBe(
      'Re: Faktura 10037',
    );
  });

  it('without Accept-Language, words them in the user’s stored language, else Swedish', async () => {
    await t.db.update(users).set({ language: 'fi-FI' }).where(eq(users.username, 'demo'));
    try {
      expect((await list(who.demo)).items.find((m) => m.invoiceNumber === '10042')?.title).toBe(
        'Lasku 10042 on hyväksytty',
      );
      expect((await selfOf(who.demo)).messages.find((m) => m.invoiceNumber === '10042')?.author).toBe(
        'Asiakaspalvelu',
      );
    } finally {
      await t.db.update(users).set({ language: null }).where(eq(users.username, 'demo'));
    }
    expect((await list(who.demo)).items.find((m) => m.invoiceNumber === '10042')?.title).toBe(
      'Faktura 10042 är godkänd',
    );
  });

  it('the unread count, the unread items and the header’s messages agree; one’s own message is never unread', async () => {
    for (const token of [who.demo, who.colleague]) {
      const all = await list(token);
      const unreadItems = all.items.filter((m) => !m.read);
      expect(unreadItems).toHaveLength(all.unread);
      expect((await list(token, '&unreadOnly=true')).items.map((m) => m.messageID)).toEqual(
        unreadItems.map((m) => m.messageID),
      );
      const self = await selfOf(token);
      expect(self.messages.filter((m) => !m.read).map((m) => m.messageID)).toEqual(
        unreadItems.map((m) => m.messageID),
      );
      expect(unreadItems.every((m) => m.messageType === '4' && m.authorID !== self.userID)).toBe(true);
    }
    // One invoice's thread counts its own unread messages.
    const thread = (await list(who.demo)).items.find((m) => m.invoiceNumber === '10037')?.invoiceID;
    const inThread = await list(who.demo, `&invoiceID=${thread}`);
    expect(inThread.unread).toBe(inThread.items.filter((m) => !m.read).length);
    expect(inThread.unread).toBeLessThan((await list(who.demo)).unread);
    // demo's own message: read for demo, unread for a colleague (it was written to us, by someone else).
    const own = (await list(who.demo)).items.find((m) => m.author === 'Dana Demosson');
    expect(own?.read).toBe(true);
    expect((await list(who.colleague)).items.find((m) => m.messageID === own?.messageID)?.read).toBe(false);
  });

  it('lists the issuer’s messages newest first with the unread count of spec §3', async () => {
    const list = listMessagesResponseSchema.parse(
      (await call(who.demo, 'GET', '/api/limited/messages')).json(),
    );
    const dates = list.items.map((m) => m.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(list.items.every((m) => m.title !== 'Tervetuloa')).toBe(true);
    // Type 4, unread, not written by demo: the two from Kundtjänst.
    expect(list.unread).toBe(2);
    // For another user of the same issuer, demo's own unread message counts too.
    const forColleague = listMessagesResponseSchema.parse(
      (await call(who.colleague, 'GET', '/api/limited/messages')).json(),
    );
    expect(forColleague.unread).toBe(3);
  });

  it('writes a message on an invoice thread, adds a timeline event, and marks read', async () => {
    const [inv] = await t.db.select().from(invoices).where(eq(invoices.invoiceNumber, '10042'));
    const invoiceID = inv?.id ?? '';
    const res = await call(who.demo, 'POST', '/api/limited/messages', {
      invoiceID,
      title: 'Fråga om 10042',
      message: 'När sker utbetalningen?',
    });
    expect(res.statusCode, res.body).toBe(200);
    const msg = messageSchema.parse(res.json());
    expect(msg).toMatchObject({ invoiceNumber: '10042', author: 'Dana Demosson', messageType: '4' });
    const thread = listMessagesResponseSchema.parse(
      (await call(who.demo, 'GET', `/api/limited/messages?invoiceID=${invoiceID}`)).json(),
    );
    expect(thread.items.map((m) => m.messageID)).toContain(msg.messageID);
    expect(thread.items.every((m) => m.invoiceID === invoiceID)).toBe(true);
    const detail = invoiceDetailSchema.parse(
      (await call(who.demo, 'GET', `/api/limited/invoices/${invoiceID}`)).json(),
    );
    expect(detail.events.at(-1)?.event).toBe(23);

    const unread = listMessagesResponseSchema.parse(
      (await call(who.demo, 'GET', '/api/limited/messages?unreadOnly=true')).json(),
    );
    const target = unread.items.find((m) => m.authorID === null);
    expect(target).toBeDefined();
    expect((await call(who.demo, 'POST', `/api/limited/messages/${target?.messageID}/read`)).statusCode).toBe(
      200,
    );
    const self = getSelfResponseSchema.parse((await call(who.demo, 'GET', '/api/self')).json());
    expect(self.messages.find((m) => m.messageID === target?.messageID)?.read).toBe(true);
  });

  it('refuses an empty message and a foreign invoice, writing nothing', async () => {
    const before = (await t.db.select().from(messages)).length;
    const empty = await call(who.demo, 'POST', '/api/limited/messages', { title: ' ', message: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().issues).toEqual(
      expect.arrayContaining([
        { path: 'title', code: 'validation.required' },
        { path: 'message', code: 'validation.required' },
      ]),
    );
    const [inv] = await t.db.select().from(invoices).where(eq(invoices.invoiceNumber, '10042'));
    const foreign = await call(who.other, 'POST', '/api/limited/messages', {
      invoiceID: inv?.id,
      title: 'x',
      message: 'y',
    });
    expect(foreign.statusCode).toBe(404);
    expect(await t.db.select().from(messages)).toHaveLength(before);
  });

  it('another issuer neither sees nor marks Demo Bygg AB’s messages', async () => {
    const mine = listMessagesResponseSchema.parse(
      (await call(who.demo, 'GET', '/api/limited/messages?pageSize=100')).json(),
    );
    const theirs = listMessagesResponseSchema.parse(
      (await call(who.other, 'GET', '/api/limited/messages?pageSize=100')).json(),
    );
    const mineIds = new Set(mine.items.map((m) => m.messageID));
    expect(theirs.items.some((m) => mineIds.has(m.messageID))).toBe(false);
    const target = mine.items.find((m) => !m.read);
    expect(target).toBeDefined();
    expect(
      (await call(who.other, 'POST', `/api/limited/messages/${target?.messageID}/read`)).statusCode,
    ).toBe(404);
    const [still] = await t.db
      .select()
      .from(messages)
      .where(eq(messages.id, target?.messageID ?? ''));
    expect(still?.read).toBe(false);
  });
});

describe('headerLanguage', () => {
  const of = (value?: string) =>
    headerLanguage({ headers: value === undefined ? {} : { 'accept-language': value } } as never);
  it('takes the first language of the portal, by full tag or language part', () => {
    expect(of('fi-FI')).toBe('fi-FI');
    expect(of('en-GB,en;q=0.9')).toBe('en-US');
    expect(of('de-DE, fi;q=0.8, sv;q=0.5')).toBe('fi-FI');
    expect(of('SV-se')).toBe('sv-SE');
  });
  it('is null when none is asked for or none is ours', () => {
    expect(of()).toBeNull();
    expect(of('')).toBeNull();
    expect(of('*')).toBeNull();
    expect(of('de-DE,fr;q=0.5')).toBeNull();
  });
});
