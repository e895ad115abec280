import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The project's shared notes and fixtures: the repository is always cloned with `shared/` beside it
 * (`<repo>/../shared`), and this file sits at `<repo>/packages/domain/src/test-support/`. Test-only;
 * not exported from the package.
 */
const SHARED_ROOT = new URL('../../../../../shared/', import.meta.url);

/** Absolute path of a file or folder under `shared/`, e.g. `domain/bgmax-samples`. */
export function sharedPath(relative: string): string {
  return fileURLToPath(new URL(relative, SHARED_ROOT));
}

/** The raw bytes of a shared file (no decoding, no line-ending changes). */
export function readSharedBytes(relative: string): Uint8Array {
  return new Uint8Array(readFileSync(sharedPath(relative)));
}

/** Names of the files in a shared folder that end in `suffix`, sorted. */
export function listSharedFiles(folder: string, suffix: string): string[] {
  return readdirSync(sharedPath(folder))
    .filter((name) => name.endsWith(suffix))
    .sort();
}
