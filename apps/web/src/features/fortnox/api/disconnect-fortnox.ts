import { ROUTES } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { useConnectionChange } from './get-fortnox-connection';

/** `POST limited/fortnox/disconnect`: revokes the access at Fortnox and forgets the tokens. */
export function disconnectFortnox() {
  return apiRequest(ROUTES.disconnectFortnox, (s) => s.getFortnoxConnectionResponseSchema);
}

export function useDisconnectFortnox() {
  return useConnectionChange(disconnectFortnox, (queryClient) => {
    void queryClient.removeQueries({ queryKey: ['fortnox', 'invoices'] });
  });
}
