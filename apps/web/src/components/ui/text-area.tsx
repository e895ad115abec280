import { type Ref, type TextareaHTMLAttributes, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { translateCode } from '../../lib/messages';
import { RequiredMark } from './text-input';

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
  const { t } = useTranslation();
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={['field', error && 'field--invalid', className].filter(Boolean).join(' ')}>
      <label htmlFor={id} className="field__label">
        {label}
        {rest.required && <RequiredMark />}
      </label>
      <textarea
        ref={textAreaRef}
        id={id}
        name={name}
        rows={rows}
        className="field__input field__input--multiline"
        value={value ?? ''}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onChange(event.target.value)}
        {...rest}
      />
      {error && (
        <p id={errorId} className="field__error" role="alert">
          {translateCode(t, error, { max: limit })}
        </p>
      )}
    </div>
  );
}
