import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';

/** The paging, sort and search every list takes (contracts `listQuerySchema`). */
export interface ListQuery<S extends string = string> {
  page: number;
  pageSize: number;
  sort: S;
  order: 'asc' | 'desc';
  search?: string | undefined;
}

/** Parses the URL with the contract's query schema; a value the schema refuses falls back to its default. */
export function parseListQuery<Q extends ListQuery>(schema: z.ZodType<Q>, params: URLSearchParams): Q {
  const raw: Record<string, string> = Object.fromEntries(params);
  for (let attempt = 0; attempt < 6; attempt++) {
    const result = schema.safeParse(raw);
    if (result.success) return result.data;
    for (const issue of result.error.issues) delete raw[String(issue.path[0])];
  }
  return schema.parse({});
}

/**
 * A list's query kept in the URL (so a reload, a shared link and the back button keep the page, the
 * sort and the search), read with the same contract schema the server validates with.
 */
export function useListParams<Q extends ListQuery>(
  schema: z.ZodType<Q>,
): [Q, (patch: Partial<Q>, options?: { replace?: boolean }) => void] {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `params`, whose identity changes on every render.
  const query = useMemo(() => parseListQuery(schema, params), [schema, key]);
  const defaults = useMemo(() => schema.parse({}), [schema]);

  const update = useCallback(
    (patch: Partial<Q>, options: { replace?: boolean } = {}) => {
      const next: Record<string, unknown> = { ...query, ...patch };
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(next)) {
        if (value === undefined || value === '' || value === defaults[name as keyof Q]) continue;
        search.set(name, String(value));
      }
      setParams(search, { replace: options.replace ?? false });
    },
    [query, defaults, setParams],
  );
  return [query, update];
}
