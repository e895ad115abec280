import { type LoginBody, SIGN_IN_ROUTES } from '@portal/contracts';
import { publicApiRequest } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';

/** `POST login/limited` (spec §7); the body carries `group` on a group login. */
export function login(body: LoginBody) {
  return publicApiRequest(SIGN_IN_ROUTES.login, (s) => s.loginResponseSchema, { body });
}

export function useLogin() {
  return useAction(login);
}
