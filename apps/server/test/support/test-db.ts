import { Blob as NodeBlob } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { type Db, openEmbedded, openPostgres } from '../../src/db/client';
import { migrate } from '../../src/db/migrate';
import { embeddedTemplate, postgresTemplate } from './seeded-template';

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

/**
 * A database holding what `prepare` writes into a freshly migrated one, for a `prepare` that writes the
 * same every time (the demo seed at the tests' fixed clock and key). It is run once per version of the
 * code (seeded-template.ts); each call gets its own copy: a PGlite loaded from the archive, or a
 * PostgreSQL database created from the template.
 */
export async function createPreparedTestDb(prepare: (db: Db) => Promise<void>): Promise<TestDb> {
  if (TEST_DATABASE_URL) {
    const baseUrl = TEST_DATABASE_URL;
    const template = await postgresTemplate(baseUrl, async (url) => {
      const database = await openPostgres(url, 2);
      try {
        await migrate(database.db);
        await prepare(database.db);
      } finally {
        await database.close();
      }
    });
    const name = `portal_test_${randomBytes(6).toString('hex')}`;
    const admin = adminClient(baseUrl);
    try {
      // Copies at once from the same template can meet "being accessed by other users": try again.
      for (let attempt = 0; ; attempt++) {
        try {
          await admin.unsafe(`create database "${name}" template "${template}"`);
          break;
        } catch (err) {
          if (attempt >= 20 || !/being accessed by other users/.test(String(err))) throw err;
          await new Promise((resolve) => setTimeout(resolve, 100 + attempt * 50));
        }
      }
    } finally {
      await admin.end({ timeout: 5 });
    }
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    const drop = async () => {
      const sql = adminClient(baseUrl);
      try {
        await sql.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await sql.end({ timeout: 5 });
      }
    };
    try {
      const database = await openPostgres(url.toString(), 5);
      return {
        db: database.db,
        kind: 'postgres',
        close: async () => {
          await database.close();
          await drop();
        },
      };
    } catch (err) {
      await drop();
      throw err;
    }
  }
  const archive = await embeddedTemplate(async () => {
    const built = await openEmbedded(undefined);
    try {
      await migrate(built.db);
      await prepare(built.db);
      if (!built.dump) throw new Error('the embedded database cannot be dumped');
      return new Uint8Array(await (await built.dump()).arrayBuffer());
    } finally {
      await built.close();
    }
  });
  // Node's Blob, not the environment's: under jsdom the global Blob cannot be read by PGlite.
  const database = await openEmbedded(undefined, { from: new NodeBlob([archive]) as unknown as Blob });
  return { db: database.db, kind: 'embedded', close: () => database.close() };
}
