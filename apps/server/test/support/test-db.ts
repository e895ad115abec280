import { Blob as NodeBlob } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { type Db, openEmbedded, openPostgres } from '../../src/db/client';
import { migrate } from '../../src/db/migrate';
import { embeddedTemplate, postgresTemplate, type TemplateKind } from './seeded-template';

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
 * otherwise PGlite in memory. `close()` ends the connection and drops the PostgreSQL database. It is a
 * copy of a template migrated once per version of the code (seeded-template.ts), as createPreparedTestDb's
 * are; the migrations themselves are run on a new database by database.test.ts.
 */
export function createTestDb(): Promise<TestDb> {
  return copyOfTemplate('migrated', async () => {});
}

/**
 * A database holding what `prepare` writes into a freshly migrated one, for a `prepare` that writes the
 * same every time (the demo seed at the tests' fixed clock and key). It is run once per version of the
 * code (seeded-template.ts); each call gets its own copy: a PGlite loaded from the archive, or a
 * PostgreSQL database created from the template.
 */
export function createPreparedTestDb(prepare: (db: Db) => Promise<void>): Promise<TestDb> {
  return copyOfTemplate('seed', prepare);
}

/**
 * The template of the `kind`, a database migrated and then given to `prepare`, built now when this
 * version of the code has none yet: the name of the PostgreSQL template database, or PGlite's archive.
 */
function template(kind: TemplateKind, prepare: (db: Db) => Promise<void>): Promise<string | Uint8Array> {
  if (TEST_DATABASE_URL) {
    return postgresTemplate(
      TEST_DATABASE_URL,
      async (url) => {
        const database = await openPostgres(url, 2);
        try {
          await migrate(database.db);
          await prepare(database.db);
        } finally {
          await database.close();
        }
      },
      kind,
    );
  }
  return embeddedTemplate(async () => {
    const built = await openEmbedded(undefined);
    try {
      await migrate(built.db);
      await prepare(built.db);
      if (!built.dump) throw new Error('the embedded database cannot be dumped');
      return new Uint8Array(await (await built.dump()).arrayBuffer());
    } finally {
      await built.close();
    }
  }, kind);
}

/** Builds the templates of createTestDb and createPreparedTestDb(prepare) when they are missing. */
export async function prepareTemplates(prepare: (db: Db) => Promise<void>): Promise<void> {
  await template('seed', prepare);
  await template('migrated', async () => {});
}

/** A copy of the template of the `kind`. */
async function copyOfTemplate(kind: TemplateKind, prepare: (db: Db) => Promise<void>): Promise<TestDb> {
  const source = await template(kind, prepare);
  if (typeof source === 'string') {
    const baseUrl = TEST_DATABASE_URL ?? '';
    const name = `portal_test_${randomBytes(6).toString('hex')}`;
    const admin = adminClient(baseUrl);
    try {
      // Copies at once from the same template can meet "being accessed by other users": try again.
      for (let attempt = 0; ; attempt++) {
        try {
          await admin.unsafe(`create database "${name}" template "${source}"`);
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
  // Node's Blob, not the environment's: under jsdom the global Blob cannot be read by PGlite.
  const database = await openEmbedded(undefined, { from: new NodeBlob([source]) as unknown as Blob });
  return { db: database.db, kind: 'embedded', close: () => database.close() };
}
