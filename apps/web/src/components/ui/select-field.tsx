import { type Ref, type SelectHTMLAttributes, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { translateCode } from '../../lib/messages';
import { RequiredMark } from './text-input';

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectFieldProps
  extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange' | 'className'> {
  label: string;
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
  const { t } = useTranslation();
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={['field', error && 'field--invalid', className].filter(Boolean).join(' ')}>
      <label htmlFor={id} className="field__label">
        {label}
        {rest.required && <RequiredMark />}
      </label>
      <select
        ref={selectRef}
        id={id}
        name={name}
        className="field__input"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onChange(event.target.value)}
        {...rest}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error && (
        <p id={errorId} className="field__error" role="alert">
          {translateCode(t, error)}
        </p>
      )}
    </div>
  );
}
