import type { z } from 'zod';

/**
 * The codes of a schema's issues for `input`, by dotted path, each code once per path (a bad date fails
 * both of `isoDateSchema`'s checks): what the server answers in `issues`. Empty when `input` parses.
 * Test-only.
 */
export function issueCodes(schema: z.ZodType, input: unknown): Record<string, string[]> {
  const result = schema.safeParse(input);
  if (result.success) return {};
  const out: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.join('.');
    out[path] = [...new Set([...(out[path] ?? []), issue.message])];
  }
  return out;
}
