import { ROUTES } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `POST limited/fortnox/connect`: where the browser goes to approve the access in Fortnox. */
export function startFortnoxConnection() {
  return apiRequest(ROUTES.startFortnoxConnection, (s) => s.startFortnoxConnectionResponseSchema);
}

export function useStartFortnoxConnection() {
  return useMutation({ mutationFn: startFortnoxConnection });
}
