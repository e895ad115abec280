// Budget of the login page (the first page every user loads): the entry chunk, the login route
// chunk and everything they import statically, gzipped, must stay under 150 kB.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 150;
const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const LOGIN_ROUTE = 'src/app/routes/login.tsx';

let manifest;
try {
  manifest = JSON.parse(readFileSync(join(DIST, '.vite', 'manifest.json'), 'utf8'));
} catch {
  console.error('dist/.vite/manifest.json not found: run `npm run build -w @portal/web` first.');
  process.exit(2);
}

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
const loginKey = Object.keys(manifest).find((key) => key.endsWith(LOGIN_ROUTE));
if (!entryKey || !loginKey) {
  console.error(`manifest has no ${entryKey ? LOGIN_ROUTE : 'entry'} chunk`);
  process.exit(2);
}

/** The chunk and its static imports, recursively; dynamic imports load later and are not counted. */
function collect(key, seen) {
  if (seen.has(key)) return;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) collect(imported, seen);
}
const keys = new Set();
collect(entryKey, keys);
collect(loginKey, keys);

let totalBytes = 0;
for (const key of keys) {
  const file = manifest[key].file;
  if (!file.endsWith('.js')) continue;
  const gz = gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length;
  totalBytes += gz;
  console.log(`${(gz / 1024).toFixed(1).padStart(8)} kB  ${file}`);
}
const totalKb = totalBytes / 1024;
console.log(`login page JavaScript: ${totalKb.toFixed(1)} kB gzip (budget ${BUDGET_KB} kB)`);
if (totalKb > BUDGET_KB) {
  console.error(`over budget by ${(totalKb - BUDGET_KB).toFixed(1)} kB`);
  process.exit(1);
}
