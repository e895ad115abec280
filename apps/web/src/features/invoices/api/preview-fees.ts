import { ROUTES } from '@portal/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST limited/invoices/fees-preview`: per invoice and per currency, the fees and what the payout run
 * would pay for these invoices (the same fee code the payout uses).
 */
export function previewFees(invoiceIDs: readonly string[], signal?: AbortSignal) {
  return apiRequest(ROUTES.previewFees, (s) => s.feesPreviewResponseSchema, {
    body: { invoiceIDs },
    signal,
  });
}

/** The preview of the chosen invoices (at most 200, the server's limit); nothing while none is chosen. */
export function useFeesPreview(invoiceIDs: readonly string[]) {
  const ids = [...invoiceIDs].sort().slice(0, 200);
  return useQuery({
    queryKey: ['invoices', 'fees-preview', ids] as const,
    queryFn: ({ signal }) => previewFees(ids, signal),
    enabled: ids.length > 0,
    placeholderData: keepPreviousData,
  });
}
