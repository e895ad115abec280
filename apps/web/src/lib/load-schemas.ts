import type { z } from 'zod';

export type Schemas = typeof import('./schemas');
export type PublicSchemas = typeof import('./public-schemas');

let loading: Promise<Schemas> | null = null;
let loadingPublic: Promise<PublicSchemas> | null = null;

/** Loads the contract schemas of the signed-in screens once (see schemas.ts for why this is dynamic). */
export function loadSchemas(): Promise<Schemas> {
  loading ??= import('./schemas');
  return loading;
}

/**
 * Loads the schemas of the pages before sign-in and of error answers once (public-schemas.ts), with
 * the texts of every error code (public-texts.ts): an answer's code is read through it, so whatever
 * code a page before sign-in meets has its text.
 */
export function loadPublicSchemas(): Promise<PublicSchemas> {
  loadingPublic ??= Promise.all([import('./public-schemas'), import('./public-texts')]).then(
    ([schemas]) => schemas,
  );
  return loadingPublic;
}

export type FieldErrorCodes<T> = Partial<Record<keyof T & string, string>>;

/**
 * Validates values with a lazily loaded public contract schema and returns the first rule code per field.
 * The login page uses it instead of react-hook-form, whose 13 kB would break the login budget.
 */
export async function validateWith<T extends Record<string, unknown>>(
  pick: (schemas: PublicSchemas) => z.ZodType<T>,
  values: T,
): Promise<{ data: T; errors: null } | { data: null; errors: FieldErrorCodes<T> }> {
  const result = pick(await loadPublicSchemas()).safeParse(values);
  if (result.success) return { data: result.data, errors: null };
  const errors: FieldErrorCodes<T> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '') as keyof T & string;
    if (!errors[field]) errors[field] = issue.message;
  }
  return { data: null, errors };
}
