import { listPendingInvoicesResponseSchema, ROUTES } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { invoiceKeys } from './list-invoices';

/**
 * `GET limited/invoices/pending`: the registered invoices not sent yet (the send page), each with the
 * due-date rule it breaks, if any (`sendCode`, as of the server's today).
 */
export function listPendingInvoices(signal?: AbortSignal) {
  return apiRequest(ROUTES.listPendingInvoices, () => listPendingInvoicesResponseSchema, { signal });
}

export function listPendingInvoicesQueryOptions() {
  return queryOptions({
    queryKey: invoiceKeys.pending(),
    queryFn: ({ signal }) => listPendingInvoices(signal),
  });
}

export function usePendingInvoices() {
  return useQuery(listPendingInvoicesQueryOptions());
}
