import { ROUTES } from '@portal/contracts';
import { captureEvent } from '../../../lib/analytics';
import { downloadFile } from '../../../lib/download';

/**
 * `GET limited/reports/activeInvoices` (spec §7). Downloads the active invoices file; a failure sends
 * the analytics failure event (spec §8).
 */
export async function downloadActiveInvoices(): Promise<boolean> {
  const ok = await downloadFile(ROUTES.downloadActiveInvoices, 'active-invoices.xlsx');
  if (!ok) captureEvent('report_download_failed', { report: 'active_invoices' });
  return ok;
}
