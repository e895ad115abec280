import { ROUTES } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { selfKeys } from '../../../lib/self';

/** `GET /limited/2fa/disable`: cancels a setup in progress (spec §4); an enabled two-factor stays on. */
export function cancelTwoFactorSetup() {
  return apiRequest(ROUTES.cancelTwoFactorSetup, (s) => s.okResponseSchema);
}

export function useCancelTwoFactorSetup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelTwoFactorSetup,
    onSettled: () => queryClient.invalidateQueries({ queryKey: selfKeys.all }),
  });
}
