import { buildPath } from '@portal/contracts';
import { type QueryClient, type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
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
