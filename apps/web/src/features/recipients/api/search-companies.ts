import { ROUTES } from '@portal/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/**
 * `GET limited/companies?query=`: companies in the register by name or organisation number, to fill
 * the recipient form. 422 `company.too_many_results` when the search is too wide (spec §8).
 */
export function searchCompanies(query: string) {
  return apiRequest(ROUTES.searchCompanies, (s) => s.searchCompaniesResponseSchema, { query: { query } });
}

/** A search the user starts with a button, so a mutation: it runs once per press, not on every render. */
export function useSearchCompanies() {
  return useMutation({ mutationFn: searchCompanies });
}
