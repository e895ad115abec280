import { SIGN_IN_ROUTES } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { publicApiRequest } from '../../../lib/api-client';

/** Sets a new password through a reset link (spec §2 password.reset). */
export function resetPassword(body: { hash: string; new: string }) {
  return publicApiRequest(SIGN_IN_ROUTES.resetPassword, (s) => s.okResponseSchema, { body });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
