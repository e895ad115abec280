import { type ConfirmBankAccountChangeBody, ROUTES } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { bankVerificationKeys } from './get-bank-verification';

/** `POST limited/bank-verification/confirm`: the user's two-factor code makes the new account the issuer's. */
export function confirmBankAccountChange(body: ConfirmBankAccountChangeBody) {
  return apiRequest(ROUTES.confirmBankAccountChange, (s) => s.completeBankVerificationResponseSchema, {
    body,
  });
}

/** On success the account, `self` and the messages (the notice of the change) are read again. */
export function useConfirmBankAccountChange(onVerified: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmBankAccountChange,
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: bankVerificationKeys.all });
      if (result.status === 'verified') onVerified();
    },
  });
}
