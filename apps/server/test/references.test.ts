import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client';
import { rows } from '../src/db/migrate';
import { createEmptyPostgresDatabase, createTestDb, TEST_DATABASE_URL, type TestDb } from './support/test-db';

/**
 * The references of postings, payments and invoice_events are checked per statement by triggers
 * (migration 0015), not by foreign keys. These are the guarantees of the foreign keys they replaced.
 */

let testDb: TestDb;
let db: Db;
const issuer = randomUUID();
const invoice = randomUUID();
const bare = randomUUID();
const file = randomUUID();

async function addInvoice(id: string, number: string): Promise<void> {
  await db.execute(sql`insert into invoices (id, issuer_id, recipient_id, invoice_number, service, state, currency,
      invoice_date, due_date, ocr, net_minor, vat_minor, gross_minor, deduction_minor, to_pay_minor, remaining_minor, vat_lines)
    select ${id}::uuid, ${issuer}::uuid, r.id, ${number}, 'factoring', 2, 'SEK', '2026-11-01', '2026-12-01', null,
      8000, 2000, 10000, 0, 10000, 10000, '[]'::jsonb
    from recipients r where r.issuer_id = ${issuer}::uuid limit 1`);
}

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  await db.execute(sql`insert into issuers (id, name, email, organization_no, vat, telephone, address1, city, zipcode, country)
    values (${issuer}::uuid, 'Referens AB', 'ref@example.com', '556677-8899', 'SE556677889901', '08-1', 'Gatan 1', 'Stockholm', '111 22', 'SE')`);
  await db.execute(sql`insert into recipients (id, issuer_id, name, zipcode, city, email)
    values (${randomUUID()}::uuid, ${issuer}::uuid, 'Kund AB', '111 22', 'Stockholm', 'kund@example.com')`);
  await addInvoice(invoice, 'REF-1');
  await addInvoice(bare, 'REF-2');
  await db.execute(sql`insert into payment_files (id, sha256, filename, written_at, test_mark, payment_count,
      registered_count, matched_count, unmatched_count)
    values (${file}::uuid, ${'a'.repeat(64)}, 'ref.bgmax', '20261124000000000000', 'P', 0, 0, 0, 0)`);
}, 60_000);
afterAll(() => testDb.close());

/** The SQLSTATE of what `run` throws (drivers wrap the database error in different ways). */
async function sqlState(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run();
  } catch (error) {
    const e = error as { code?: string; cause?: { code?: string } };
    return e.code ?? e.cause?.code;
  }
  return undefined;
}

const posting = (invoiceId: string | null, issuerId: string | null = issuer) =>
  sql`insert into postings (journal_id, issuer_id, invoice_id, account, amount_minor, currency, kind)
      select ${randomUUID()}::uuid, ${issuerId}::uuid, ${invoiceId}::uuid, a, s * 100, 'SEK', 'payment'
      from (values ('bank', 1), ('receivable', -1)) v(a, s)`;

const event = (invoiceId: string, issuerId = issuer) =>
  sql`insert into invoice_events (invoice_id, issuer_id, event) values (${invoiceId}::uuid, ${issuerId}::uuid, 2)`;

const payment = (over: { fileId?: string; issuerId?: string | null; invoiceId?: string | null } = {}) =>
  sql`insert into payments (file_id, dedupe_key, receiving_bankgiro, issuer_id, invoice_id, status, reference,
        amount_minor, currency, payment_date, channel, bgc_serial)
      values (${over.fileId ?? file}::uuid, ${randomUUID()}, '5050109', ${over.issuerId === undefined ? issuer : over.issuerId}::uuid,
        ${over.invoiceId === undefined ? invoice : over.invoiceId}::uuid, 'matched', '1234', 100, 'SEK', '2026-11-24', 1, '1')`;

async function count(table: string): Promise<number> {
  return (
    rows<{ n: number }>(await db.execute(sql.raw(`select count(*)::int as n from ${table}`)))[0]?.n ?? -1
  );
}

