import { type RecipientBody, ROUTES } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/api-hooks';
import { recipientKeys } from './list-recipients';

/** `POST limited/recipients`; 400 `recipient.invalid` with field issues (spec §5). */
export function createRecipient(body: RecipientBody) {
  return apiRequest(ROUTES.createRecipient, (s) => s.recipientSchema, { body });
}

export function useCreateRecipient() {
  return useRefreshingMutation(createRecipient, recipientKeys.all);
}
