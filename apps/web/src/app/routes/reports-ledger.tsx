import '../../features/invoices/texts';
import { LedgerPage } from '../../features/reports/ledger/ledger-page';

/** `/reports/ledger` (spec §2, §3), guarded by `limited_report_ledger`. */
export default function ReportsLedgerRoute() {
  return <LedgerPage />;
}
