import type { listArticlesQuerySchema } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { registerListCall } from '../../../lib/api-hooks';

export type ArticleListQuery = z.output<typeof listArticlesQuerySchema>;

/** `GET limited/articles`: a page of the caller's invoice articles, searched and sorted. */
const call = registerListCall<ArticleListQuery>()('articles', 'listArticles');

export const articleKeys = call.keys;
export const listArticles = call.list;

export function useArticles(query: ArticleListQuery) {
  return useQuery(call.queryOptions(query));
}
