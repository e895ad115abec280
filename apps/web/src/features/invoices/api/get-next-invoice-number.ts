import { ROUTES } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { invoiceKeys } from './list-invoices';

// Not in the contracts (the server declares it in its route file); see list-pending-invoices.ts.
const getNextInvoiceNumberResponseSchema = z.object({ invoiceNumber: z.string() });

/** `GET limited/invoices/next-number`: a suggested number, the largest used plus one. */
export function getNextInvoiceNumber(signal?: AbortSignal) {
  return apiRequest(ROUTES.getNextInvoiceNumber, () => getNextInvoiceNumberResponseSchema, { signal });
}

export function getNextInvoiceNumberQueryOptions() {
  return queryOptions({
    queryKey: invoiceKeys.nextNumber(),
    queryFn: ({ signal }) => getNextInvoiceNumber(signal),
    // A suggestion goes stale as soon as anyone registers an invoice.
    staleTime: 0,
  });
}

export function useNextInvoiceNumber({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...getNextInvoiceNumberQueryOptions(), enabled });
}
