import { ROUTES } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { routeAt, useRefreshingMutation } from '../../../lib/api-hooks';
import { recipientKeys } from './list-recipients';

/** `DELETE limited/recipients/:id`; 409 `recipient.in_use` while articles or invoices use it. */
export function deleteRecipient(id: string) {
  return apiRequest(routeAt(ROUTES.deleteRecipient, { id }), (s) => s.okResponseSchema);
}

export function useDeleteRecipient() {
  return useRefreshingMutation(deleteRecipient, recipientKeys.all);
}
