import { type Ref, type TextareaHTMLAttributes, useId } from 'react';
import { FieldShell, fieldDescription } from './text-input';

export interface TextAreaProps
  extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange' | 'className'> {
  label: string;
  name: string;
  value: string | null | undefined;
  onChange: (value: string) => void;
  /** An error code, shown translated under the field. */
  error?: string | undefined;
  /** The limit shown in a max-length message. */
  limit?: number;
  className?: string;
  textAreaRef?: Ref<HTMLTextAreaElement>;
}

/** A labelled multi-line text field in the style of TextInput. */
export function TextArea({
  label,
  name,
  value,
  onChange,
  error,
  limit,
  className,
  textAreaRef,
  rows = 3,
  ...rest
}: TextAreaProps) {
  const id = useId();
  const { describedBy } = fieldDescription(id, undefined, error);
  return (
    <FieldShell
      id={id}
      label={label}
      required={rest.required}
      error={error}
      errorParams={{ max: limit }}
      className={className}
    >
      <textarea
        ref={textAreaRef}
        id={id}
        name={name}
        rows={rows}
        className="field__input field__input--multiline"
        value={value ?? ''}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
        {...rest}
      />
    </FieldShell>
  );
}
