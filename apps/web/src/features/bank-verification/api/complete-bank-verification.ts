import { type CompleteBankVerificationBody, ROUTES } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { useVerificationAnswer } from './verification-answer';

/** `POST limited/bank-verification/callback`: the provider's answer as the success page got it. */
export function completeBankVerification(body: CompleteBankVerificationBody) {
  return apiRequest(ROUTES.completeBankVerification, (s) => s.completeBankVerificationResponseSchema, {
    body,
  });
}

/** On success the account, `self` (the banner) and the messages (the notice) are read again. */
export function useCompleteBankVerification(onVerified: () => void) {
  return useVerificationAnswer(completeBankVerification, onVerified);
}
