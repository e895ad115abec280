import { ROUTES } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { routeAt } from '../../../lib/api-hooks';

export const debtClaimKeys = {
  all: ['debt-claims'] as const,
  list: () => ['debt-claims', 'list'] as const,
  detail: (id: string) => ['debt-claims', 'detail', id] as const,
};

/** `GET limited/debtclaims`: what the issuer owes us, claim by claim, newest first. */
export function listDebtClaims(signal?: AbortSignal) {
  return apiRequest(ROUTES.listDebtClaims, (s) => s.listDebtClaimsResponseSchema, { signal });
}

export function useDebtClaims() {
  return useQuery({ queryKey: debtClaimKeys.list(), queryFn: ({ signal }) => listDebtClaims(signal) });
}

/** `GET limited/debtclaims/:id`: one claim's statement, its rows and payments. */
export function getDebtClaim(id: string, signal?: AbortSignal) {
  return apiRequest(routeAt(ROUTES.getDebtClaim, { id }), (s) => s.debtClaimDetailSchema, { signal });
}

export function useDebtClaim(id: string) {
  return useQuery({ queryKey: debtClaimKeys.detail(id), queryFn: ({ signal }) => getDebtClaim(id, signal) });
}
