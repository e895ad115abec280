import { ROUTES } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { routeAt, useRefreshingMutation } from '../../../lib/api-hooks';
import { articleKeys } from './list-articles';

/** `DELETE limited/articles/:id`; invoice rows keep their own copy of the article's fields. */
export function deleteArticle(id: string) {
  return apiRequest(routeAt(ROUTES.deleteArticle, { id }), (s) => s.okResponseSchema);
}

export function useDeleteArticle() {
  return useRefreshingMutation(deleteArticle, articleKeys.all);
}
