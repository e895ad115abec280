import { ROUTES } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { selfKeys } from '../../../lib/self';

/** `POST /limited/2fa/verify` {code}: a verified code enables two-factor (spec §4). */
export function verifyTwoFactor(body: { code: string }) {
  return apiRequest(ROUTES.verifyTwoFactor, (s) => s.okResponseSchema, { body });
}

export function useVerifyTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyTwoFactor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: selfKeys.all }),
  });
}
