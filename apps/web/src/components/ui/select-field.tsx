import { type Ref, type SelectHTMLAttributes, useId } from 'react';
import { FieldShell, fieldDescription } from './text-input';

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
