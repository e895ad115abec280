import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrayLiteral, BULK_CHUNK, bulkInsert, executePrepared } from '../src/db/bulk';
import { rows } from '../src/db/migrate';
import { createTestDb, type TestDb } from './support/test-db';

let testDb: TestDb;
beforeAll(async () => {
  testDb = await createTestDb();
  await testDb.db.execute(sql`drop table if exists bulk_probe`);
  await testDb.db.execute(sql`create table bulk_probe (
    k int primary key, t text, u uuid, n bigint, d date, at timestamptz, j jsonb, b boolean)`);
});
afterAll(async () => {
  await testDb.db.execute(sql`drop table if exists bulk_probe`);
  await testDb.close();
});

const COLUMNS = {
  k: 'int',
  t: 'text',
  u: 'uuid',
  n: 'bigint',
  d: 'date',
  at: 'timestamptz',
  j: 'jsonb',
  b: 'boolean',
} as const;

interface Probe {
  k: number;
  t: string | null;
  u: string | null;
  n: number | null;
  d: string | null;
  at: string | null;
  j: unknown;
  b: boolean | null;
}

async function readBack(): Promise<Probe[]> {
  return rows<Probe>(
    await testDb.db.execute(sql`select k, t, u::text as u, n::text as n, d::text as d,
      to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, j, b
      from bulk_probe order by k`),
  ).map((r) => ({
    ...r,
    n: r.n === null ? null : Number(r.n),
    j: typeof r.j === 'string' ? JSON.parse(r.j) : r.j,
  }));
}

describe('bulkInsert (one array parameter per column, unzipped by unnest)', () => {
  it('writes every text exactly: quotes, backslashes, braces, commas, NULL as a word, empty, newlines', async () => {
    await testDb.db.execute(sql`delete from bulk_probe`);
    const texts = [
      '"',
      '\\',
      '\\"',
      '{a,b}',
      'a, b',
      'NULL',
      'null',
      '',
      ' lead',
      'tail ',
      'rad1\r\nrad2\t',
      'Åäö €',
      '=1+1',
    ];
    const written: Probe[] = texts.map((t, k) => ({
      k,
      t,
      u: k % 2 ? '6f1c1f4e-8b3a-4c1d-9e2f-0a1b2c3d4e5f' : null,
      n: k % 3 ? -9_007_199_254_740_991 + k : null,
      d: k % 2 ? '2026-11-24' : null,
      at: k % 2 ? '2026-11-24T23:59:59.123Z' : null,
      j: k % 2 ? { name: t, amountMinor: k, nested: { list: [t, null] } } : null,
      b: k % 3 === 0 ? null : k % 3 === 1,
    }));
    await bulkInsert(testDb.db, 'bulk_probe', COLUMNS, written as unknown as Record<string, unknown>[]);
    expect(await readBack()).toEqual(written);
  });

  it('writes any strings and any safe integers exactly, over more than one chunk', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.string({ unit: 'binary' }), fc.maxSafeInteger()), { maxLength: 40 }),
        async (values) => {
          await testDb.db.execute(sql`delete from bulk_probe`);
          // PostgreSQL text cannot hold NUL; a file never gives one (the BGMAX reader refuses it).
          const written = values.map(([t, n], k) => ({ k, t: t.replaceAll('\u0000', ''), n }));
          await bulkInsert(testDb.db, 'bulk_probe', { k: 'int', t: 'text', n: 'bigint' }, written);
          const back = await readBack();
          expect(back.map(({ k, t, n }) => ({ k, t, n }))).toEqual(written);
        },
      ),
      { numRuns: 30 },
    );
    await testDb.db.execute(sql`delete from bulk_probe`);
    const many = Array.from({ length: BULK_CHUNK + 7 }, (_, k) => ({ k, t: `rad ${k}` }));
    await bulkInsert(testDb.db, 'bulk_probe', { k: 'int', t: 'text' }, many);
    const [count] = rows<{ n: number }>(
      await testDb.db.execute(sql`select count(*)::int as n from bulk_probe`),
    );
    expect(count?.n).toBe(BULK_CHUNK + 7);
  });

  it('sends a column with one value in every row once, and writes it into every row', async () => {
    await testDb.db.execute(sql`delete from bulk_probe`);
    const at = '2026-11-24T23:59:59.123Z';
    const same = Array.from({ length: 5 }, (_, k) => ({
      k,
      t: 'lika "för" alla\\',
      u: null,
      n: k * 7,
      d: '2026-11-24',
      at,
      j: { k },
      b: true,
    }));
    await bulkInsert(testDb.db, 'bulk_probe', COLUMNS, same);
    expect(await readBack()).toEqual(same);
    // Every column the same (here one row), and a Date as the value.
    await testDb.db.execute(sql`delete from bulk_probe`);
    await bulkInsert(testDb.db, 'bulk_probe', { k: 'int', t: 'text', at: 'timestamptz' }, [
      { k: 9, t: 'ensam', at: new Date(at) },
    ]);
    expect((await readBack()).map(({ k, t, at }) => ({ k, t, at }))).toEqual([{ k: 9, t: 'ensam', at }]);
    // A true or false the same in every row stays itself (postgres.js would write any string as false),
    // in a small statement and in one big enough to be prepared.
    for (const n of [2, 1_000])
      for (const b of [true, false]) {
        await testDb.db.execute(sql`delete from bulk_probe`);
        const same = Array.from({ length: n }, (_, k) => ({ k, b, d: '2026-03-29' }));
        await bulkInsert(testDb.db, 'bulk_probe', { k: 'int', b: 'boolean', d: 'date' }, same);
        expect((await readBack()).map(({ k, b, d }) => ({ k, b, d }))).toEqual(same);
      }
  });

  it('builds the array literal PostgreSQL reads', () => {
    expect(arrayLiteral([1, null, 'a"b', 'c\\d', undefined, { x: '"' }])).toBe(
      '{1,NULL,"a\\"b","c\\\\d",NULL,"{\\"x\\":\\"\\\\\\"\\"}"}',
    );
  });
});

