import { ROUTES, type StartBankVerificationBody } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `POST limited/bank-verification/start`; 502 "failure to start the onboarding flow". */
export function startBankVerification(body: StartBankVerificationBody) {
  return apiRequest(ROUTES.startBankVerification, (s) => s.startBankVerificationResponseSchema, { body });
}

export function useStartBankVerification() {
  return useMutation({ mutationFn: startBankVerification });
}
