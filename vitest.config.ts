import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One run covers every workspace; each project keeps its own environment.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/server', 'apps/web'],
    // Vitest's default is one worker fewer than the cores: a single worker on the 2-core CI machine,
    // which left the second core idle while the main process waits (issue #15). Two at least; every
    // file has its own process and database, and the seeded templates are built before any starts.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
