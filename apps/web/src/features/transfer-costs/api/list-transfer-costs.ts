import { ROUTES } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { pageQueryOptions } from '../../../lib/api-hooks';

export interface TransferCostsQuery {
  page: number;
  pageSize: number;
  from?: string | undefined;
  to?: string | undefined;
}

export const transferCostKeys = {
  all: ['transfer-costs'] as const,
  list: (query: TransferCostsQuery) => ['transfer-costs', 'list', query] as const,
  detail: (id: string, page: number, pageSize: number) =>
    ['transfer-costs', 'detail', id, page, pageSize] as const,
};

/** `GET limited/transfercosts`: the issuer's settlements, newest first, filtered by created date. */
export function listTransferCosts(query: TransferCostsQuery, signal?: AbortSignal) {
  return apiRequest(ROUTES.listTransferCosts, (s) => s.listTransferCostsResponseSchema, {
    query: {
      page: query.page,
      pageSize: query.pageSize,
      from: query.from || undefined,
      to: query.to || undefined,
    },
    signal,
  });
}

export function useTransferCosts(query: TransferCostsQuery) {
  return useQuery(
    pageQueryOptions(transferCostKeys.list(query), (signal) => listTransferCosts(query, signal)),
  );
}
