import { buildPath, ROUTES } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { articleKeys } from './list-articles';

/** `DELETE limited/articles/:id`; invoice rows keep their own copy of the article's fields. */
export function deleteArticle(id: string) {
  return apiRequest(
    { method: ROUTES.deleteArticle.method, path: buildPath(ROUTES.deleteArticle.path, { id }) },
    (s) => s.okResponseSchema,
  );
}

export function useDeleteArticle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteArticle,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: articleKeys.all }),
  });
}
