import { type ActiveRegressQuery, ROUTES } from '@portal/contracts';
import { downloadFile } from '../../../lib/download';

/**
 * `GET limited/reports/activeRegress&from=&to=&fileType=` (spec §7), sent as a query string. Downloads
 * the regress report; a failure is silent (spec §8), so this never throws.
 */
export function downloadActiveRegress(query: ActiveRegressQuery): Promise<boolean> {
  const extension = query.fileType === 'pdf' ? 'pdf' : 'xlsx';
  return downloadFile(ROUTES.downloadActiveRegress, `active-regress-${query.from}-${query.to}.${extension}`, {
    query,
  });
}
