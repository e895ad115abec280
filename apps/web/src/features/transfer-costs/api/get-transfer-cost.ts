import { ROUTES } from '@portal/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { routeAt } from '../../../lib/api-hooks';
import { transferCostKeys } from './list-transfer-costs';

/** `GET limited/transfercosts/:id`: one settlement with a page of its rows. */
export function getTransferCost(id: string, page: number, pageSize: number, signal?: AbortSignal) {
  return apiRequest(routeAt(ROUTES.getTransferCost, { id }), (s) => s.transferCostDetailSchema, {
    query: { page, pageSize },
    signal,
  });
}

export function useTransferCost(id: string | null, page: number, pageSize: number) {
  return useQuery({
    queryKey: transferCostKeys.detail(id ?? '', page, pageSize),
    queryFn: ({ signal }) => getTransferCost(id ?? '', page, pageSize, signal),
    enabled: id !== null,
    placeholderData: keepPreviousData,
  });
}
