import { type ArticleBody, ROUTES } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { routeAt, useRefreshingMutation } from '../../../lib/api-hooks';
import { articleKeys } from './list-articles';

/** `PUT limited/articles/:id`; the errors of createArticle, and 404 `article.not_found`. */
export function updateArticle({ id, body }: { id: string; body: ArticleBody }) {
  return apiRequest(routeAt(ROUTES.updateArticle, { id }), (s) => s.articleSchema, { body });
}

export function useUpdateArticle() {
  return useRefreshingMutation(updateArticle, articleKeys.all);
}
