import { SIGN_IN_ROUTES } from '@portal/contracts';
import { publicApiRequest } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';

/** `POST login/limited-2fa` with the first-step token and the code (spec §4, §7). */
export function login2fa(body: { token: string; code: string }) {
  return publicApiRequest(SIGN_IN_ROUTES.login2fa, (s) => s.login2faResponseSchema, { body });
}

export function useLogin2fa() {
  return useAction(login2fa);
}
