import { canOpenPage } from '@portal/contracts';
import { paths } from '../../config/paths';
import '../../features/invoices/texts';
import { LedgerPage } from '../../features/reports/ledger/ledger-page';
import { useSelf } from '../../lib/self';

/** `/reports/ledger` (spec §2, §3), guarded by `limited_report_ledger`. */
export default function ReportsLedgerRoute() {
  const { data } = useSelf();
  // An installment's plan is a link only for a user who may open the plan's page.
  const canViewPlans = canOpenPage(data?.abilities ?? [], paths.installmentPlanDetail);
  return <LedgerPage canViewPlans={canViewPlans} />;
}
