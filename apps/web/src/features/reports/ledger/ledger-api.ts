import { type LedgerExportQuery, type ledgerQuerySchema, ROUTES } from '@portal/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';

export type LedgerListQuery = z.output<typeof ledgerQuerySchema>;

/** `GET limited/reports/ledger`: a page of the open ledger as of a date, with totals per currency. */
export function useLedger(query: LedgerListQuery) {
  return useQuery({
    queryKey: ['reports', 'ledger', query],
    queryFn: ({ signal }) =>
      apiRequest(ROUTES.getLedgerReport, (s) => s.ledgerResponseSchema, { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** `GET limited/reports/ledger/export`: the ledger file, named by the server. */
export function downloadLedger(query: LedgerExportQuery): Promise<boolean> {
  const extension = query.fileType === 'pdf' ? 'pdf' : 'xlsx';
  return downloadFile(ROUTES.exportLedgerReport, `ledger-${query.date}.${extension}`, { query });
}