describe('executePrepared (statements issued together travel together)', () => {
  it('runs statements issued at once in the order issued, the same text again with other values', async () => {
    await testDb.db.execute(sql`delete from bulk_probe`);
    await testDb.db.transaction(async (tx) => {
      const insert = (k: number, t: string | null) =>
        executePrepared(tx, sql`insert into bulk_probe (k, t) values (${k}::int, ${t}::text)`);
      await Promise.all([
        insert(1, 'ett'),
        insert(2, null),
        executePrepared(tx, sql`update bulk_probe set t = t || ${' och två'}::text where k = ${1}::int`),
        insert(3, 'tre'),
        executePrepared(tx, sql`delete from bulk_probe where k = ${3}::int`),
      ]);
    });
    expect((await readBack()).map(({ k, t }) => ({ k, t }))).toEqual([
      { k: 1, t: 'ett och två' },
      { k: 2, t: null },
    ]);
  });

  it('rolls back all of them when one issued among others is refused, and the database goes on', async () => {
    await testDb.db.execute(sql`delete from bulk_probe`);
    const insert = (tx: Parameters<Parameters<typeof testDb.db.transaction>[0]>[0], k: number) =>
      executePrepared(tx, sql`insert into bulk_probe (k, t) values (${k}::int, ${'x'}::text)`);
    await expect(
      testDb.db.transaction(async (tx) => {
        await Promise.all([insert(tx, 1), insert(tx, 2), insert(tx, 1), insert(tx, 3)]);
      }),
    ).rejects.toThrow();
    expect(await readBack()).toEqual([]);
    // The same statement afterwards, on whatever connection: nothing is left half-sent.
    await testDb.db.transaction(async (tx) => {
      await Promise.all([insert(tx, 4), insert(tx, 5)]);
    });
    expect((await readBack()).map(({ k }) => k)).toEqual([4, 5]);
  });
});
