import { ROUTES } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { selfKeys } from '../../../lib/self';
import { fortnoxKeys } from './get-fortnox-connection';

/** `POST limited/fortnox/disconnect`: revokes the access at Fortnox and forgets the tokens. */
export function disconnectFortnox() {
  return apiRequest(ROUTES.disconnectFortnox, (s) => s.getFortnoxConnectionResponseSchema);
}

export function useDisconnectFortnox() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disconnectFortnox,
    onSuccess: (connection) => {
      queryClient.setQueryData(fortnoxKeys.connection(), connection);
      void queryClient.removeQueries({ queryKey: ['fortnox', 'invoices'] });
      void queryClient.invalidateQueries({ queryKey: selfKeys.all });
    },
  });
}
