import { type ArticleBody, ROUTES } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/api-hooks';
import { articleKeys } from './list-articles';

/** `POST limited/articles`; 409 `article.duplicate_number`, 400 `article.invalid` or `article.invalid_vat_rate`. */
export function createArticle(body: ArticleBody) {
  return apiRequest(ROUTES.createArticle, (s) => s.articleSchema, { body });
}

export function useCreateArticle() {
  return useRefreshingMutation(createArticle, articleKeys.all);
}
