// Bundles the server into dist/main.js. The workspace packages (@portal/*, TypeScript sources) are
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
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  plugins: [externalNpm],
  logLevel: 'warning',
});
