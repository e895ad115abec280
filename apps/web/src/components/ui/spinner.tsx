import { SPINNER_SIZE } from '@portal/contracts';
import { useTranslation } from 'react-i18next';

export interface SpinnerProps {
  /** large 50 px, small 30 px (spec §9). */
  size?: keyof typeof SPINNER_SIZE;
  color?: 'dark' | 'white';
  /** Text for screen readers; defaults to the translated "Loading". */
  label?: string;
  className?: string;
}

export function Spinner({ size = 'large', color = 'dark', label, className }: SpinnerProps) {
  const { t } = useTranslation();
  const px = SPINNER_SIZE[size];
  return (
    <span role="status" className={['spinner', `spinner--${color}`, className].filter(Boolean).join(' ')}>
      <span className="spinner__ring" style={{ width: px, height: px }} aria-hidden="true" />
      <span className="visually-hidden">{label ?? t('common:status.loading')}</span>
    </span>
  );
}
