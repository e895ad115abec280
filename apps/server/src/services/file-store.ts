import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { fileBlobs } from '../db/schema';

/**
 * Where uploaded file bytes live. Keys are server-made (a uuid), never a user's file name. An object
 * store (S3 and the like) fits behind the same two calls.
 */
export interface FileStore {
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  /**
   * The same store read and written through `db`, when the store is the database: a transaction
   * reads its files through itself (on the embedded database, a second connection would wait for
   * the transaction to end, for ever).
   */
  through?(db: Db | Tx): FileStore;
}

/** Embedded mode: a folder under DATA_DIR, written through a temporary file and a rename. */
export function folderFileStore(dir: string): FileStore {
  const path = (key: string) => {
    if (!/^[0-9a-f-]{36}$/.test(key)) throw new Error('invalid file key');
    return join(dir, key.slice(0, 2), key);
  };
  return {
    async put(key, data) {
      const target = path(key);
      await mkdir(join(dir, key.slice(0, 2)), { recursive: true });
      await writeFile(`${target}.tmp`, data);
      await rename(`${target}.tmp`, target);
    },
    async get(key) {
      try {
        return await readFile(path(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
  };
}

/** The app's file store: the one its context was given (a folder in embedded mode), else the database. */
export function fileStoreOf(ctx: { db: Db; files?: FileStore }): FileStore {
  return ctx.files ?? databaseFileStore(ctx.db);
}

/** With DATABASE_URL: the database itself, so every server behind the load balancer sees every file. */
export function databaseFileStore(db: Db | Tx): FileStore {
  return {
    through: (other) => databaseFileStore(other),
    async put(key, data) {
      await db.insert(fileBlobs).values({ key, data }).onConflictDoNothing();
    },
    async get(key) {
      const [row] = await db.select().from(fileBlobs).where(eq(fileBlobs.key, key));
      return row ? row.data : null;
    },
  };
}
