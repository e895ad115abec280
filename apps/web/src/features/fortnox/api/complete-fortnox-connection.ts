import { type CompleteFortnoxConnectionBody, ROUTES } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { useConnectionChange } from './get-fortnox-connection';

/** `POST limited/fortnox/callback`: the code and state Fortnox sent the browser back with. */
export function completeFortnoxConnection(body: CompleteFortnoxConnectionBody) {
  return apiRequest(ROUTES.completeFortnoxConnection, (s) => s.getFortnoxConnectionResponseSchema, { body });
}

export function useCompleteFortnoxConnection() {
  return useConnectionChange(completeFortnoxConnection);
}
