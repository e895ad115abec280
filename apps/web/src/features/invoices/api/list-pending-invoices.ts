import { invoiceSummarySchema, ROUTES } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { invoiceKeys } from './list-invoices';

// The contracts have no schema for this answer (the server declares it in its route file), so it is
// put together here from the contract's invoice summary.
const listPendingInvoicesResponseSchema = z.object({ items: z.array(invoiceSummarySchema) });

/** `GET limited/invoices/pending`: the registered invoices not sent yet (the send page). */
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
