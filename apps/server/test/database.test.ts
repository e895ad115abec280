import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, type Db, lookupsOf, openEmbedded, openPostgres } from '../src/db/client';
import { migrate, migrationsDir, rows } from '../src/db/migrate';
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

describe('the pool of lookups by key (lookupsOf)', () => {
  const planMode = async (db: Parameters<typeof lookupsOf>[0]) =>
    rows<{ plan_cache_mode: string }>(await db.execute(sql`show plan_cache_mode`))[0]?.plan_cache_mode;

  it.skipIf(!TEST_DATABASE_URL)(
    'plans once on PostgreSQL, while the main pool and its transactions plan every call',
    async () => {
      const created = await createEmptyPostgresDatabase(TEST_DATABASE_URL ?? '');
      cleanups.push(() => created.drop());
      const database = await openPostgres(created.url, 1);
      cleanups.push(() => database.close());
      expect(lookupsOf(database.db)).not.toBe(database.db);
      expect(await planMode(lookupsOf(database.db))).toBe('force_generic_plan');
      expect(await planMode(database.db)).toBe('force_custom_plan');
      // A transaction keeps its own connection: a lookup in it sees the transaction's writes.
      await database.db.transaction(async (tx) => {
        expect(lookupsOf(tx)).toBe(tx);
        expect(await planMode(lookupsOf(tx))).toBe('force_custom_plan');
      });
      // Both pools see each other's committed rows at once.
      await database.db.execute(sql`create table t (id int primary key)`);
      await database.db.execute(sql`insert into t values (1)`);
      expect(rows(await lookupsOf(database.db).execute(sql`select id from t`))).toEqual([{ id: 1 }]);
    },
  );

  it('is the database itself on PGlite (one connection)', async () => {
    const database = await openEmbedded(undefined);
    cleanups.push(() => database.close());
    expect(lookupsOf(database.db)).toBe(database.db);
  });
});

describe('the order of statements on the embedded database', () => {
  it('runs them in the order they were called, also when one of them waits for a turn of the event loop', async () => {
    const database = await openEmbedded(undefined);
    cleanups.push(() => database.close());
    const counted = await database.db.transaction(async (tx) => {
      await tx.execute(sql`create temporary table written (n int)`);
      // Idle for longer than the database works between turns: its next query waits for a turn.
      await new Promise((resolve) => setTimeout(resolve, 30));
      const first = tx.execute(sql`select 1`).then(() => undefined);
      // The first query has been called and waits for its turn (a few microtasks of the driver).
      for (let i = 0; i < 50; i++) await null;
      // As the BGMAX import does: a batch's insert is sent, and the next batch reads a turn later.
      // That turn comes before any the insert could have asked for by itself.
      const nextTurn = new Promise((resolve) => setImmediate(resolve));
      const insert = tx.execute(sql`insert into written values (1)`).then(() => undefined);
      await nextTurn;
      const [read] = rows<{ n: number }>(await tx.execute(sql`select count(*)::int as n from written`));
      await Promise.all([first, insert]);
      return read?.n;
    });
    expect(counted).toBe(1);
  });
});

/** The plan PostgreSQL chooses for `query` with table scans and bitmaps left out, as lines of text. */
async function planOf(db: Db, query: SQL): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    await tx.execute(sql`set local enable_bitmapscan = off`);
    return rows<{ 'QUERY PLAN': string }>(await tx.execute(sql`explain ${query}`))
      .map((r) => r['QUERY PLAN'])
      .join('\n');
  });
}

describe('indexes of hot sums', () => {
  it.skipIf(!TEST_DATABASE_URL)(
    "the open balance's sum (debt-claims balanceOf) reads postings_unsettled_idx only (migration 0032)",
    async () => {
      const testDb = await createTestDb();
      cleanups.push(() => testDb.close());
      // The test database is small, so the planner is told to leave the table scans out: what is
      // checked is that the index alone answers the sum (an index-only scan needs its amounts).
      const plan = await planOf(
        testDb.db,
        sql`select coalesce(sum(amount_minor), 0) from postings
            where account = 'issuer_payable' and settlement_id is null and claim_id is null
              and issuer_id = ${'00000000-0000-0000-0000-000000000001'} and currency = 'SEK'`,
      );
      expect(plan).toContain('Index Only Scan using postings_unsettled_idx');
    },
  );

  it.skipIf(!TEST_DATABASE_URL)(
    "the detail's timeline finds an invoice's payments by invoice and issuer in one index (migration 0033)",
    async () => {
      const testDb = await createTestDb();
      cleanups.push(() => testDb.close());
      // With the invoice alone in the index the issuer was a second index, ANDed as bitmaps: all of
      // a big issuer's payments read for each detail. Both conditions must be the index's.
      const plan = await planOf(
        testDb.db,
        sql`select id from invoice_timeline
            where invoice_id = ${'00000000-0000-0000-0000-000000000002'}
              and issuer_id = ${'00000000-0000-0000-0000-000000000001'}`,
      );
      const onPayments = plan.split('\n').filter((line) => / on payments /.test(line));
      expect(onPayments.length).toBeGreaterThan(0);
      for (const line of onPayments) expect(line).toContain('Index Scan using payments_invoice_idx');
      const conditions = plan.match(/Index Cond: \(\(invoice_id = [^)]*\) AND \(issuer_id = [^)]*\)\)/g);
      expect(conditions?.length).toBe(onPayments.length);
    },
  );
});

