import { type listArticlesQuerySchema, ROUTES } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { registerListCall } from '../../../lib/api-hooks';

export type ArticleListQuery = z.output<typeof listArticlesQuerySchema>;

/** `GET limited/articles`: a page of the caller's invoice articles, searched and sorted. */
const call = registerListCall<ArticleListQuery>()(
  'articles',
  ROUTES.listArticles,
  (s) => s.listArticlesResponseSchema,
);

export const articleKeys = call.keys;
export const listArticles = call.list;
export const listArticlesQueryOptions = call.queryOptions;

export function useArticles(query: ArticleListQuery) {
  return useQuery(listArticlesQueryOptions(query));
}
