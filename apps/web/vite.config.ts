import optimizeLocales from '@react-aria/optimize-locales-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { precompress } from './scripts/precompress.ts';

// The API and the runtime config script come from the server (apps/server) during development.
const SERVER = 'http://localhost:8080';

export default defineConfig({
  plugins: [
    react(),
    // React Aria (the date field) carries its texts in 34 languages: keep the portal's three.
    optimizeLocales.vite({ locales: ['sv-SE', 'en-US', 'fi-FI'] }),
    precompress(),
  ],
  build: {
    // scripts/check-bundle-size.mjs reads the manifest to tell the chunks of signed-in screens.
    manifest: true,
    sourcemap: false,
    // Every browser the portal supports preloads modules itself: the polyfill would only add bytes to
    // the login page.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      // Building a zod schema has no side effect, so the contract modules the login page imports for
      // constants and pure functions (abilities, routes) do not drag zod in with their schemas.
      treeshake: { manualPureFunctions: ['z'] },
      // The entry lists the file of every chunk it may load (over a hundred): named by their hash alone,
      // the login page downloads 0.7 kB less. The size check prints each chunk's module from the manifest.
      output: { chunkFileNames: 'assets/c-[hash].js' },
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
