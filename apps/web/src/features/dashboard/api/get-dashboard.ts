import { ROUTES } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** `GET limited/dashboard`: the issuer's top customers, sales and overdue buckets (spec §1). */
export function getDashboard(signal?: AbortSignal) {
  return apiRequest(ROUTES.getDashboard, (s) => s.dashboardResponseSchema, { signal });
}

export function dashboardQueryOptions() {
  return queryOptions({ queryKey: ['dashboard'] as const, queryFn: ({ signal }) => getDashboard(signal) });
}

export function useDashboard() {
  return useQuery(dashboardQueryOptions());
}
