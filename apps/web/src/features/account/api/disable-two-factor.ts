import { type DisableTwoFactorBody, ROUTES } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/api-hooks';
import { selfKeys } from '../../../lib/self';

/**
 * `POST /limited/2fa/disable` {code}: turns an enabled two-factor off after the confirmation (spec §4);
 * the server wants a current code of the app, so a session alone cannot turn it off.
 */
export function disableTwoFactor(body: DisableTwoFactorBody) {
  return apiRequest(ROUTES.disableTwoFactor, (s) => s.okResponseSchema, { body });
}

export function useDisableTwoFactor() {
  return useRefreshingMutation(disableTwoFactor, selfKeys.all);
}
