import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { translateCode } from '../../lib/messages';

/** The star after a required field's label; hidden from the accessible name, which `required` covers. */
export function RequiredMark() {
  return (
    <span className="field__required" aria-hidden="true">
      {' *'}
    </span>
  );
}

/** The ids of a field's hint and error, and the aria-describedby that names those shown. */
export function fieldDescription(id: string, hint: string | undefined, error: string | undefined) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint && hintId, error && errorId].filter(Boolean).join(' ') || undefined;
  return { hintId, errorId, describedBy };
}

export interface FieldShellProps {
  /** The id of the control inside, which the label names. */
  id: string;
  /** The visible label; without it the control is named by its own aria-label (a table cell). */
  label?: string | undefined;
  required?: boolean | undefined;
  hint?: string | undefined;
  /** An error code, shown translated under the field. */
  error?: string | undefined;
  errorParams?: Record<string, unknown>;
  /** The wrapper's classes after `field`. */
  className?: string | false | undefined;
  /** The control (it carries aria-invalid and aria-describedby from fieldDescription). */
  children: ReactNode;
}

/**
 * What every labelled field of spec §2 has around its control: the label with the required star, the
 * hint, and the translated error the control is described by.
 */
export function FieldShell({
  id,
  label,
  required,
  hint,
  error,
  errorParams,
  className,
  children,
}: FieldShellProps) {
  const { t } = useTranslation();
  const { hintId, errorId } = fieldDescription(id, hint, error);
  return (
    <div className={['field', error && 'field--invalid', className].filter(Boolean).join(' ')}>
      {label && (
        <label htmlFor={id} className="field__label">
          {label}
          {required && <RequiredMark />}
        </label>
      )}
      {children}
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field__error" role="alert">
          {translateCode(t, error, errorParams)}
        </p>
      )}
    </div>
  );
}
