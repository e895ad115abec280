import { type AnyColumn, asc, desc, ilike, or, type SQL } from 'drizzle-orm';

/** A LIKE pattern that finds `text` anywhere, with the user's `%`, `_` and `\` taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Rows where any of `columns` contains `text` (case-insensitive); undefined when there is no text. */
export function searchAny(text: string | undefined, columns: AnyColumn[]): SQL | undefined {
  if (!text) return undefined;
  const pattern = containsPattern(text);
  return or(...columns.map((column) => ilike(column, pattern)));
}

/** A list page's order: the chosen column in the asked direction, then the id, so equal values keep one order. */
export function pageOrder(column: AnyColumn, order: 'asc' | 'desc', id: AnyColumn): SQL[] {
  return [order === 'asc' ? asc(column) : desc(column), asc(id)];
}
