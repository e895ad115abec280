import { INVOICE_SORT_FIELDS, type InvoiceSummary, listInvoicesResponseSchema } from '@portal/contracts';
import { addDays } from '@portal/domain/calendar-date';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../test/support/test-app';
import { useLogins, useTestApp } from '../../../test/support/use-test-app';
import { rows } from '../../db/migrate';
import { invoices, recipients, users } from '../../db/schema';

/**
 * Paging of the invoice list (issue #15, docs/INVOICES.md "The list at scale"): pages by number, pages
 * read backwards from the end (past the middle), and pages by the previous and next page's cursor
 * (keyset) list the same invoices in the same order, each once, for every sort and order. The data
 * has many ties on every sorted field, so the id that breaks them matters.
 */

const PAGE = 7;
const COUNT = 61;
const t = useTestApp();
const who = useLogins(t, { token: 'demo-unverified' });

type Body = ReturnType<typeof listInvoicesResponseSchema.parse>;

async function list(query: string, token = who.token): Promise<Body> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/limited/invoices?${query}`,
    headers: bearer(token),
  });
  expect(res.statusCode, res.body).toBe(200);
  return listInvoicesResponseSchema.parse(res.json());
}

const ids = (items: InvoiceSummary[]) => items.map((i) => i.invoiceID);

/** The issuer of a user of the demo data. */
async function issuerOf(username: string): Promise<string> {
  const [user] = await t.db.select().from(users).where(eq(users.username, username));
  if (!user?.issuerId) throw new Error(`no issuer for ${username}`);
  return user.issuerId;
}

/** New recipients of the issuer by these names, in order: their ids. */
async function addRecipients(issuerId: string, names: readonly string[]): Promise<string[]> {
  const made = await t.db
    .insert(recipients)
    .values(names.map((name) => ({ issuerId, name, zipcode: '11122', city: 'Stockholm', email: 'a@b.se' })))
    .returning({ id: recipients.id });
  return made.map((r) => r.id);
}

beforeAll(async () => {
  const issuerId = await issuerOf('demo-unverified');
  const made = await addRecipients(issuerId, ['Alfa AB', 'Beta AB', 'Gamma AB']);
  const base = '2026-02-01';
  await t.db.insert(invoices).values(
    Array.from({ length: COUNT }, (_, n) => {
      const gross = 10_000 + (n % 4) * 500;
      return {
        issuerId,
        recipientId: made[n % 3] ?? '',
        invoiceNumber: `P-${String(n % 20).padStart(2, '0')}-${n}`,
        service: 'factoring',
        state: 2,
        currency: 'SEK',
        // Five invoices share each date, four share each amount, three share a created instant.
        invoiceDate: addDays(base, Math.floor(n / 5)),
        dueDate: addDays(base, 30 + Math.floor(n / 6)),
        netMinor: gross,
        vatMinor: 0,
        grossMinor: gross,
        toPayMinor: gross,
        remainingMinor: gross,
        vatLines: [],
        createdAt: new Date(Date.UTC(2026, 1, 1, 8, 0, Math.floor(n / 3), 123)),
      };
    }),
  );
});

describe('invoice list pages', () => {
  for (const sort of INVOICE_SORT_FIELDS)
    for (const order of ['asc', 'desc'] as const)
      it(`sort=${sort}&order=${order}: by number, backwards from the end and by cursor, the same pages`, async () => {
        const q = `sort=${sort}&order=${order}&pageSize=${PAGE}`;
        const all = await list(`sort=${sort}&order=${order}&pageSize=100`);
        expect(all.total).toBe(COUNT);
        expect(all.items).toHaveLength(COUNT);
        expect(new Set(ids(all.items)).size).toBe(COUNT);
        // The order: by the sorted field, then by id in the same direction (uuids compare as their
        // text does). Text fields are left out: their order is the database's collation.
        const field = {
          invoiceDate: 'invoiceDate',
          dueDate: 'dueDate',
          grossMinor: 'grossMinor',
          created: 'created',
        }[sort as string] as keyof InvoiceSummary | undefined;
        if (field) {
          const sign = order === 'asc' ? 1 : -1;
          const expected = [...all.items].sort((a, b) => {
            const [x, y] = [a[field], b[field]] as [string | number, string | number];
            if (x !== y) return x < y ? -sign : sign;
            return a.invoiceID < b.invoiceID ? -sign : sign;
          });
          expect(ids(all.items)).toEqual(ids(expected));
        }
        const pages = Math.ceil(COUNT / PAGE);

        // By number: the pages past the middle are read from the end, the same slices.
        const byNumber: Body[] = [];
        for (let page = 1; page <= pages; page++) {
          const body = await list(`${q}&page=${page}`);
          expect(ids(body.items), `page ${page}`).toEqual(
            ids(all.items.slice((page - 1) * PAGE, page * PAGE)),
          );
          expect(body.total).toBe(COUNT);
          expect(body.totals).toEqual(all.totals);
          expect(body.prevCursor ?? null).toEqual(page === 1 ? null : expect.any(String));
          expect(body.nextCursor ?? null).toEqual(page === pages ? null : expect.any(String));
          byNumber.push(body);
        }
        expect((await list(`${q}&page=${pages + 1}`)).items).toEqual([]);

        // Forward by each page's next cursor, and back by each page's previous cursor.
        let body = byNumber[0] as Body;
        for (let page = 2; page <= pages; page++) {
          body = await list(`${q}&page=${page}&cursor=${body.nextCursor}`);
          expect(ids(body.items), `next to page ${page}`).toEqual(ids((byNumber[page - 1] as Body).items));
          expect(body.total).toBe(COUNT);
        }
        expect(body.nextCursor ?? null).toBeNull();
        for (let page = pages - 1; page >= 1; page--) {
          body = await list(`${q}&page=${page}&cursor=${body.prevCursor}`);
          expect(ids(body.items), `back to page ${page}`).toEqual(ids((byNumber[page - 1] as Body).items));
        }
        expect(body.prevCursor ?? null).toBeNull();
      });

  it('a cursor of another sort, or one not made by the server, is ignored: the page number counts (one that is not base64url is refused)', async () => {
    const byDate = await list('sort=invoiceDate&order=desc&pageSize=5&page=1');
    const third = await list('sort=dueDate&order=desc&pageSize=5&page=3');
    expect(
      ids((await list(`sort=dueDate&order=desc&pageSize=5&page=3&cursor=${byDate.nextCursor}`)).items),
    ).toEqual(ids(third.items));
    const forged = (key: string) =>
      Buffer.from(
        JSON.stringify(['dueDate', 'desc', 'a', key, '00000000-0000-4000-8000-000000000000']),
      ).toString('base64url');
    // Not base64url at all: refused like any malformed field.
    const refused = await t.app.inject({
      method: 'GET',
      url: `/api/limited/invoices?sort=dueDate&order=desc&pageSize=5&page=3&cursor=${encodeURIComponent('not-base64!')}`,
      headers: bearer(who.token),
    });
    expect(refused.statusCode).toBe(400);
    for (const cursor of ['e30', forged('2026-02-30'), forged("'; drop table invoices; --")]) {
      const got = await list(
        `sort=dueDate&order=desc&pageSize=5&page=3&cursor=${encodeURIComponent(cursor)}`,
      );
      expect(ids(got.items), cursor).toEqual(ids(third.items));
    }
    // A well-formed one of the same sort is a position: the invoices after that due date.
    const after = await list(`sort=dueDate&order=desc&pageSize=100&page=2&cursor=${forged('2026-03-05')}`);
    expect(after.items.length).toBeGreaterThan(0);
    for (const item of after.items) expect(item.dueDate < '2026-03-05').toBe(true);
  });
  it('a long list: the pages past 1,000 rows and the middle are read from the end, the same as by cursor', async () => {
    const other = await t.login('demo-other');
    const issuerId = await issuerOf('demo-other');
    const [recipient] = await addRecipients(issuerId, ['Lång AB']);
    const before = (
      await t.db.select({ id: invoices.id }).from(invoices).where(eq(invoices.issuerId, issuerId))
    ).length;
    const LONG = 1_160;
    await t.db.insert(invoices).values(
      Array.from({ length: LONG }, (_, n) => ({
        issuerId,
        recipientId: recipient ?? '',
        invoiceNumber: `L-${n}`,
        service: 'factoring',
        state: 2,
        currency: 'SEK',
        invoiceDate: addDays('2025-01-01', Math.floor(n / 7)),
        dueDate: addDays('2025-02-01', Math.floor(n / 7)),
        netMinor: 1_000,
        vatMinor: 0,
        grossMinor: 1_000,
        toPayMinor: 1_000,
        remainingMinor: 1_000,
        vatLines: [],
      })),
    );
    const get = (query: string) => list(`sort=invoiceDate&order=desc&pageSize=50&${query}`, other);
    const total = before + LONG;
    const pages = Math.ceil(total / 50);
    let body = await get('page=1');
    expect(body.total).toBe(total);
    const walked: string[][] = [ids(body.items)];
    for (let page = 2; page <= pages; page++) {
      body = await get(`page=${page}&cursor=${body.nextCursor}`);
      walked.push(ids(body.items));
    }
    expect(new Set(walked.flat()).size).toBe(total);
    // Past 1,000 rows from the start: the middle page is skipped to from the start, the rest from the end.
    for (const page of [Math.ceil(pages / 2), pages - 2, pages - 1, pages])
      expect(ids((await get(`page=${page}`)).items), `page ${page}`).toEqual(walked[page - 1]);
  });

  it('queries of one shape share a statement text and answer by their own values (db/prepared.ts)', async () => {
    // Each shape's text is built once with placeholders: a value must never stay behind in it.
    const byName = async (name: string) => list(`search=${name}&sort=invoiceDate&order=desc&pageSize=100`);
    for (const [name, count] of [
      ['Alfa', 21],
      ['Beta', 20],
      ['Gamma', 20],
      ['Delta', 0],
    ] as const) {
      const body = await byName(name);
      expect(body.total, name).toBe(count);
      expect(new Set(body.items.map((i) => i.recipientName)), name).toEqual(
        new Set(count ? [`${name} AB`] : []),
      );
    }
    const [alfa] = await t.db.select().from(recipients).where(eq(recipients.name, 'Alfa AB'));
    const [gamma] = await t.db.select().from(recipients).where(eq(recipients.name, 'Gamma AB'));
    const first = (await list(`recipientID=${alfa?.id}&pageSize=100`)).items.map((i) => i.recipientName);
    const second = (await list(`recipientID=${gamma?.id}&pageSize=100`)).items.map((i) => i.recipientName);
    expect([first.length, new Set(first)]).toEqual([21, new Set(['Alfa AB'])]);
    expect([second.length, new Set(second)]).toEqual([20, new Set(['Gamma AB'])]);
    // The same shape for another issuer: none of these invoices, only its own.
    const demo = await t.login('demo');
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/limited/invoices?search=Alfa&sort=invoiceDate&order=desc&pageSize=100',
      headers: bearer(demo),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(
      listInvoicesResponseSchema.parse(res.json()).items.filter((i) => i.invoiceNumber.startsWith('P-')),
    ).toEqual([]);
  });

  it('sorted by recipient name: the order of (name, id) as the database sorts it, two recipients of one name interleaved by id', async () => {
    const demo = await t.login('demo');
    const issuerId = await issuerOf('demo');
    // Two recipients of the same name, and one that sorts before every other: the page is taken from
    // each recipient's invoices by id, so invoices of the twins must still come in one order of ids.
    const made = await addRecipients(issuerId, ['Tvilling AB', 'Tvilling AB', 'AAA Först AB']);
    await t.db.insert(invoices).values(
      Array.from({ length: 45 }, (_, n) => ({
        issuerId,
        recipientId: made[n % 3] ?? '',
        invoiceNumber: `T-${n}`,
        service: 'factoring',
        state: n % 5 === 0 ? 4 : 2,
        currency: 'SEK',
        invoiceDate: '2026-02-10',
        dueDate: '2026-03-10',
        netMinor: 1_000,
        vatMinor: 0,
        grossMinor: 1_000,
        toPayMinor: 1_000,
        remainingMinor: 1_000,
        vatLines: [],
      })),
    );
    const get = (query: string) => list(`sort=recipientName&pageSize=10&${query}`, demo);
    for (const order of ['asc', 'desc'] as const)
      for (const filter of ['all', 'active'] as const) {
        const expected = rows<{ id: string }>(
          await t.db.execute(sql`select i.id from invoices i join recipients r on r.id = i.recipient_id
            where i.issuer_id = ${issuerId}
              and ${filter === 'all' ? sql`i.state not in (7, 11)` : sql`i.state in (2, 3)`}
            order by r.name ${order === 'asc' ? sql`asc` : sql`desc`}, i.id ${order === 'asc' ? sql`asc` : sql`desc`}`),
        ).map((r) => r.id);
        expect(expected.length).toBeGreaterThan(45);
        const pages = Math.ceil(expected.length / 10);
        // By cursor from the first page to the last, and each page by its number (the second half from the end).
        let body = await get(`order=${order}&filter=${filter}&page=1`);
        const walked = [ids(body.items)];
        for (let page = 2; page <= pages; page++) {
          body = await get(`order=${order}&filter=${filter}&page=${page}&cursor=${body.nextCursor}`);
          walked.push(ids(body.items));
        }
        expect(walked.flat(), `${order} ${filter} by cursor`).toEqual(expected);
        for (let page = 1; page <= pages; page++)
          expect(
            ids((await get(`order=${order}&filter=${filter}&page=${page}`)).items),
            `${order} ${filter} page ${page}`,
          ).toEqual(expected.slice((page - 1) * 10, page * 10));
      }
  });
});
