import { type LoginBody, ROUTES } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `POST login/limited` (spec §7); the body carries `group` on a group login. */
export function login(body: LoginBody) {
  return apiRequest(ROUTES.login, (s) => s.loginResponseSchema, { body });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
