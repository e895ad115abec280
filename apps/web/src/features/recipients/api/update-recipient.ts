import { buildPath, type RecipientBody, ROUTES } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { recipientKeys } from './list-recipients';

/** `PUT limited/recipients/:id`; 400 `recipient.invalid` with field issues, 404 `recipient.not_found`. */
export function updateRecipient({ id, body }: { id: string; body: RecipientBody }) {
  return apiRequest(
    { method: ROUTES.updateRecipient.method, path: buildPath(ROUTES.updateRecipient.path, { id }) },
    (s) => s.recipientSchema,
    { body },
  );
}

export function useUpdateRecipient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRecipient,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: recipientKeys.all }),
  });
}
