import { buildPath } from '@portal/contracts';
import {
  keepPreviousData,
  type QueryClient,
  type QueryKey,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import type { ApiRoute } from './api-client';

/** A contract route with its `:name` parameters filled in, e.g. `routeAt(ROUTES.getInvoice, { id })`. */
export function routeAt(route: ApiRoute, params: Record<string, string>): ApiRoute {
  return { method: route.method, path: buildPath(route.path, params) };
}

/**
 * A server call whose success makes the cached queries under `queryKey` stale, so the screens showing
 * them load again; the mutation settles once they have. `onSuccess` runs first, e.g. to put the answer
 * into the cache.
 */
export function useRefreshingMutation<V, R>(
  mutationFn: (variables: V) => Promise<R>,
  queryKey: QueryKey,
  onSuccess?: (result: R, queryClient: QueryClient) => void,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (result: R) => {
      onSuccess?.(result, queryClient);
      return queryClient.invalidateQueries({ queryKey });
    },
  });
}

/**
 * The query of a page of a list: `fetch` with the query's abort signal, and the previous page kept on
 * screen while the next one loads (the table does not fall back to a spinner between pages).
 */
export function pageQueryOptions<K extends QueryKey, R>(
  queryKey: K,
  fetch: (signal: AbortSignal) => Promise<R>,
) {
  return queryOptions({
    queryKey,
    queryFn: ({ signal }) => fetch(signal),
    placeholderData: keepPreviousData,
  });
}
