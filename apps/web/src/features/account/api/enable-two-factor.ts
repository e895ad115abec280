import { ROUTES } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `GET /limited/2fa/enable`: starts setup and answers the QR image and secret (spec §4, §7). */
export function enableTwoFactor() {
  return apiRequest(ROUTES.enableTwoFactor, (s) => s.enableTwoFactorResponseSchema);
}

export function useEnableTwoFactor() {
  return useMutation({ mutationFn: enableTwoFactor });
}
