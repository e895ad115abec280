import { type Ref, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { translateCode } from '../../../lib/messages';

export interface CellSelectProps {
  /** The accessible name; a table cell has its column header, not a visible label. */
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  options: readonly { value: string; label: string }[];
  /** An error code, shown translated under the select. */
  error?: string | undefined;
  selectRef?: Ref<HTMLSelectElement>;
}

/** A compact select for a table cell, with its error tied to it like TextInput's. */
export function CellSelect({
  label,
  name,
  value,
  onChange,
  onBlur,
  options,
  error,
  selectRef,
}: CellSelectProps) {
  const { t } = useTranslation();
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={['field', 'field--cell', error && 'field--invalid'].filter(Boolean).join(' ')}>
      <select
        ref={selectRef}
        id={id}
        name={name}
        aria-label={label}
        className="field__input"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
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
