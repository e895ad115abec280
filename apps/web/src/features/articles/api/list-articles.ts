import { type listArticlesQuerySchema, ROUTES } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { pageQueryOptions } from '../../../lib/api-hooks';

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
  return pageQueryOptions(articleKeys.list(query), (signal) => listArticles(query, signal));
}

export function useArticles(query: ArticleListQuery) {
  return useQuery(listArticlesQueryOptions(query));
}
