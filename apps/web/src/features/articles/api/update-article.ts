import { type ArticleBody, buildPath, ROUTES } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { articleKeys } from './list-articles';

/** `PUT limited/articles/:id`; the errors of createArticle, and 404 `article.not_found`. */
export function updateArticle({ id, body }: { id: string; body: ArticleBody }) {
  return apiRequest(
    { method: ROUTES.updateArticle.method, path: buildPath(ROUTES.updateArticle.path, { id }) },
    (s) => s.articleSchema,
    { body },
  );
}

export function useUpdateArticle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateArticle,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: articleKeys.all }),
  });
}
