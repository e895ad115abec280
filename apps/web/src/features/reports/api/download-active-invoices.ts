import { captureEvent } from '../../../lib/analytics';
import { downloadFile } from '../../../lib/download';

/**
 * `GET limited/reports/activeInvoices` (spec §7). Not in contracts ROUTES yet: the reports issue
 * adds the server side, so the route is described here.
 */
export const ACTIVE_INVOICES_ROUTE = { method: 'GET', path: '/api/limited/reports/activeInvoices' } as const;

/** Downloads the active invoices file; a failure sends the analytics failure event (spec §8). */
export async function downloadActiveInvoices(): Promise<boolean> {
  const ok = await downloadFile(ACTIVE_INVOICES_ROUTE, 'active-invoices.xlsx');
  if (!ok) captureEvent('report_download_failed', { report: 'active_invoices' });
  return ok;
}
