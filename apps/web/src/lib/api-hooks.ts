import { buildPath, type OperationId, ROUTES } from '@portal/contracts';
import {
  keepPreviousData,
  type QueryClient,
  type QueryKey,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import type { z } from 'zod';
import { type ApiRoute, apiRequest } from './api-client';
import type { Schemas } from './load-schemas';

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

/**
 * The list call of a register the user searches and sorts (articles, recipients): `GET` of the
 * contract's operation `op`, parsed with its `<op>ResponseSchema`, with an empty search left out; the
 * query keys under `name` (`all` is what a change of the register refreshes), and the page query
 * options that keep the previous page on screen while the next loads. The query's type is given first
 * (`registerListCall<ArticleListQuery>()('articles', 'listArticles')`); the rest is inferred.
 */
export function registerListCall<Q extends { search?: string | undefined }>() {
  return <const N extends string, O extends OperationId & AnsweredOperation>(name: N, op: O) => {
    const keys = {
      all: [name] as const,
      list: (query: Q) => [name, 'list', query] as const,
    };
    const pick = (schemas: Schemas) => schemas[`${op}ResponseSchema`] as ResponseSchemaOf<O>;
    const list = (query: Q, signal?: AbortSignal): Promise<z.infer<ResponseSchemaOf<O>>> =>
      apiRequest(ROUTES[op], pick, { query: { ...query, search: query.search || undefined }, signal });
    const listQueryOptions = (query: Q) =>
      pageQueryOptions(keys.list(query), (signal) => list(query, signal));
    return { keys, list, queryOptions: listQueryOptions };
  };
}

/** The answer schema of a list operation. */
type ResponseSchemaOf<O extends AnsweredOperation> = Schemas[`${O}ResponseSchema`] & z.ZodType;

/** The operations whose answer schema the signed-in screens' schemas hold as `<op>ResponseSchema`. */
type AnsweredOperation = {
  [K in keyof Schemas]: K extends `${infer O}ResponseSchema` ? O : never;
}[keyof Schemas];