describe('references of postings, payments and invoice events', () => {
  it('take rows whose keys exist, and rows without an optional key', async () => {
    await db.execute(posting(invoice));
    await db.execute(posting(null));
    await db.execute(posting(null, null));
    await db.execute(event(invoice));
    await db.execute(payment());
    await db.execute(payment({ issuerId: null, invoiceId: null }));
  });

  it('refuse a new row whose invoice, issuer or file does not exist, and write nothing of its statement', async () => {
    const before = [await count('postings'), await count('payments'), await count('invoice_events')];
    const nobody = randomUUID();
    expect(await sqlState(() => db.execute(posting(nobody)))).toBe('23503');
    expect(await sqlState(() => db.execute(posting(invoice, nobody)))).toBe('23503');
    expect(await sqlState(() => db.execute(event(nobody)))).toBe('23503');
    expect(await sqlState(() => db.execute(event(invoice, nobody)))).toBe('23503');
    expect(await sqlState(() => db.execute(payment({ fileId: nobody })))).toBe('23503');
    expect(await sqlState(() => db.execute(payment({ issuerId: nobody })))).toBe('23503');
    expect(await sqlState(() => db.execute(payment({ invoiceId: nobody })))).toBe('23503');
    // One bad key among many good ones refuses the whole statement.
    const many = sql`insert into invoice_events (invoice_id, issuer_id, event)
      select case when g = 500 then ${nobody}::uuid else ${invoice}::uuid end, ${issuer}::uuid, 2
      from generate_series(1, 1000) g`;
    expect(await sqlState(() => db.execute(many))).toBe('23503');
    expect([await count('postings'), await count('payments'), await count('invoice_events')]).toEqual(before);
  });

  it('refuse an update that points a row at a missing invoice, and take one that points at an existing one', async () => {
    const [p] = rows<{ id: string }>(
      await db.execute(sql`select id from payments where invoice_id is null and issuer_id is null limit 1`),
    );
    expect(
      await sqlState(() =>
        db.execute(sql`update payments set invoice_id = ${randomUUID()}::uuid where id = ${p?.id}::uuid`),
      ),
    ).toBe('23503');
    await db.execute(
      sql`update payments set invoice_id = ${bare}::uuid, issuer_id = ${issuer}::uuid where id = ${p?.id}::uuid`,
    );
    expect(
      await sqlState(() =>
        db.execute(
          sql`update postings set invoice_id = ${randomUUID()}::uuid where invoice_id = ${invoice}::uuid`,
        ),
      ),
    ).toBe('23503');
    // Updates that leave the keys alone are not checked again (and pass).
    await db.execute(sql`update postings set settlement_id = null where invoice_id = ${invoice}::uuid`);
  });

  it('refuse deleting an invoice, issuer or file still referenced; an invoice’s events go with it', async () => {
    expect(await sqlState(() => db.execute(sql`delete from invoices where id = ${invoice}::uuid`))).toBe(
      '23503',
    );
    expect(await sqlState(() => db.execute(sql`delete from issuers where id = ${issuer}::uuid`))).toBe(
      '23503',
    );
    expect(await sqlState(() => db.execute(sql`delete from payment_files where id = ${file}::uuid`))).toBe(
      '23503',
    );
    const lonely = randomUUID();
    await addInvoice(lonely, 'REF-3');
    await db.execute(event(lonely));
    await db.execute(event(lonely));
    await db.execute(sql`delete from invoices where id = ${lonely}::uuid`);
    expect(
      rows<{ n: number }>(
        await db.execute(
          sql`select count(*)::int as n from invoice_events where invoice_id = ${lonely}::uuid`,
        ),
      )[0]?.n,
    ).toBe(0);
  });

  it('refuse changing a referenced id and truncating a parent without its children', async () => {
    expect(
      await sqlState(() =>
        db.execute(sql`update invoices set id = ${randomUUID()}::uuid where id = ${invoice}::uuid`),
      ),
    ).toBe('23503');
    expect(
      await sqlState(() =>
        db.execute(sql`update issuers set id = ${randomUUID()}::uuid where id = ${issuer}::uuid`),
      ),
    ).toBe('23503');
    expect(await sqlState(() => db.execute(sql`truncate payment_files cascade`))).toBe('0A000');
    expect(await count('payments')).toBeGreaterThan(0);
  });
});

describe.skipIf(!TEST_DATABASE_URL)('references under concurrency (PostgreSQL)', () => {
  it('a new posting locks its invoice: a delete waits for it and is then refused', async () => {
    const created = await createEmptyPostgresDatabase(TEST_DATABASE_URL ?? '');
    const { openPostgres } = await import('../src/db/client');
    const { migrate } = await import('../src/db/migrate');
    const setup = await openPostgres(created.url, 1);
    await migrate(setup.db);
    await setup.close();
    const a = postgres(created.url, { max: 1, onnotice: () => {} });
    const b = postgres(created.url, { max: 1, onnotice: () => {} });
    try {
      const id = randomUUID();
      const iss = randomUUID();
      await a`insert into issuers (id, name, email, organization_no, vat, telephone, address1, city, zipcode, country)
        values (${iss}, 'Lås AB', 'las@example.com', '556677-0000', 'SE556677000001', '08-1', 'Gatan 1', 'Stockholm', '111 22', 'SE')`;
      await a`insert into recipients (id, issuer_id, name, zipcode, city, email)
        values (${randomUUID()}, ${iss}, 'Kund AB', '111 22', 'Stockholm', 'kund@example.com')`;
      await a`insert into invoices (id, issuer_id, recipient_id, invoice_number, service, state, currency, invoice_date,
          due_date, net_minor, vat_minor, gross_minor, deduction_minor, to_pay_minor, remaining_minor, vat_lines)
        select ${id}, ${iss}, r.id, 'L-1', 'factoring', 2, 'SEK', '2026-11-01', '2026-12-01', 8000, 2000, 10000, 0, 10000, 10000, '[]'
        from recipients r where r.issuer_id = ${iss}`;
      await a`begin`;
      await a`insert into postings (journal_id, issuer_id, invoice_id, account, amount_minor, currency, kind)
        values (${randomUUID()}, ${iss}, ${id}, 'receivable', 0, 'SEK', 'payment')`;
      // While the posting is not committed, the invoice is locked: the delete cannot go through.
      await b`set lock_timeout = '300ms'`;
      const blocked = await b`delete from invoices where id = ${id}`.then(
        () => 'deleted',
        (e: { code?: string }) => e.code,
      );
      expect(blocked).toBe('55P03');
      await a`commit`;
      const refused = await b`delete from invoices where id = ${id}`.then(
        () => 'deleted',
        (e: { code?: string }) => e.code,
      );
      expect(refused).toBe('23503');
    } finally {
      await a.end();
      await b.end();
      await created.drop();
    }
  });
});
