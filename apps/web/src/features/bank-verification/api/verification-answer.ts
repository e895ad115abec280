import type { CompleteBankVerificationResponse } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bankVerificationKeys } from './get-bank-verification';

/**
 * A call that may finish a verification (the provider's answer, the two-factor confirmation): the
 * account is read again, and `onVerified` runs when the answer says verified.
 */
export function useVerificationAnswer<V>(
  call: (variables: V) => Promise<CompleteBankVerificationResponse>,
  onVerified: () => void,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: bankVerificationKeys.all });
      if (result.status === 'verified') onVerified();
    },
  });
}
