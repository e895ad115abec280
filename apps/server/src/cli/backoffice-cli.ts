import { runBackoffice } from './backoffice';

// `npm run backoffice -- <command>`: see docs/BACKOFFICE.md.
process.exitCode = await runBackoffice(process.argv.slice(2), process.env, {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
