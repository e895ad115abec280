import type { ActiveRegressQuery } from '@portal/contracts';
import { downloadFile } from '../../../lib/download';

/**
 * `GET limited/reports/activeRegress&from=&to=&fileType=` (spec §7), sent as a query string. Not in
 * contracts ROUTES yet: the reports issue adds the server side.
 */
export const ACTIVE_REGRESS_ROUTE = { method: 'GET', path: '/api/limited/reports/activeRegress' } as const;

/** Downloads the regress report; a failure is silent (spec §8), so this never throws. */
export function downloadActiveRegress(query: ActiveRegressQuery): Promise<boolean> {
  const extension = query.fileType === 'pdf' ? 'pdf' : 'xlsx';
  return downloadFile(ACTIVE_REGRESS_ROUTE, `active-regress-${query.from}-${query.to}.${extension}`, {
    query,
  });
}
