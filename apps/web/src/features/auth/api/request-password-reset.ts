import { ROUTES } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `POST limited/password` {username}: a reset link by e-mail; 404 when no active user has it (spec §8). */
export function requestPasswordReset(body: { username: string }) {
  return apiRequest(ROUTES.requestPasswordReset, (s) => s.okResponseSchema, { body });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
