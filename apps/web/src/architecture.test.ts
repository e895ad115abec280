import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The web's import boundaries (STYLE.md "Imports flow one way", issue #12): a feature never imports
 * another feature (the route in `app/` puts them together; shared pieces live in `components/` or
 * `lib/`), and nothing outside `app/` imports `app/`. Read from the source text, so a new file is
 * checked the moment it exists.
 */

const SRC = dirname(fileURLToPath(import.meta.url));
const FEATURES = join(SRC, 'features');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** The relative specifiers a file imports or re-exports, static or dynamic. */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']*)'/g)].map((m) => m[1] ?? '');
  return found.filter((s) => s !== '');
}

/** Where under `src/` a path is: `features/<name>`, `app`, or another top folder. */
function area(path: string): string {
  const [top, second] = relative(SRC, path).split(sep);
  return top === 'features' ? `features/${second}` : (top ?? '');
}

const files = sourceFiles(SRC);
const edges = files.flatMap((file) =>
  relativeImports(file).map((spec) => ({ file, spec, target: resolve(dirname(file), spec) })),
);
const show = (e: { file: string; spec: string }) => `${relative(SRC, e.file)} imports '${e.spec}'`;

describe('web import boundaries', () => {
  it('reads the features and their imports', () => {
    expect(readdirSync(FEATURES).length).toBeGreaterThan(5);
    expect(edges.length).toBeGreaterThan(100);
  });

  it('no feature imports another feature', () => {
    const crossing = edges.filter((e) => {
      const from = area(e.file);
      const to = area(e.target);
      return from.startsWith('features/') && to.startsWith('features/') && from !== to;
    });
    expect(crossing.map(show)).toEqual([]);
  });

  it('only app/ imports app/ (besides the entry point and tests, which render whole routes)', () => {
    const isSource = (file: string) =>
      !/\.test\.tsx?$/.test(file) && !['main.tsx', 'test'].includes(area(file));
    const upward = edges.filter(
      (e) => isSource(e.file) && area(e.target) === 'app' && area(e.file) !== 'app',
    );
    expect(upward.map(show)).toEqual([]);
  });

  it('components/ and lib/ import no feature', () => {
    const upward = edges.filter(
      (e) => ['components', 'lib', 'config'].includes(area(e.file)) && area(e.target).startsWith('features/'),
    );
    expect(upward.map(show)).toEqual([]);
  });
});
