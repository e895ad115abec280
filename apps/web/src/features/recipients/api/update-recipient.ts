import { type RecipientBody, ROUTES } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { routeAt, useRefreshingMutation } from '../../../lib/api-hooks';
import { recipientKeys } from './list-recipients';

/** `PUT limited/recipients/:id`; 400 `recipient.invalid` with field issues, 404 `recipient.not_found`. */
export function updateRecipient({ id, body }: { id: string; body: RecipientBody }) {
  return apiRequest(routeAt(ROUTES.updateRecipient, { id }), (s) => s.recipientSchema, { body });
}

export function useUpdateRecipient() {
  return useRefreshingMutation(updateRecipient, recipientKeys.all);
}
