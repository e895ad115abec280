import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARTIFACTS_DIR, BASE_URL, E2E_PORT, SERVER_LOG } from './support/env';

const SERVER_MAIN = fileURLToPath(new URL('../../server/dist/main.js', import.meta.url));
const WEB_INDEX = fileURLToPath(new URL('../dist/index.html', import.meta.url));

/**
 * Starts the built server on a fresh embedded database (so the demo data is seeded new for every run)
 * and returns the teardown that stops it with SIGTERM, as production would.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  for (const file of [SERVER_MAIN, WEB_INDEX]) {
    if (!existsSync(file))
      throw new Error(`${file} is missing: run "npm run build" first (npm run test:e2e does).`);
  }
  // A server left by an earlier run on this port would answer instead of ours, and the run would test it.
  if (await answersHealth())
    throw new Error(`something already answers on ${BASE_URL}: stop it, or set E2E_PORT to a free port`);
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
  const log = openSync(SERVER_LOG, 'w');
  const server = spawn(process.execPath, [SERVER_MAIN], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: BASE_URL,
    },
    stdio: ['ignore', log, log],
  });
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));

  // The first start seeds 14 months of demo money flow: on a loaded two-core machine that takes a while.
  try {
    const deadline = Date.now() + 180_000;
    for (;;) {
      if (server.exitCode !== null)
        throw new Error(`the server exited with ${server.exitCode}; see ${SERVER_LOG}`);
      if (await answersHealth()) break;
      if (Date.now() > deadline) throw new Error(`the server did not answer within 180 s; see ${SERVER_LOG}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  } catch (err) {
    // Playwright runs no teardown when the set-up fails: stop the server here, or it keeps the port.
    if (server.exitCode === null) {
      server.kill('SIGKILL');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }

  return async () => {
    server.kill('SIGTERM');
    const code = await exited;
    rmSync(dataDir, { recursive: true, force: true });
    if (code !== 0)
      throw new Error(`the server did not stop cleanly on SIGTERM (exit ${code}); see ${SERVER_LOG}`);
  };
}

async function answersHealth(): Promise<boolean> {
  try {
    return (await fetch(`${BASE_URL}/api/health`)).ok;
  } catch {
    return false; // not listening
  }
}
