import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, openEmbedded, openPostgres } from '../src/db/client';
import { migrate, migrationsDir, rows } from '../src/db/migrate';
import { DEMO_PASSWORD } from '../src/db/seed/demo';
import { createTestApp, type TestApp } from './support/test-app';
import { createEmptyPostgresDatabase, createTestDb, TEST_DATABASE_URL } from './support/test-db';

const journal = JSON.parse(readFileSync(join(migrationsDir(), 'meta', '_journal.json'), 'utf8')) as {
  entries: { idx: number; tag: string }[];
};
const ALL_MIGRATIONS = [...journal.entries].sort((a, b) => a.idx - b.idx).map((e) => e.tag);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'portal-db-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('migrations', () => {
  it('leave the test database migrated (either kind), and migrating again changes nothing', async () => {
    const testDb = await createTestDb();
    cleanups.push(() => testDb.close());
    expect(testDb.kind).toBe(TEST_DATABASE_URL ? 'postgres' : 'embedded');
    expect(await migrate(testDb.db)).toEqual([]);
    const tables = rows<{ tablename: string }>(
      await testDb.db.execute(sql`select tablename from pg_tables where schemaname = 'public'`),
    ).map((r) => r.tablename);
    expect(tables).toEqual(expect.arrayContaining(['users', 'sessions', 'issuers', 'schema_migrations']));
  });

  it('apply every migration once, also when started three times at once; then they are a no-op', async () => {
    const database = await openEmbedded(undefined);
    cleanups.push(() => database.close());
    expect(ALL_MIGRATIONS.length).toBeGreaterThan(0);
    const results = await Promise.all([migrate(database.db), migrate(database.db), migrate(database.db)]);
    expect(results.filter((r) => r.length > 0)).toEqual([ALL_MIGRATIONS]);
    expect(results.filter((r) => r.length === 0)).toHaveLength(2);
    expect(await migrate(database.db)).toEqual([]);
    const applied = rows<{ name: string }>(
      await database.db.execute(sql`select name from schema_migrations order by name`),
    );
    expect(applied.map((r) => r.name)).toEqual([...ALL_MIGRATIONS].sort());
  });

  it.skipIf(!TEST_DATABASE_URL)(
    'run once when three servers start at once on one PostgreSQL database',
    async () => {
      const created = await createEmptyPostgresDatabase(TEST_DATABASE_URL ?? '');
      cleanups.push(() => created.drop());
      const servers = await Promise.all([1, 2, 3].map(() => openPostgres(created.url, 2)));
      cleanups.push(() => Promise.all(servers.map((s) => s.close())).then(() => undefined));
      const results = await Promise.all(servers.map((s) => migrate(s.db)));
      expect(results.filter((r) => r.length > 0)).toEqual([ALL_MIGRATIONS]);
      expect(results.filter((r) => r.length === 0)).toHaveLength(2);
      const check = await openPostgres(created.url, 1);
      cleanups.push(() => check.close());
      const applied = rows<{ n: number }>(
        await check.db.execute(sql`select count(*)::int as n from schema_migrations`),
      );
      expect(applied[0]?.n).toBe(ALL_MIGRATIONS.length);
    },
  );
});

describe('the lock of an embedded data folder', () => {
  const lockFile = (dir: string) => join(dir, 'portal.lock');

  it('refuses a folder locked by another live process', async () => {
    const dir = tempDir();
    const holder: ChildProcess = spawn('sleep', ['30'], { stdio: 'ignore' });
    cleanups.push(() => {
      holder.kill();
    });
    expect(holder.pid).toBeTypeOf('number');
    writeFileSync(lockFile(dir), String(holder.pid));
    const attempt = openEmbedded(dir);
    await expect(attempt).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(attempt).rejects.toThrow(`pid ${holder.pid}`);
    expect(readFileSync(lockFile(dir), 'utf8')).toBe(String(holder.pid));
  });

  it('takes over a lock left by a process that has ended', async () => {
    const dir = tempDir();
    const ended = spawnSync('true');
    expect(ended.pid).toBeGreaterThan(0);
    writeFileSync(lockFile(dir), String(ended.pid));
    const database = await openEmbedded(dir);
    try {
      expect(readFileSync(lockFile(dir), 'utf8')).toBe(String(process.pid));
      await database.db.execute(sql`select 1`);
    } finally {
      await database.close();
    }
    expect(existsSync(lockFile(dir))).toBe(false);
  });

  it('makes a second server process on the same folder refuse to start, until the first one stops', async () => {
    const dir = tempDir();
    const tsx = createRequire(import.meta.url).resolve('tsx/cli');
    const script = join(import.meta.dirname, 'support', 'open-data-dir.ts');
    const runChild = () =>
      new Promise<{ code: number; out: string }>((resolve) => {
        execFile(process.execPath, [tsx, script, dir], { timeout: 60_000 }, (err, stdout) => {
          const code = err ? Number((err as { code?: number }).code ?? 1) : 0;
          resolve({ code, out: stdout });
        });
      });

    const database = await openEmbedded(dir);
    let closed = false;
    cleanups.push(async () => {
      if (!closed) await database.close();
    });
    const refused = await runChild();
    expect(refused.code).toBe(3);
    expect(refused.out).toContain(`pid ${process.pid}`);
    // The first server's data is untouched and its lock still in place.
    await database.db.execute(sql`select 1`);
    expect(readFileSync(lockFile(dir), 'utf8')).toBe(String(process.pid));

    await database.close();
    closed = true;
    const opened = await runChild();
    expect(opened).toEqual({ code: 0, out: 'opened\n' });
  });
});

describe('the bound of requests waiting for the embedded database', () => {
  let t: TestApp;
  /** The slow test route waits for this; a test replaces it. */
  let gate: Promise<void> = Promise.resolve();
  let entered: () => void = () => {};
  beforeAll(async () => {
    t = await createTestApp({
      queueLimit: 1,
      extend: (app) => {
        app.get('/api/test/slow', async () => {
          entered();
          await gate;
          return { slow: true };
        });
      },
    });
  });
  afterAll(() => t.close());

  it('answers 503 server.unavailable with Retry-After beyond the bound, and recovers', async () => {
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let release: () => void = () => {};
    gate = new Promise<void>((resolve) => {
      release = resolve;
    });

    const slow = t.app.inject({ url: '/api/test/slow' });
    await inside;
    const refused = await t.app.inject({ url: '/api/health' });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toEqual({ code: 'server.unavailable', retryAfterSeconds: 1 });
    // Only API calls count: the web app's settings are served meanwhile.
    expect((await t.app.inject({ url: '/config.js' })).statusCode).toBe(200);

    release();
    expect((await slow).statusCode).toBe(200);
    // Refused and finished requests both gave their place back.
    for (let i = 0; i < 3; i++) expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });

  it('refuses a call while a sign-in hashes its password', async () => {
    const [login, health] = await Promise.all([
      t.app.inject({
        method: 'POST',
        url: '/api/login/limited',
        payload: { username: 'demo', password: DEMO_PASSWORD },
      }),
      t.app.inject({ url: '/api/health' }),
    ]);
    expect(login.statusCode).toBe(200);
    expect(health.statusCode).toBe(503);
    expect(health.headers['retry-after']).toBe('1');
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });
});
