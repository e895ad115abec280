import { ROUTES } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/api-hooks';
import { selfKeys } from '../../../lib/self';

/** `POST /limited/2fa/verify` {code}: a verified code enables two-factor (spec §4). */
export function verifyTwoFactor(body: { code: string }) {
  return apiRequest(ROUTES.verifyTwoFactor, (s) => s.okResponseSchema, { body });
}

export function useVerifyTwoFactor() {
  return useRefreshingMutation(verifyTwoFactor, selfKeys.all);
}
