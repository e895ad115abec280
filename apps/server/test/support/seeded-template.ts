import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';

/**
 * The demo seed simulates months of business through the real services: about ten seconds on PGlite,
 * paid once per test file before. Its result depends only on the server's code, the migrations and
 * the shared packages (the clock and secret key of tests are fixed), so it is built once per version of
 * that code and every test file starts from a copy: a PGlite data-folder archive in the temp folder,
 * or a PostgreSQL template database. The name carries a hash of the code, so a change builds a new one.
 * The same goes for a database that is only migrated (createTestDb): PGlite's initdb and the
 * migrations take seconds a file, a copy well under one.
 */

/** Which template: the demo-seeded database, or a migrated, empty one. */
export type TemplateKind = 'seed' | 'migrated';

const here = dirname(fileURLToPath(import.meta.url));
const serverRoot = join(here, '..', '..');
const repoRoot = join(serverRoot, '..', '..');

/** Folders whose files decide what the seed writes. */
const SOURCES = [
  join(serverRoot, 'src'),
  join(serverRoot, 'migrations'),
  join(serverRoot, 'test', 'support'),
  join(repoRoot, 'packages', 'contracts', 'src'),
  join(repoRoot, 'packages', 'domain', 'src'),
  // The seed words our notices in the issuer's language (services/notices.ts).
  join(repoRoot, 'packages', 'i18n', 'src'),
];

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

let key: string | undefined;

/** A short hash of every file the seed's result depends on. */
export function templateKey(): string {
  if (key) return key;
  const hash = createHash('sha256');
  for (const file of SOURCES.flatMap(filesUnder).sort()) {
    hash.update(relative(repoRoot, file));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  key = hash.digest('hex').slice(0, 16);
  return key;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Archives of earlier versions of the code, a day old or more, are removed when a new one is made. */
function forgetOlderArchives(current: string): void {
  for (const name of readdirSync(tmpdir())) {
    const path = join(tmpdir(), name);
    if (path === current || !/^portal-test-(seed|migrated)-[0-9a-f]{16}\.tar$/.test(name)) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > 86_400_000) rmSync(path, { force: true });
    } catch {}
  }
}

/**
 * The archive of a PGlite data folder of the `kind`: read from the temp folder, or built by `build`
 * when no test file has built it yet. One builder at a time (a lock file made with O_EXCL); the others
 * wait.
 */
export async function embeddedTemplate(
  build: () => Promise<Uint8Array>,
  kind: TemplateKind = 'seed',
): Promise<Uint8Array> {
  const path = join(tmpdir(), `portal-test-${kind}-${templateKey()}.tar`);
  const lock = `${path}.lock`;
  for (;;) {
    if (existsSync(path)) return readFileSync(path);
    let fd: number | undefined;
    try {
      fd = openSync(lock, 'wx');
    } catch {
      // Someone builds it; a lock older than five minutes is left by a killed run.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 300_000) rmSync(lock, { force: true });
      } catch {}
      await sleep(200);
      continue;
    }
    try {
      if (existsSync(path)) continue;
      const bytes = await build();
      const part = `${path}.${process.pid}.part`;
      writeFileSync(part, bytes);
      renameSync(part, path);
      forgetOlderArchives(path);
      return bytes;
    } finally {
      closeSync(fd);
      rmSync(lock, { force: true });
    }
  }
}

/**
 * The name of a PostgreSQL template database of the `kind` on the server of `baseUrl`, built by `build`
 * (given the URL of an empty database) when it does not exist yet. Builders queue on an advisory lock;
 * the database gets its final name only once complete, so its existence means it is ready.
 */
export async function postgresTemplate(
  baseUrl: string,
  build: (url: string) => Promise<void>,
  kind: TemplateKind = 'seed',
): Promise<string> {
  const name = kind === 'seed' ? `portal_tmpl_${templateKey()}` : `portal_tmpl_${kind}_${templateKey()}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  const exists = async () => (await admin`select 1 from pg_database where datname = ${name}`).length > 0;
  try {
    if (await exists()) return name;
    await admin`select pg_advisory_lock(hashtext(${name}))`;
    try {
      if (await exists()) return name;
      const building = `${name}_build`;
      await admin.unsafe(`drop database if exists "${building}" with (force)`);
      await admin.unsafe(`create database "${building}"`);
      const url = new URL(baseUrl);
      url.pathname = `/${building}`;
      try {
        await build(url.toString());
      } catch (err) {
        await admin.unsafe(`drop database if exists "${building}" with (force)`);
        throw err;
      }
      await admin.unsafe(`alter database "${building}" rename to "${name}"`);
      return name;
    } finally {
      await admin`select pg_advisory_unlock(hashtext(${name}))`;
    }
  } finally {
    await admin.end({ timeout: 5 });
  }
}
