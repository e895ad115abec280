import { type ChangePasswordBody, ROUTES } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/api-hooks';
import { selfKeys } from '../../../lib/self';

/** `POST limited/account` {old, new}: 412 wrong old, 400 invalid new (spec §8). */
export function changePassword(body: ChangePasswordBody) {
  return apiRequest(ROUTES.changePassword, (s) => s.okResponseSchema, { body });
}

/** On success `self` is loaded again: lastPasswordChange is now set (spec §4) and the overlay may go. */
export function useChangePassword() {
  return useRefreshingMutation(changePassword, selfKeys.all);
}
