import { buildPath, ROUTES } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invoiceKeys } from './list-invoices';

/** `DELETE limited/invoices/:id`: deletes a pending invoice (kept as state 11 for the history). */
export function deleteInvoice(id: string) {
  return apiRequest(
    { method: ROUTES.deleteInvoice.method, path: buildPath(ROUTES.deleteInvoice.path, { id }) },
    (s) => s.okResponseSchema,
  );
}

export function useDeleteInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteInvoice,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invoiceKeys.all }),
  });
}
