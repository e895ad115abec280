import { type FortnoxConnection, ROUTES } from '@portal/contracts';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { selfKeys } from '../../../lib/self';

export const fortnoxKeys = {
  all: ['fortnox'] as const,
  connection: () => ['fortnox', 'connection'] as const,
  invoices: (page: number) => ['fortnox', 'invoices', page] as const,
};

/** `GET limited/fortnox`: the issuer's Fortnox connection (not connected, active, revoked and why). */
export function getFortnoxConnection(signal?: AbortSignal) {
  return apiRequest(ROUTES.getFortnoxConnection, (s) => s.getFortnoxConnectionResponseSchema, { signal });
}

export function useFortnoxConnection(enabled = true) {
  return useQuery({
    queryKey: fortnoxKeys.connection(),
    queryFn: ({ signal }) => getFortnoxConnection(signal),
    enabled,
  });
}

/**
 * A call that changes the Fortnox connection and answers with it (complete, disconnect): the answer
 * becomes the cached connection, `onChanged` drops what the change makes stale, and the user loads
 * again (the menu's note follows fortnoxSetting.active).
 */
export function useConnectionChange<V>(
  change: (variables: V) => Promise<FortnoxConnection>,
  onChanged?: (queryClient: QueryClient) => void,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (connection) => {
      queryClient.setQueryData(fortnoxKeys.connection(), connection);
      onChanged?.(queryClient);
      void queryClient.invalidateQueries({ queryKey: selfKeys.all });
    },
  });
}
