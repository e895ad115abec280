// Lighthouse (desktop preset, simulated throttling) on the pages of issue #15's targets, against the
// built app: the login page, the dashboard, the invoice history and the ledger report. It starts the
// built server on a fresh embedded database with the demo data, signs in as `demo` for the signed-in
// pages, and prints each page's performance and accessibility scores beside the targets, with the
// JavaScript the page downloaded. `npm run bench:web` builds first.
//
// Options: --runs N (default 3; the median score is kept), --url http://host:port (a running server
// with the demo data; none is started), --json file (every figure, for docs/BENCHMARKS.md).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer from 'puppeteer-core';
import { serverFor } from './built-server.mjs';

const DEMO_USER = 'demo';
const DEMO_PASSWORD = 'Portal-demo-1';
const TARGETS = { performance: 95, accessibility: 100 };
const PAGES = [
  { name: 'login', path: '/login', signedIn: false },
  { name: 'dashboard', path: '/', signedIn: true },
  { name: 'invoice history', path: '/invoices', signedIn: true },
  { name: 'ledger report', path: '/reports/ledger', signedIn: true },
];

const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, url: { type: 'string' }, json: { type: 'string' } },
});
const runs = Math.max(1, Number(args.runs) || 1);

/** A session of the demo user, as the web keeps it in localStorage after signing in. */
async function signIn(baseUrl) {
  const res = await fetch(`${baseUrl}/api/login/limited`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: DEMO_USER, password: DEMO_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in as ${DEMO_USER} failed: ${res.status}`);
  const answer = await res.json();
  if (!answer.user) throw new Error(`${DEMO_USER} needs two-factor: pick a user without it`);
  return { token: answer.token, user: answer.user };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

/** One Lighthouse run of `url` in a fresh tab; storage is set by the caller and kept. */
async function audit(browser, url, session) {
  const page = await browser.newPage();
  try {
    // localStorage of the origin: empty for the login page, the demo session for the others.
    await page.goto(new URL('/config.js', url).toString());
    await page.evaluate((stored) => {
      localStorage.clear();
      for (const [key, value] of Object.entries(stored)) localStorage.setItem(key, JSON.stringify(value));
    }, session ?? {});
    // A first visit: nothing in the HTTP cache (Lighthouse keeps it, as it keeps the storage above).
    const cdp = await page.createCDPSession();
    await cdp.send('Network.clearBrowserCache');
    await cdp.detach();
    const result = await lighthouse(
      url,
      {
        logLevel: 'error',
        output: 'json',
        onlyCategories: ['performance', 'accessibility'],
        disableStorageReset: true,
      },
      desktopConfig,
      page,
    );
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
    if (lhr.runtimeError)
      throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const metric = (id) => {
      const value = lhr.audits[id]?.numericValue;
      if (typeof value !== 'number')
        throw new Error(`${url}: no ${id} (${lhr.audits[id]?.errorMessage ?? 'no value'})`);
      return value;
    };
    const requests = lhr.audits['network-requests']?.details?.items ?? [];
    const scripts = requests
      .filter((r) => r.resourceType === 'Script')
      .map((r) => ({
        url: new URL(r.url).pathname,
        transferSize: r.transferSize,
        resourceSize: r.resourceSize,
      }));
    const failed = Object.values(lhr.audits)
      .filter(
        (a) =>
          a.score !== null &&
          a.score < 1 &&
          lhr.categories.accessibility.auditRefs.some((ref) => ref.id === a.id),
      )
      .map((a) => a.id);
    return {
      performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility.score ?? 0) * 100),
      fcpMs: Math.round(metric('first-contentful-paint')),
      lcpMs: Math.round(metric('largest-contentful-paint')),
      tbtMs: Math.round(metric('total-blocking-time')),
      cls: Number(metric('cumulative-layout-shift').toFixed(3)),
      scripts,
      accessibilityFailures: failed,
      lighthouseVersion: lhr.lighthouseVersion,
    };
  } finally {
    await page.close();
  }
}

// A fresh database: the first start seeds the demo data, before the server listens.
const server = await serverFor(args.url, { name: 'bench-web', timeoutMs: 300_000, pollMs: 500 });
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const results = [];
let failed = false;
try {
  const session = await signIn(server.baseUrl);
  for (const target of PAGES) {
    const url = `${server.baseUrl}${target.path}`;
    const each = [];
    for (let i = 0; i < runs; i += 1) each.push(await audit(browser, url, target.signedIn ? session : null));
    const performance = median(each.map((r) => r.performance));
    const kept = each.find((r) => r.performance === performance) ?? each[0];
    results.push({ page: target.name, path: target.path, runs: each.map((r) => r.performance), ...kept });
  }
} finally {
  await browser.close();
  await server.stop();
}

const kb = (bytes) => (bytes / 1024).toFixed(1);
console.log(
  `Lighthouse ${results[0]?.lighthouseVersion} (desktop preset, simulated throttling), median of ${runs}`,
);
console.log(
  `${'page'.padEnd(16)} ${'perf'.padStart(5)} ${'target'.padStart(6)} ${'a11y'.padStart(5)} ${'target'.padStart(6)}` +
    `  FCP ms  LCP ms  TBT ms    CLS  JS files  JS kB sent (decoded)`,
);
for (const r of results) {
  const perfOk = r.performance >= TARGETS.performance;
  const a11yOk = r.accessibility >= TARGETS.accessibility;
  if (!perfOk || !a11yOk) failed = true;
  const sent = r.scripts.reduce((t, s) => t + s.transferSize, 0);
  const decoded = r.scripts.reduce((t, s) => t + s.resourceSize, 0);
  console.log(
    `${r.page.padEnd(16)} ${String(r.performance).padStart(5)} ${`≥${TARGETS.performance}`.padStart(6)} ` +
      `${String(r.accessibility).padStart(5)} ${`≥${TARGETS.accessibility}`.padStart(6)}  ` +
      `${String(r.fcpMs).padStart(6)}  ${String(r.lcpMs).padStart(6)}  ${String(r.tbtMs).padStart(6)}  ` +
      `${r.cls.toFixed(3).padStart(5)}  ${String(r.scripts.length).padStart(8)}  ${kb(sent).padStart(6)} (${kb(decoded)})` +
      `${perfOk && a11yOk ? '' : '  BELOW TARGET'}` +
      `${r.accessibilityFailures.length ? `  a11y: ${r.accessibilityFailures.join(', ')}` : ''}`,
  );
  if (runs > 1) console.log(`${''.padEnd(16)} performance of each run: ${r.runs.join(', ')}`);
}
for (const r of results) {
  console.log(`\nJavaScript of ${r.page} (${r.path}):`);
  for (const s of r.scripts)
    console.log(`  ${kb(s.transferSize).padStart(7)} kB ${kb(s.resourceSize).padStart(7)} kB  ${s.url}`);
}
if (args.json) writeFileSync(args.json, `${JSON.stringify(results, null, 2)}\n`);
process.exitCode = failed ? 1 : 0;
