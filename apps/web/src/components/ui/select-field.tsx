import { type ReactNode, type Ref, type SelectHTMLAttributes, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { translateCode } from '../../lib/messages';
import { RequiredMark } from './text-input';

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectFieldProps
  extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange' | 'className'> {
  /** The visible label; a table cell has none and names the select with aria-label. */
  label?: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly SelectOption[];
  /** An error code (a form resolver's or the server's), shown translated under the field. */
  error?: string | undefined;
  className?: string;
  selectRef?: Ref<HTMLSelectElement>;
}

/** A labelled select in the style of TextInput, with the error tied to it by aria-describedby. */
export function SelectField({
  label,
  name,
  value,
  onChange,
  options,
  error,
  className,
  selectRef,
  ...rest
}: SelectFieldProps) {
  const id = useId();
  const { describedBy } = fieldDescription(id, undefined, error);
  return (
    <FieldShell id={id} label={label} required={rest.required} error={error} className={className}>
      <select
        ref={selectRef}
        id={id}
        name={name}
        className="field__input"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
        {...rest}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldShell>
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
