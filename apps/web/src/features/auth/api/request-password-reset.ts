import { SIGN_IN_ROUTES } from '@portal/contracts';
import { publicApiRequest } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';

/** `POST limited/password` {username}: a reset link by e-mail; 404 when no active user has it (spec §8). */
export function requestPasswordReset(body: { username: string }) {
  return publicApiRequest(SIGN_IN_ROUTES.requestPasswordReset, (s) => s.okResponseSchema, { body });
}

export function useRequestPasswordReset() {
  return useAction(requestPasswordReset);
}
