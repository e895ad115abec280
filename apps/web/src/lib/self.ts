import { ROUTES } from '@portal/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client';

export const selfKeys = { all: ['self'] as const };

/** `GET self`: user, abilities, issuer, taxRates, currencies, messages (spec §7). */
export function getSelf() {
  return apiRequest(ROUTES.getSelf, (s) => s.getSelfResponseSchema);
}

export function getSelfQueryOptions() {
  return queryOptions({ queryKey: selfKeys.all, queryFn: getSelf });
}

export function useSelf() {
  return useQuery(getSelfQueryOptions());
}
