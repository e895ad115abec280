import { type CompleteBankVerificationBody, ROUTES } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { bankVerificationKeys } from './get-bank-verification';

/** `POST limited/bank-verification/callback`: the provider's answer as the success page got it. */
export function completeBankVerification(body: CompleteBankVerificationBody) {
  return apiRequest(ROUTES.completeBankVerification, (s) => s.completeBankVerificationResponseSchema, {
    body,
  });
}

/** On success the account, `self` (the banner) and the messages (the notice) are read again. */
export function useCompleteBankVerification(onVerified: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeBankVerification,
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: bankVerificationKeys.all });
      if (result.status === 'verified') onVerified();
    },
  });
}
