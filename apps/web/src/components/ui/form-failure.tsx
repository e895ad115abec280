import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/messages';

/**
 * The banner above a form whose save failed: what failed (`title`), the translated error, and what the
 * form adds (e.g. a link to the record that already has the number).
 */
export function FormFailure({
  title,
  error,
  children,
}: {
  title: string;
  error: unknown;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="notice notice--error form-failure" role="alert">
      <p>
        <strong>{title}</strong> {errorText(t, error)}
        {children}
      </p>
    </div>
  );
}
