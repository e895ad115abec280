import { useTranslation } from 'react-i18next';
import { stateKey } from '../utils/labels';

const TONES: Record<number, string> = {
  1: 'neutral',
  2: 'info',
  3: 'info',
  4: 'success',
  5: 'danger',
  6: 'neutral',
  7: 'neutral',
  8: 'danger',
  9: 'warning',
  11: 'muted',
};

/** The invoice's state as a translated badge; an overdue invoice gets a second, red one. */
export function InvoiceStateBadge({ state, overdue = false }: { state: number; overdue?: boolean }) {
  const { t } = useTranslation();
  return (
    <span className="state-badges">
      <span className={`state-badge state-badge--${TONES[state] ?? 'neutral'}`}>{t(stateKey(state))}</span>
      {overdue && <span className="state-badge state-badge--danger">{t('invoices:list.overdue')}</span>}
    </span>
  );
}
