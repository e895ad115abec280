import { ROUTES } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { selfKeys } from './get-self';

/** `POST /limited/2fa/disable`: turns an enabled two-factor off after the confirmation (spec §4). */
export function disableTwoFactor() {
  return apiRequest(ROUTES.disableTwoFactor, (s) => s.okResponseSchema);
}

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableTwoFactor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: selfKeys.all }),
  });
}
