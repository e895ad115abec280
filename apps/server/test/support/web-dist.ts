import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** The index.html of a built web app, small enough for a test to compare whole. */
export const INDEX_HTML =
  '<!doctype html><html><head><title>Portal</title></head><body><div id="root"></div></body></html>';

/**
 * A temporary folder laid out as apps/web's build leaves it, for a test app's `webDistDir`: made at
 * once with an empty `assets/`, filled by `write` (given the folder), and removed after the tests of
 * the enclosing describe block (or of the file).
 */
export function builtWebDir(write: (dir: string) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'portal-web-'));
  mkdirSync(join(dir, 'assets'));
  write(dir);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
