import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { precompress } from './scripts/precompress.ts';

// The API and the runtime config script come from the server (apps/server) during development.
const SERVER = 'http://localhost:8080';

export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    // scripts/check-bundle-size.mjs reads the manifest to tell the chunks of signed-in screens.
    manifest: true,
    sourcemap: false,
    // Every browser the portal supports preloads modules itself: the polyfill would only add bytes to
    // the login page.
    modulePreload: {
      polyfill: false,
      // Two chunks of issue #11 are left out of the preload lists: the date field's (React Aria, about
      // 42 kB as sent) and the translated file input's (1 kB). The entry keeps those lists for every lazy
      // route, so naming them there costs the login page bytes it has no room for (about 45 bytes as
      // sent, the budget's whole margin). A page that uses them fetches them as its route chunk's own
      // imports instead, one round trip later.
      resolveDependencies: (_file, deps) =>
        deps.filter((dep) => !/(^|\/)(date-field|file-input)-[\w-]+\.js$/.test(dep)),
    },
    rolldownOptions: {
      // Building a zod schema has no side effect, so the contract modules the login page imports for
      // constants and pure functions (abilities, routes) do not drag zod in with their schemas.
      treeshake: { manualPureFunctions: ['z'] },
    },
  },
  server: {
    proxy: {
      '/api': SERVER,
      '/config.js': SERVER,
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // The real server's seeded database is built once, in Node, before any jsdom test file starts.
    globalSetup: ['./src/test/global-setup.ts'],
    restoreMocks: true,
    // Tests that use src/test/real-api.ts start the real server over PGlite once per file: migrating and
    // seeding takes seconds on a loaded machine, and a page test then waits on real argon2 and SQL.
    hookTimeout: 60_000,
    testTimeout: 15_000,
  },
});
