/** True for PostgreSQL's unique_violation (23505), from postgres-js, PGlite or wrapped by Drizzle. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const {
      code,
      constraint_name,
      constraint: c,
    } = e as { code?: string; constraint_name?: string; constraint?: string };
    if (code === '23505') return !constraint || constraint === (constraint_name ?? c);
  }
  return false;
}
