/** The first row a query answers, or null when it answers none (a find by a unique key, mostly). */
export async function firstOrNull<T>(query: PromiseLike<T[]>): Promise<T | null> {
  const [row] = await query;
  return row ?? null;
}
