import { type listArticlesQuerySchema, ROUTES } from '@portal/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export type ArticleListQuery = z.output<typeof listArticlesQuerySchema>;

export const articleKeys = {
  all: ['articles'] as const,
  list: (query: ArticleListQuery) => ['articles', 'list', query] as const,
};

/** `GET limited/articles`: a page of the caller's invoice articles, searched and sorted. */
export function listArticles(query: ArticleListQuery, signal?: AbortSignal) {
  return apiRequest(ROUTES.listArticles, (s) => s.listArticlesResponseSchema, {
    query: { ...query, search: query.search || undefined },
    signal,
  });
}

export function listArticlesQueryOptions(query: ArticleListQuery) {
  return queryOptions({
    queryKey: articleKeys.list(query),
    queryFn: ({ signal }) => listArticles(query, signal),
    // The table keeps the previous page on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
}

export function useArticles(query: ArticleListQuery) {
  return useQuery(listArticlesQueryOptions(query));
}
