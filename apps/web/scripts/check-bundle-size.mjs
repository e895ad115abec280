// Budget of the login page, the first page every visitor loads, measured as a browser sees it: the built
// server is started, Chromium opens /login with an empty cache, and the network log says which
// JavaScript files came over the wire and how many bytes each took (compressed, as sent).
//
// It fails when
// - the JavaScript requested before the login form is on screen weighs more than BUDGET_KB (as sent), or
// - the login page loads, until the network is quiet, a chunk that belongs to a screen the visitor cannot
//   use before signing in (any route other than the public ones, the signed-in layout, or what only they
//   import). The build manifest (dist/.vite/manifest.json) says which chunk belongs to which route.
//
// Usage: node apps/web/scripts/check-bundle-size.mjs [--url http://host:port] [--json file]
// Without --url it starts apps/server/dist/main.js on a free port with an empty embedded database.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { serverFor } from '../../../scripts/built-server.mjs';

const BUDGET_KB = 100;
/** How long the network must stay quiet after the form is usable before the late loads are counted. */
const QUIET_MS = 1500;
const WEB_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(WEB_ROOT, 'dist');
/** What a visitor uses without signing in: the public routes and their lazily loaded schemas. */
const PUBLIC_MODULES = [
  'src/app/routes/login.tsx',
  'src/app/routes/group-login.tsx',
  'src/app/routes/password-reset.tsx',
  'src/lib/public-schemas.ts',
  'src/lib/public-texts.ts',
];
/** What only a signed-in user uses: every other route, the signed-in layout, their schemas. */
const isFeatureModule = (key) =>
  (/^src\/app\/(routes|layouts)\//.test(key) && !PUBLIC_MODULES.includes(key)) ||
  key === 'src/lib/schemas.ts';

const { values: args } = parseArgs({
  options: { url: { type: 'string' }, json: { type: 'string' } },
});

function readManifest() {
  try {
    return JSON.parse(readFileSync(join(DIST, '.vite', 'manifest.json'), 'utf8'));
  } catch {
    console.error('apps/web/dist/.vite/manifest.json not found: run `npm run build` first.');
    process.exit(2);
  }
}

/**
 * The files of the chunks that only the signed-in screens need: every chunk statically reachable from a
 * feature module and not from the entry or a public module.
 */
function featureFiles(manifest) {
  const closure = (keys) => {
    const seen = new Set();
    const walk = (key) => {
      if (seen.has(key) || !manifest[key]) return;
      seen.add(key);
      for (const imported of manifest[key].imports ?? []) walk(imported);
    };
    for (const key of keys) walk(key);
    return seen;
  };
  const entryKeys = Object.keys(manifest).filter((key) => manifest[key].isEntry);
  const publicSide = closure([...entryKeys, ...PUBLIC_MODULES]);
  const featureSide = closure(Object.keys(manifest).filter(isFeatureModule));
  const files = new Map();
  for (const key of featureSide) {
    if (!publicSide.has(key)) files.set(`/${manifest[key].file}`, key);
  }
  return files;
}

/** Opens /login in a fresh Chromium profile and returns every JavaScript response with its sizes. */
async function measure(baseUrl) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const context = await browser.newContext({ locale: 'sv-SE' });
    const page = await context.newPage();
    // The moment the credentials form is on screen, by the page's own clock: the SPA renders it only
    // once its code has run, so from then on it can be typed in and sent.
    await page.addInitScript(() => {
      const ready = () =>
        document.querySelector('form.auth-form input[name="username"]') &&
        document.querySelector('form.auth-form input[name="password"]') &&
        document.querySelector('form.auth-form button[type="submit"]');
      new MutationObserver((_records, observer) => {
        if (!ready()) return;
        window.__loginUsableAt = performance.timeOrigin + performance.now();
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    let lastActivity = Date.now();
    const finished = [];
    page.on('request', () => {
      lastActivity = Date.now();
    });
    page.on('requestfinished', (request) => {
      lastActivity = Date.now();
      finished.push(request);
    });

    await page.goto(`${baseUrl}/login`, { waitUntil: 'commit' });
    await page.waitForFunction(() => typeof window.__loginUsableAt === 'number', null, { timeout: 60_000 });
    // Whatever the page fetches afterwards, until the network has been quiet for a while.
    lastActivity = Date.now();
    while (Date.now() - lastActivity < QUIET_MS) await new Promise((r) => setTimeout(r, 100));
    const usableAt = await page.evaluate(() => window.__loginUsableAt);
    const navigationStart = await page.evaluate(() => performance.timeOrigin);
    const usableMs = Math.round(usableAt - navigationStart);

    const files = [];
    for (const request of finished) {
      const response = await request.response();
      if (!response) continue;
      const type = response.headers()['content-type'] ?? '';
      if (request.resourceType() !== 'script' && !/javascript/.test(type)) continue;
      const sizes = await request.sizes();
      const body = await response.body();
      files.push({
        path: new URL(request.url()).pathname,
        encoding: response.headers()['content-encoding'] ?? 'identity',
        encoded: sizes.responseBodySize,
        decoded: body.length,
        // Asked for before the form was on screen: the visitor waited for it.
        beforeUsable: request.timing().startTime < usableAt,
      });
    }
    return { files, usableMs };
  } finally {
    await browser.close();
  }
}

const kb = (bytes) => (bytes / 1024).toFixed(1);

const manifest = readManifest();
const features = featureFiles(manifest);
/** Chunks are named by their hash alone (vite.config.ts): the manifest says which module each one is. */
const sourceOf = new Map(
  Object.entries(manifest).map(([key, chunk]) => [`/${chunk.file}`, key.startsWith('_') ? chunk.name : key]),
);
// The login page needs no data: an empty database, no demo seed.
const server = await serverFor(args.url, {
  name: 'size',
  env: { SEED_DEMO: 'never', DAILY_JOB: 'off' },
  timeoutMs: 120_000,
  pollMs: 200,
});
let result;
try {
  result = await measure(server.baseUrl);
} finally {
  await server.stop();
}

const { files, usableMs } = result;
const sum = (list, field) => list.reduce((total, file) => total + file[field], 0);
const early = files.filter((file) => file.beforeUsable);
const late = files.filter((file) => !file.beforeUsable);
console.log(`JavaScript of /login in Chromium (fresh profile, ${server.baseUrl}):`);
console.log(`${'encoded'.padStart(10)} ${'decoded'.padStart(10)}  encoding  file`);
for (const file of [...early, ...late]) {
  const mark = file.beforeUsable ? '' : '  (after the form was usable)';
  const feature = features.has(file.path) ? '  FEATURE CHUNK' : '';
  const source = sourceOf.has(file.path) ? ` ${sourceOf.get(file.path)}` : '';
  console.log(
    `${kb(file.encoded).padStart(7)} kB ${kb(file.decoded).padStart(7)} kB  ${file.encoding.padEnd(8)}  ${file.path}${source}${mark}${feature}`,
  );
}
const earlyKb = sum(early, 'encoded') / 1024;
console.log(
  `before the form was usable (${usableMs} ms): ${early.length} files, ${earlyKb.toFixed(1)} kB encoded, ` +
    `${kb(sum(early, 'decoded'))} kB decoded (budget ${BUDGET_KB} kB encoded)`,
);
console.log(
  `after, until the network was quiet: ${late.length} files, ${kb(sum(late, 'encoded'))} kB encoded, ` +
    `${kb(sum(late, 'decoded'))} kB decoded`,
);
if (args.json) writeFileSync(args.json, `${JSON.stringify({ usableMs, files }, null, 2)}\n`);

let failed = false;
if (earlyKb > BUDGET_KB) {
  console.error(`over budget by ${(earlyKb - BUDGET_KB).toFixed(1)} kB`);
  failed = true;
}
const loadedFeatures = files.filter((file) => features.has(file.path));
if (loadedFeatures.length > 0) {
  console.error(`the login page loads ${loadedFeatures.length} chunk(s) of signed-in screens (marked above)`);
  failed = true;
}
process.exit(failed ? 1 : 0);
