import { ROUTES, type SaveIssuerInfoBody } from '@portal/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { selfKeys } from '../../../lib/self';

/** `POST limited/issuerInfo` (spec §7); 400 `issuer.invalid` with field issues (spec §8). */
export function saveIssuerInfo(body: SaveIssuerInfoBody) {
  return apiRequest(ROUTES.saveIssuerInfo, (s) => s.saveIssuerInfoResponseSchema, { body });
}

export function useSaveIssuerInfo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveIssuerInfo,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: selfKeys.all }),
  });
}
