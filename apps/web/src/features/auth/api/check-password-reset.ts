import { buildPath, SIGN_IN_ROUTES } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicApiRequest } from '../../../lib/api-client';

/** Checks that a reset link is still usable; 404 `password.reset_not_found` otherwise (spec §8). */
export function checkPasswordReset(hash: string) {
  return publicApiRequest(
    {
      method: SIGN_IN_ROUTES.checkPasswordReset.method,
      path: buildPath(SIGN_IN_ROUTES.checkPasswordReset.path, { hash }),
    },
    (s) => s.okResponseSchema,
  );
}

export function checkPasswordResetQueryOptions(hash: string) {
  return queryOptions({
    queryKey: ['password-reset', hash] as const,
    queryFn: () => checkPasswordReset(hash),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useCheckPasswordReset(hash: string) {
  return useQuery(checkPasswordResetQueryOptions(hash));
}
