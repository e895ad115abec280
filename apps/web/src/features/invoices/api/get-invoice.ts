import { ROUTES } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { routeAt } from '../../../lib/api-hooks';
import { invoiceKeys } from './list-invoices';

/** `GET limited/invoices/:id`: one invoice with rows, VAT per rate, documents and timeline. */
export function getInvoice(id: string, signal?: AbortSignal) {
  return apiRequest(routeAt(ROUTES.getInvoice, { id }), (s) => s.invoiceDetailSchema, { signal });
}

export function getInvoiceQueryOptions(id: string) {
  return queryOptions({
    queryKey: invoiceKeys.detail(id),
    queryFn: ({ signal }) => getInvoice(id, signal),
  });
}

export function useInvoice(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getInvoiceQueryOptions(id), enabled });
}
