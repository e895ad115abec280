import { ROUTES } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

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
