import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Files a browser gets as text; images, fonts and archives are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest|map)$/i;

export interface CompressedFile {
  file: string;
  bytes: number;
  br: number | null;
  gz: number | null;
}

/** Every file under `dir`, hidden folders (such as `.vite`, the build manifest) left out. */
async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(path)));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}

/**
 * Writes `<file>.br` (Brotli, best quality) and `<file>.gz` (gzip, level 9) beside every compressible
 * file of `dir`, each only when it is smaller than the file itself. The server sends them by the
 * request's Accept-Encoding (apps/server/src/app.ts, `preCompressed`), so no byte is compressed per
 * request and the best ratio costs nothing at run time.
 */
export async function precompressDir(dir: string): Promise<CompressedFile[]> {
  const files = (await filesUnder(dir)).filter((file) => COMPRESSIBLE.test(file));
  return Promise.all(
    files.map(async (file) => {
      const data = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(data, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          },
        }),
        gzipAsync(data, { level: 9 }),
      ]);
      const keep = async (suffix: string, compressed: Buffer) => {
        if (compressed.length >= data.length) return null;
        await writeFile(`${file}${suffix}`, compressed);
        return compressed.length;
      };
      return {
        file: file.slice(dir.length + 1),
        bytes: data.length,
        br: await keep('.br', br),
        gz: await keep('.gz', gz),
      };
    }),
  );
}

/** The Vite plugin: compresses the production build once it is written. */
export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = resolve(config.root, config.build.outDir);
      if (!(await stat(outDir).catch(() => null))?.isDirectory()) return;
      const done = await precompressDir(outDir);
      const sum = (pick: (f: CompressedFile) => number) => done.reduce((total, f) => total + pick(f), 0);
      config.logger.info(
        `precompressed ${done.length} files: ${(sum((f) => f.bytes) / 1024).toFixed(0)} kB → ` +
          `${(sum((f) => f.br ?? f.bytes) / 1024).toFixed(0)} kB Brotli, ` +
          `${(sum((f) => f.gz ?? f.bytes) / 1024).toFixed(0)} kB gzip`,
      );
    },
  };
}
