import { ROUTES, type SaveIssuerInfoBody } from '@portal/contracts';
import { apiRequest } from '../../../lib/api-client';
import { useRefreshingMutation } from '../../../lib/api-hooks';
import { selfKeys } from '../../../lib/self';

/** `POST limited/issuerInfo` (spec §7); 400 `issuer.invalid` with field issues (spec §8). */
export function saveIssuerInfo(body: SaveIssuerInfoBody) {
  return apiRequest(ROUTES.saveIssuerInfo, (s) => s.saveIssuerInfoResponseSchema, { body });
}

export function useSaveIssuerInfo() {
  return useRefreshingMutation(saveIssuerInfo, selfKeys.all);
}
