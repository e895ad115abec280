import { ROUTES } from '@portal/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { fortnoxKeys } from './get-fortnox-connection';

/** `GET limited/fortnox/invoices`: one page of the company's unpaid invoices, as Fortnox pages them. */
export function listFortnoxInvoices(page: number, signal?: AbortSignal) {
  return apiRequest(ROUTES.listFortnoxInvoices, (s) => s.listFortnoxInvoicesResponseSchema, {
    query: { page },
    signal,
  });
}

export function useFortnoxInvoices(page: number, enabled: boolean) {
  return useQuery({
    queryKey: fortnoxKeys.invoices(page),
    queryFn: ({ signal }) => listFortnoxInvoices(page, signal),
    enabled,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
