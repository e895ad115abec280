import { isPlanState } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { PLAN_STATE_TONES, planStateKey } from '../utils/labels';

/** A plan's state as a translated badge, in the invoice badges' colours. */
export function PlanStateBadge({ state }: { state: number }) {
  const { t } = useTranslation();
  const tone = isPlanState(state) ? PLAN_STATE_TONES[state] : 'neutral';
  return <span className={`state-badge state-badge--${tone}`}>{t(planStateKey(state))}</span>;
}
