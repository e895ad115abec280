import { type RecipientBody, ROUTES } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { recipientKeys } from './list-recipients';

/** `POST limited/recipients`; 400 `recipient.invalid` with field issues (spec §5). */
export function createRecipient(body: RecipientBody) {
  return apiRequest(ROUTES.createRecipient, (s) => s.recipientSchema, { body });
}

export function useCreateRecipient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRecipient,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: recipientKeys.all }),
  });
}
