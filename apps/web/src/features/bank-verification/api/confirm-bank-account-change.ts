import { type ConfirmBankAccountChangeBody, ROUTES } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { useVerificationAnswer } from './verification-answer';

/** `POST limited/bank-verification/confirm`: the user's two-factor code makes the new account the issuer's. */
export function confirmBankAccountChange(body: ConfirmBankAccountChangeBody) {
  return apiRequest(ROUTES.confirmBankAccountChange, (s) => s.completeBankVerificationResponseSchema, {
    body,
  });
}

/** On success the account, `self` and the messages (the notice of the change) are read again. */
export function useConfirmBankAccountChange(onVerified: () => void) {
  return useVerificationAnswer(confirmBankAccountChange, onVerified);
}
