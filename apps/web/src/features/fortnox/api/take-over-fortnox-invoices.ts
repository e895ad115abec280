import { ROUTES } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { fortnoxKeys } from './get-fortnox-connection';

/**
 * `POST limited/fortnox/invoices/take-over`: the chosen Fortnox invoices become pending invoices of
 * ours (each once); the answer has them for the send confirmation.
 */
export function takeOverFortnoxInvoices(documentNumbers: string[]) {
  return apiRequest(ROUTES.takeOverFortnoxInvoices, (s) => s.takeOverFortnoxInvoicesResponseSchema, {
    body: { documentNumbers },
  });
}

export function useTakeOverFortnoxInvoices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: takeOverFortnoxInvoices,
    onSettled: () => queryClient.invalidateQueries({ queryKey: fortnoxKeys.all }),
  });
}