describe('indexes of the invoice list', () => {
  it.skipIf(!TEST_DATABASE_URL)(
    "the filter rejected reads the issuer's rejected invoices from their own index (migration 0034)",
    async () => {
      const testDb = await createTestDb();
      cleanups.push(() => testDb.close());
      // As the list asks it (filterWhere): the decision is a value of the statement, planned for it.
      const plan = await planOf(
        testDb.db,
        sql`select id from invoices
            where issuer_id = ${'00000000-0000-0000-0000-000000000001'}
              and decision = ${'rejected'} and state not in (7, 11)
            order by invoice_date desc, id desc limit 50`,
      );
      expect(plan).toContain('using invoices_issuer_rejected_idx on invoices');
    },
  );

  it.skipIf(!TEST_DATABASE_URL)(
    "the sort by recipient name reads each recipient's invoices of the issuer in id order from one index (migration 0035)",
    async () => {
      const testDb = await createTestDb();
      cleanups.push(() => testDb.close());
      const issuer = '00000000-0000-0000-0000-000000000001';
      // As byRecipientName asks it: per recipient, the issuer's invoices by id up to the page's end.
      const plan = await planOf(
        testDb.db,
        sql`select i.id from recipients r cross join lateral (
              select id from invoices
              where recipient_id = r.id and issuer_id = ${issuer} and state not in (7, 11)
              order by id desc limit 50) i
            where r.issuer_id = ${issuer}`,
      );
      expect(plan).toContain('Index Scan Backward using invoices_recipient_idx on invoices');
      expect(plan).toMatch(/Index Cond: \(\(recipient_id = r\.id\) AND \(issuer_id = [^)]*\)\)/);
      expect(plan).not.toContain('Sort');
    },
  );
});

// Each case starts PGlite on a new folder, some in child processes: slow on a busy machine.
describe('the lock of an embedded data folder', { timeout: 180_000 }, () => {
  const lockFile = (dir: string) => join(dir, 'portal.lock');

  const tsx = createRequire(import.meta.url).resolve('tsx/cli');
  const script = join(import.meta.dirname, 'support', 'open-data-dir.ts');

  /** Opens the folder, which must take its lock for this process and answer a query, then closes it. */
  async function expectOpensAndLocks(dir: string): Promise<void> {
    const database = await openEmbedded(dir);
    try {
      expect(readFileSync(lockFile(dir), 'utf8')).toBe(String(process.pid));
      await database.db.execute(sql`select 1`);
    } finally {
      await database.close();
    }
  }

  /** Starts `open-data-dir <dir> hold` by the given `sh -c` line ("$0" "$@" is it) and waits for its pid. */
  async function startHolder(dir: string, shell: string): Promise<{ shell: ChildProcess; pid: number }> {
    // `node --import tsx`, not the tsx command (which runs the script in a child of its own): the
    // process the shell starts is the one that holds the lock.
    const child = spawn('sh', ['-c', shell, process.execPath, '--import', 'tsx', script, dir, 'hold'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    cleanups.push(() => {
      child.kill('SIGKILL');
    });
    let out = '';
    const pid = await new Promise<number>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /holding (\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', () => reject(new Error(`the holder ended: ${out}`)));
    });
    cleanups.push(() => {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    });
    return { shell: child, pid };
  }

  it('refuses a folder held by another live process, naming it, and leaves its lock alone', async () => {
    const dir = tempDir();
    const holder = await startHolder(dir, 'exec "$0" "$@"');
    const attempt = openEmbedded(dir);
    await expect(attempt).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(attempt).rejects.toThrow(`pid ${holder.pid}`);
    expect(readFileSync(lockFile(dir), 'utf8')).toBe(String(holder.pid));
    // A second opener in this process is refused the same way.
    await expect(openEmbedded(dir)).rejects.toBeInstanceOf(DataDirLockedError);
  });

  it.runIf(process.platform === 'linux')(
    'opens at once a folder whose holder was killed with kill -9 and is not yet reaped (a zombie)',
    async () => {
      const dir = tempDir();
      // The holder runs in the background of a shell that then becomes `sleep`, which never waits
      // for its children: killed, the holder stays a zombie, and kill(pid, 0) still finds it.
      const holder = await startHolder(dir, '"$0" "$@" & exec sleep 120');
      process.kill(holder.pid, 'SIGKILL');
      const state = () => readFileSync(`/proc/${holder.pid}/stat`, 'utf8').split(') ')[1]?.[0];
      for (let spins = 0; state() !== 'Z'; spins++) {
        if (spins > 2000) throw new Error('the holder did not become a zombie');
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(() => process.kill(holder.pid, 0)).not.toThrow();
      expect(readFileSync(lockFile(dir), 'utf8')).toBe(String(holder.pid));

      await expectOpensAndLocks(dir);
      // It did not wait for the zombie to be reaped: it still is one.
      expect(state()).toBe('Z');
    },
  );

  it('takes over a lock left by a process that has ended', async () => {
    const dir = tempDir();
    const ended = spawnSync('true');
    expect(ended.pid).toBeGreaterThan(0);
    writeFileSync(lockFile(dir), String(ended.pid));
    await expectOpensAndLocks(dir);
    expect(existsSync(lockFile(dir))).toBe(false);
  });

  it('makes a second server process on the same folder refuse to start, until the first one stops', async () => {
    const dir = tempDir();
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
