// The built server (apps/server/dist/main.js) on a free loopback port with a fresh embedded database in
// a temporary folder, for the scripts that measure the built app in a browser (scripts/bench-web.mjs,
// apps/web/scripts/check-bundle-size.mjs). `npm run build` makes the build.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER_MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'apps', 'server', 'dist', 'main.js');

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built server and resolves once `/api/health` answers, with its base URL and a `stop` that
 * ends it and removes its data. `env` is added to the server's environment (e.g. `SEED_DEMO: 'never'`);
 * `timeoutMs` is how long it may take to answer (the demo seed runs before it listens).
 */
export async function startBuiltServer({ name, env = {}, timeoutMs, pollMs }) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `portal-${name}-`));
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [SERVER_MAIN], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: 'warn',
      POSTHOG_KEY: '',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return { baseUrl, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer within ${timeoutMs / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** `--url` when given (a running server, none is started), else the built server as `startBuiltServer`. */
export function serverFor(url, options) {
  return url ? { baseUrl: url.replace(/\/+$/, ''), stop: async () => {} } : startBuiltServer(options);
}
