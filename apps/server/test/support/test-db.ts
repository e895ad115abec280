import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { type Db, openEmbedded, openPostgres } from '../../src/db/client';
import { migrate } from '../../src/db/migrate';

export interface TestDb {
  db: Db;
  kind: 'embedded' | 'postgres';
  close(): Promise<void>;
}

/** The PostgreSQL server of the second test run, or undefined for the embedded run. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

function adminClient(url: string) {
  return postgres(url, { max: 1, onnotice: () => {} });
}

/**
 * A new, empty PostgreSQL database on the TEST_DATABASE_URL server: its URL and a function that drops
 * it (ending every connection still open on it).
 */
export async function createEmptyPostgresDatabase(
  baseUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  const admin = adminClient(baseUrl);
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const sql = adminClient(baseUrl);
      try {
        await sql.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await sql.end({ timeout: 5 });
      }
    },
  };
}

/**
 * A migrated, empty database for one test: a fresh PostgreSQL database when TEST_DATABASE_URL is set,
 * otherwise PGlite in memory. `close()` ends the connection and drops the PostgreSQL database.
 */
export async function createTestDb(): Promise<TestDb> {
  if (TEST_DATABASE_URL) {
    const created = await createEmptyPostgresDatabase(TEST_DATABASE_URL);
    try {
      const database = await openPostgres(created.url, 5);
      try {
        await migrate(database.db);
      } catch (err) {
        await database.close();
        throw err;
      }
      return {
        db: database.db,
        kind: 'postgres',
        close: async () => {
          await database.close();
          await created.drop();
        },
      };
    } catch (err) {
      await created.drop();
      throw err;
    }
  }
  const database = await openEmbedded(undefined);
  await migrate(database.db);
  return { db: database.db, kind: 'embedded', close: () => database.close() };
}
