// `npm run typecheck`: the `typecheck` script of every workspace that has one, as
// `npm run typecheck --workspaces --if-present` did, but two at a time at least: tsc uses one core, and
// one after the other they left the second core of the 2-core CI machine idle (issue #15). Each
// workspace's output is printed whole once it ends; the exit code is 1 when any of them failed.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));

/** The workspaces of the root package.json (globs of the form `folder/*`) with a typecheck script. */
function workspaces() {
  const found = [];
  for (const pattern of readJson(join(root, 'package.json')).workspaces) {
    const dirs = pattern.endsWith('/*')
      ? readdirSync(join(root, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => join(pattern.slice(0, -2), entry.name))
      : [pattern];
    for (const dir of dirs.sort()) {
      const manifest = join(root, dir, 'package.json');
      if (!existsSync(manifest)) continue;
      const pkg = readJson(manifest);
      if (pkg.scripts?.typecheck) found.push({ dir, name: pkg.name });
    }
  }
  // The apps first: they are the longest, so the packages fill in beside them.
  return found.sort((a, b) => Number(b.dir.startsWith('apps/')) - Number(a.dir.startsWith('apps/')));
}

function typecheck({ dir, name }) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', 'typecheck'], { cwd: join(root, dir) });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      const text = Buffer.concat(output).toString();
      process.stdout.write(`${code === 0 ? 'ok' : 'FAILED'}: typecheck of ${name}\n${text}`);
      resolve(code === 0);
    });
  });
}

const queue = workspaces();
let failed = false;
const lane = async () => {
  for (let next = queue.shift(); next; next = queue.shift()) if (!(await typecheck(next))) failed = true;
};
await Promise.all(Array.from({ length: Math.max(2, availableParallelism() - 1) }, lane));
process.exit(failed ? 1 : 0);
