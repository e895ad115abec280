import { ROUTES } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `POST login/limited-2fa` with the first-step token and the code (spec §4, §7). */
export function login2fa(body: { token: string; code: string }) {
  return apiRequest(ROUTES.login2fa, (s) => s.login2faResponseSchema, { body });
}

export function useLogin2fa() {
  return useMutation({ mutationFn: login2fa });
}
