import { type CreditDecisionValue, type InvoiceStatus, invoiceStatus } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { statusKey } from '../utils/labels';

const TONES: Record<InvoiceStatus, string> = {
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
  rejected: 'danger',
};

export interface InvoiceStateBadgeProps {
  state: number;
  decision: CreditDecisionValue | null;
  overdue?: boolean;
  /** The back office's reason of a rejection, shown under the badge of a rejected invoice. */
  rejectionReason?: string | null;
}

/**
 * The invoice's status as a translated badge (a rejected invoice is "Rejected", with its reason when
 * given); an overdue invoice gets a second, red one.
 */
export function InvoiceStateBadge({
  state,
  decision,
  overdue = false,
  rejectionReason,
}: InvoiceStateBadgeProps) {
  const { t } = useTranslation();
  const status = invoiceStatus({ state, decision });
  return (
    <span className="state-badges">
      <span className={`state-badge state-badge--${status === null ? 'neutral' : TONES[status]}`}>
        {t(statusKey({ state, decision }))}
      </span>
      {overdue && <span className="state-badge state-badge--danger">{t('invoices:list.overdue')}</span>}
      {status === 'rejected' && rejectionReason && (
        <span className="state-badges__reason" title={rejectionReason}>
          {rejectionReason}
        </span>
      )}
    </span>
  );
}
