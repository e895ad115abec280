import { ROUTES } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { bankVerificationKeys } from './get-bank-verification';

/** `GET limited/bank-verification/banks`: the banks of the issuer's country; 502 "failure to fetch banks". */
export function listVerificationBanks(signal?: AbortSignal) {
  return apiRequest(ROUTES.listVerificationBanks, (s) => s.listVerificationBanksResponseSchema, { signal });
}

export function useVerificationBanks() {
  return useQuery({
    queryKey: bankVerificationKeys.banks(),
    queryFn: ({ signal }) => listVerificationBanks(signal),
    // The provider's failure is shown at once with a "try again" button, not retried behind a spinner.
    retry: false,
  });
}
