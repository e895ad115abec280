import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/messages';
import { Button } from './button';
import { Spinner } from './spinner';

/**
 * What a failed load says: the error's text (or `message`) in an alert, with a retry button when
 * `onRetry` is given.
 */
export function LoadFailure({
  error,
  message,
  onRetry,
}: {
  /** The failure, translated by its code unless `message` is given. */
  error?: unknown;
  message?: ReactNode;
  onRetry?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="notice notice--error" role="alert">
      <p>{message ?? errorText(t, error)}</p>
      {onRetry && <Button variant="secondary" label={t('common:actions.retry')} onClick={onRetry} />}
    </div>
  );
}

/** A failure in a line of its own: the error's translated text, or `children`, in an alert. */
export function ErrorNotice({ error, children }: { error?: unknown; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <p className="notice notice--error" role="alert">
      {children ?? errorText(t, error)}
    </p>
  );
}

/** The large spinner in the middle of a page (or of a list's place) while what it shows loads. */
export function PageSpinner() {
  return (
    <div className="page--center">
      <Spinner size="large" />
    </div>
  );
}
