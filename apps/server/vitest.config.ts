import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // argon2 at OWASP's parameters and a database per file: give them room on a 2-core CI machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The seeded template of createTestApp is built once before the files start (test-db.ts).
    globalSetup: ['test/support/global-setup.ts'],
  },
});
