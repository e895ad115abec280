import { runBackoffice } from '../../src/cli/backoffice';
import { DEMO_OPERATOR, DEMO_PASSWORD } from '../../src/db/seed/demo';

/** Runs one back-office CLI command as the demo operator against the portal at `base`, with what it printed. */
export async function backofficeCli(base: string, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runBackoffice(
    argv,
    { BACKOFFICE_USER: DEMO_OPERATOR, BACKOFFICE_PASSWORD: DEMO_PASSWORD, BACKOFFICE_URL: base },
    { out: (l) => out.push(l), err: (l) => err.push(l) },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}
