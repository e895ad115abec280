// Bundles the server into dist/main.js (and its import worker into dist/import-worker.js). The workspace packages (@portal/*, TypeScript sources) are
// bundled in; every npm dependency stays external and is loaded from node_modules at run time
// (PGlite, argon2 and friends load files and native code relative to their own package).
import { build } from 'esbuild';

const externalNpm = {
  name: 'external-npm',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@portal/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

await build({
  // The import file reader runs in a worker thread (modules/invoice-import/import-pool.ts), which loads
  // dist/import-worker.js next to dist/main.js.
  entryPoints: { main: 'src/main.ts', 'import-worker': 'src/modules/invoice-import/import-worker.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  plugins: [externalNpm],
  logLevel: 'warning',
});
