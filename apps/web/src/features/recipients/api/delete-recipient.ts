import { buildPath, ROUTES } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { recipientKeys } from './list-recipients';

/** `DELETE limited/recipients/:id`; 409 `recipient.in_use` while articles or invoices use it. */
export function deleteRecipient(id: string) {
  return apiRequest(
    { method: ROUTES.deleteRecipient.method, path: buildPath(ROUTES.deleteRecipient.path, { id }) },
    (s) => s.okResponseSchema,
  );
}

export function useDeleteRecipient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRecipient,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: recipientKeys.all }),
  });
}
