import { ROUTES } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `POST logout` ends the session on the server. */
export function logout() {
  return apiRequest(ROUTES.logout, (s) => s.okResponseSchema);
}

export function useLogout() {
  return useMutation({ mutationFn: logout });
}
