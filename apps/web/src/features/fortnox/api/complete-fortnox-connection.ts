import { type CompleteFortnoxConnectionBody, ROUTES } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { selfKeys } from '../../../lib/self';
import { fortnoxKeys } from './get-fortnox-connection';

/** `POST limited/fortnox/callback`: the code and state Fortnox sent the browser back with. */
export function completeFortnoxConnection(body: CompleteFortnoxConnectionBody) {
  return apiRequest(ROUTES.completeFortnoxConnection, (s) => s.getFortnoxConnectionResponseSchema, { body });
}

export function useCompleteFortnoxConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeFortnoxConnection,
    onSuccess: (connection) => {
      queryClient.setQueryData(fortnoxKeys.connection(), connection);
      // The menu's note follows fortnoxSetting.active.
      void queryClient.invalidateQueries({ queryKey: selfKeys.all });
    },
  });
}
