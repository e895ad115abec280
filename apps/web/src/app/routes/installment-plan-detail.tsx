import { useLocation, useParams } from 'react-router';
import {
  PlanDetailPage,
  type PlanNotice,
} from '../../features/installment-plans/components/plan-detail-page';

function noticeOf(state: unknown): PlanNotice | null {
  return (state as { notice?: unknown } | null)?.notice === 'registered' ? 'registered' : null;
}

/** `/installmentplans/{id}`: one installment plan; a notice when the form has just registered it. */
export default function InstallmentPlanDetailRoute() {
  const { id = '' } = useParams();
  const location = useLocation();
  return <PlanDetailPage key={id} planID={id} notice={noticeOf(location.state)} />;
}
