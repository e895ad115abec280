import {
  articleSchema,
  listArticlesResponseSchema,
  listRecipientsResponseSchema,
  recipientSchema,
} from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { articles, companies, recipients } from '../src/db/schema';
import { VALID_ARTICLE_BODY, VALID_RECIPIENT_BODY } from './support/route-samples';
import { useSignedInApp } from './support/use-test-app';

describe('recipients and articles', () => {
  const { t, who } = useSignedInApp({ demo: 'demo', other: 'demo-other', limited: 'demo-limited' });

  it('creates, lists, searches, sorts, pages, updates and deletes recipients', async () => {
    const names = ['Alfa Xyloo AB', 'Beta Xyloo Måleri AB', 'Gamma Xyloo El HB'];
    const ids: string[] = [];
    for (const name of names) {
      const res = await t.call(who.demo, 'POST', '/api/limited/recipients', {
        ...VALID_RECIPIENT_BODY,
        name,
      });
      expect(res.statusCode).toBe(200);
      ids.push(recipientSchema.parse(res.json()).recipientID);
    }
    const page = listRecipientsResponseSchema.parse(
      (await t.call(who.demo, 'GET', '/api/limited/recipients?sort=name&order=desc&pageSize=2')).json(),
    );
    expect(page.total).toBeGreaterThanOrEqual(3);
    expect(page.items).toHaveLength(2);
    // The database orders text by code point (C and C.UTF-8), which puts "Östmåleri" after "Östmark" as
    // Swedish does; a locale-aware compare in English would not.
    expect((page.items[0]?.name ?? '') >= (page.items[1]?.name ?? '')).toBe(true);

    const found = listRecipientsResponseSchema.parse(
      (
        await t.call(who.demo, 'GET', `/api/limited/recipients?search=${encodeURIComponent('xyloo måleri')}`)
      ).json(),
    );
    expect(found.items.map((r) => r.name)).toEqual(['Beta Xyloo Måleri AB']);
    // A LIKE wildcard typed by the user is a plain character.
    const none = listRecipientsResponseSchema.parse(
      (await t.call(who.demo, 'GET', '/api/limited/recipients?search=%25')).json(),
    );
    expect(none.total).toBe(0);

    const upd = await t.call(who.demo, 'PUT', `/api/limited/recipients/${ids[0]}`, {
      ...VALID_RECIPIENT_BODY,
      name: 'Alfa Xyloo & Son AB',
      vat: 'se 556036079301',
    });
    expect(upd.statusCode).toBe(200);
    expect(recipientSchema.parse(upd.json())).toMatchObject({
      name: 'Alfa Xyloo & Son AB',
      vat: 'SE556036079301',
    });

    expect((await t.call(who.demo, 'DELETE', `/api/limited/recipients/${ids[2]}`)).statusCode).toBe(200);
    expect((await t.call(who.demo, 'GET', `/api/limited/recipients/${ids[2]}`)).statusCode).toBe(404);
  });

  it('refuses a bad recipient with field issues and writes nothing', async () => {
    const before = await t.db.select().from(recipients);
    const res = await t.call(who.demo, 'POST', '/api/limited/recipients', {
      name: 'x'.repeat(46),
      zipcode: '',
      city: 'Lund',
      email: 'not-an-email',
      organizationNumber: '556036-0794',
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('recipient.invalid');
    const byPath = Object.fromEntries(
      body.issues.map((i: { path: string; code: string }) => [i.path, i.code]),
    );
    expect(byPath).toMatchObject({
      name: 'validation.max_length',
      zipcode: 'validation.required',
      email: 'validation.email',
      organizationNumber: 'validation.organization_number',
    });
    expect(await t.db.select().from(recipients)).toHaveLength(before.length);
  });

  it('articles: unique number per issuer, VAT rate of the issuer, recipient of the issuer', async () => {
    const created = await t.call(who.demo, 'POST', '/api/limited/articles', VALID_ARTICLE_BODY);
    expect(created.statusCode).toBe(200);
    const article = articleSchema.parse(created.json());
    expect(article).toMatchObject({ articleNumber: 'T-100', priceMinor: 65_000, currency: 'SEK', unit: 'h' });

    // A taken number, a Finnish VAT rate for a Swedish issuer, and a price in fractions of an öre.
    const refusals: [Record<string, unknown>, number, Record<string, unknown>][] = [
      [{ name: 'Annan' }, 409, { code: 'article.duplicate_number' }],
      [{ articleNumber: 'T-2', vatBasisPoints: 2550 }, 400, { code: 'article.invalid_vat_rate' }],
      [
        { articleNumber: 'T-3', priceMinor: 10.5 },
        400,
        { issues: expect.arrayContaining([{ path: 'priceMinor', code: 'validation.whole_minor_units' }]) },
      ],
    ];
    for (const [change, status, answer] of refusals) {
      const res = await t.call(who.demo, 'POST', '/api/limited/articles', {
        ...VALID_ARTICLE_BODY,
        ...change,
      });
      expect(res.statusCode, JSON.stringify(change)).toBe(status);
      expect(res.json()).toMatchObject(answer);
    }

    // The same number is free for another issuer (a Finnish one, so a Finnish rate).
    const otherIssuer = await t.call(who.other, 'POST', '/api/limited/articles', {
      ...VALID_ARTICLE_BODY,
      vatBasisPoints: 2550,
    });
    expect(otherIssuer.statusCode).toBe(200);
    expect(articleSchema.parse(otherIssuer.json()).currency).toBe('EUR');

    // demo-other cannot tie an article to Demo Bygg AB's recipient.
    const demoRecipient = recipientSchema.parse(
      (await t.call(who.demo, 'POST', '/api/limited/recipients', VALID_RECIPIENT_BODY)).json(),
    );
    const foreign = await t.call(who.other, 'POST', '/api/limited/articles', {
      ...VALID_ARTICLE_BODY,
      articleNumber: 'X-1',
      vatBasisPoints: 2550,
      recipientID: demoRecipient.recipientID,
    });
    expect(foreign.statusCode).toBe(404);

    const tied = await t.call(who.demo, 'PUT', `/api/limited/articles/${article.articleID}`, {
      ...VALID_ARTICLE_BODY,
      recipientID: demoRecipient.recipientID,
    });
    expect(articleSchema.parse(tied.json()).recipientName).toBe(VALID_RECIPIENT_BODY.name);
    // A recipient an article uses cannot be deleted.
    const inUse = await t.call(who.demo, 'DELETE', `/api/limited/recipients/${demoRecipient.recipientID}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().code).toBe('recipient.in_use');

    const list = listArticlesResponseSchema.parse(
      (await t.call(who.demo, 'GET', '/api/limited/articles?search=zyxt')).json(),
    );
    expect(list.items.map((a) => a.articleNumber)).toEqual(['T-100']);
    expect((await t.call(who.demo, 'DELETE', `/api/limited/articles/${article.articleID}`)).statusCode).toBe(
      200,
    );
    expect(await t.db.select().from(articles).where(eq(articles.id, article.articleID))).toHaveLength(0);
  });

  it('articles need limited_invoices or limited_transfercosts; recipients need no ability', async () => {
    expect((await t.call(who.limited, 'GET', '/api/limited/articles')).statusCode).toBe(200);
    expect((await t.call(who.limited, 'GET', '/api/limited/recipients')).statusCode).toBe(200);
  });

  it('another issuer gets 404 on every recipient and article of Demo Bygg AB and sees none in lists', async () => {
    const r = recipientSchema.parse(
      (
        await t.call(who.demo, 'POST', '/api/limited/recipients', {
          ...VALID_RECIPIENT_BODY,
          name: 'Hemlig Kund AB',
        })
      ).json(),
    );
    const a = articleSchema.parse(
      (
        await t.call(who.demo, 'POST', '/api/limited/articles', {
          ...VALID_ARTICLE_BODY,
          articleNumber: 'HEMLIG',
        })
      ).json(),
    );
    for (const [method, url, payload] of [
      ['GET', `/api/limited/recipients/${r.recipientID}`],
      ['PUT', `/api/limited/recipients/${r.recipientID}`, VALID_RECIPIENT_BODY],
      ['DELETE', `/api/limited/recipients/${r.recipientID}`],
      ['GET', `/api/limited/articles/${a.articleID}`],
      ['PUT', `/api/limited/articles/${a.articleID}`, { ...VALID_ARTICLE_BODY, vatBasisPoints: 2550 }],
      ['DELETE', `/api/limited/articles/${a.articleID}`],
    ] as const) {
      const res = await t.call(who.other, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const lists = [
      (await t.call(who.other, 'GET', '/api/limited/recipients?pageSize=100')).body,
      (await t.call(who.other, 'GET', '/api/limited/articles?pageSize=100')).body,
    ];
    for (const body of lists) {
      expect(body).not.toContain('Hemlig');
      expect(body).not.toContain('HEMLIG');
    }
    const [still] = await t.db.select().from(recipients).where(eq(recipients.id, r.recipientID));
    expect(still?.name).toBe('Hemlig Kund AB');
  });

  it('company search finds by name or number and refuses a search that matches too many', async () => {
    await t.db.insert(companies).values(
      Array.from({ length: 25 }, (_, i) => ({
        organizationNumber: `55900${String(i).padStart(2, '0')}-000${i % 10}`,
        name: `Sökbar Firma ${i} AB`,
        address: 'Gatan 1',
        zipcode: '111 11',
        city: 'Stockholm',
        country: 'SE',
      })),
    );
    const one = await t.call(
      who.demo,
      'GET',
      `/api/limited/companies?query=${encodeURIComponent('Firma 12 AB')}`,
    );
    expect(one.statusCode).toBe(200);
    expect(one.json().items.map((c: { name: string }) => c.name)).toEqual(['Sökbar Firma 12 AB']);
    const byNumber = await t.call(who.demo, 'GET', '/api/limited/companies?query=5590003');
    expect(byNumber.json().items).toHaveLength(1);
    const many = await t.call(
      who.demo,
      'GET',
      `/api/limited/companies?query=${encodeURIComponent('Sökbar')}`,
    );
    expect(many.statusCode).toBe(422);
    expect(many.json().code).toBe('company.too_many_results');
  });
});
