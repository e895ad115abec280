import { z } from 'zod';
import { LANGUAGES } from './constants';
import { plainText } from './rules';

/** Largest page any list answers; a bigger request is refused rather than silently cut. */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 25;

export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** The paging fields of a list query: a 1-based page and a bounded page size. */
export const pageQueryShape = {
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
};

/**
 * Paging of every list: 1-based page, bounded page size, a sort field (the first by default) and order
 * (`defaultOrder` unless given: ascending, or descending for a list that opens newest first).
 */
export function listQuerySchema<const S extends readonly [string, ...string[]]>(
  sortFields: S,
  defaultOrder: SortOrder = 'asc',
) {
  return z.object({
    ...pageQueryShape,
    sort: z.enum(sortFields).default(sortFields[0] as S[number]),
    order: z.enum(SORT_ORDERS).default(defaultOrder),
    search: plainText().trim().max(100).optional(),
  });
}

/** A page of a list with the total count of everything that matched. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int().min(0),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
  });
}

/** A path parameter that names one object by its id. */
export const idParamsSchema = z.object({ id: z.uuid('validation.invalid') });

/** A download's language, the user's when left out (`?language=en-US`). */
export const languageQuerySchema = z.object({ language: z.enum(LANGUAGES).optional() });
