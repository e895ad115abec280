import { ROUTES } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const bankVerificationKeys = {
  all: ['bank-verification'] as const,
  current: () => ['bank-verification', 'current'] as const,
  banks: () => ['bank-verification', 'banks'] as const,
};

/** `GET limited/bank-verification`: the issuer's current verified account (masked), or null. */
export function getBankVerification(signal?: AbortSignal) {
  return apiRequest(ROUTES.getBankVerification, (s) => s.getBankVerificationResponseSchema, { signal });
}

export function useBankVerification() {
  return useQuery({
    queryKey: bankVerificationKeys.current(),
    queryFn: ({ signal }) => getBankVerification(signal),
  });
}
