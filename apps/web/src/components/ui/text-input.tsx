import { TWO_FACTOR_CODE_LENGTH } from '@portal/contracts';
import { type InputHTMLAttributes, type ReactNode, type Ref, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translateCode } from '../../lib/messages';

// The chrome of every labelled field lives here, in the login page's own module: a file of its own would
// be one more chunk before the login form is usable (check-bundle-size.mjs).
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

/** A rule returns true when the value passes, otherwise the code of the failure (spec §5). */
export type Rule = (value: string) => true | string;

export interface TextInputProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'className'> {
  label?: string;
  /** The wrapper's extra class (spec §2 customClass). */
  className?: string;
  value: string | number | Date | null | undefined;
  name: string;
  onChange?: (value: string) => void;
  rules?: readonly Rule[];
  /** An error code from outside (a form resolver or the server); shown before the rules' result. */
  error?: string;
  /** The limit shown in a max-length message. */
  limit?: number;
  /** Values for the error message's placeholders (e.g. the existing invoice of a duplicate number). */
  errorParams?: Record<string, unknown>;
  hint?: string;
  inputRef?: Ref<HTMLInputElement>;
}

/** Default field id from a timestamp and a random number (spec §9). */
export function generateFieldId(): string {
  return `field-${Date.now()}-${Math.floor(Math.random() * 1_000_000)}`;
}

function asText(value: TextInputProps['value']): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  return String(value);
}

function runRules(rules: readonly Rule[] | undefined, value: string): string | undefined {
  for (const rule of rules ?? []) {
    const result = rule(value);
    if (result !== true) return result;
  }
  return undefined;
}

/**
 * The labelled text input of spec §2. With rules it validates on input and again whenever the bound
 * value changes from outside (spec §4); the error is translated and tied to the field with
 * aria-invalid and aria-describedby.
 */
export function TextInput({
  label,
  className,
  value,
  name,
  onChange,
  rules,
  error,
  limit,
  errorParams,
  hint,
  id,
  inputRef,
  type = 'text',
  required,
  ...rest
}: TextInputProps) {
  const [fieldId] = useState(() => id ?? generateFieldId());
  const [ruleError, setRuleError] = useState<string | undefined>();
  const text = asText(value);
  const lastTyped = useRef<string | null>(null);
  const previous = useRef(text);

  useEffect(() => {
    if (previous.current === text) return;
    previous.current = text;
    // A change the user typed was validated in onChange; this covers a value set from outside.
    if (lastTyped.current === text) return;
    if (rules && rules.length > 0) setRuleError(runRules(rules, text));
  }, [text, rules]);

  const code = error ?? ruleError;
  const { hintId, errorId } = fieldDescription(fieldId, hint, code);
  const describedBy = [code && errorId, hint && hintId].filter(Boolean).join(' ') || undefined;

  return (
    <FieldShell
      id={fieldId}
      label={label}
      required={required}
      hint={hint}
      error={code}
      errorParams={{ max: limit, ...errorParams }}
      className={className}
    >
      <input
        ref={inputRef}
        id={fieldId}
        name={name}
        type={type}
        className="field__input"
        value={text}
        required={required}
        aria-invalid={code ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => {
          const next = event.target.value;
          lastTyped.current = next;
          if (rules && rules.length > 0) setRuleError(runRules(rules, next));
          onChange?.(next);
        }}
        {...rest}
      />
    </FieldShell>
  );
}

/**
 * The field of an authenticator app's code (sign-in, two-factor settings, a bank account change):
 * numeric keyboard, one-time-code autofill, and only digits kept up to the code's length, so a pasted
 * "123 456" becomes a usable code. It lives beside TextInput so that the login page loads no chunk of
 * its own for it.
 */
export function CodeInput({
  onChange,
  ...props
}: Omit<TextInputProps, 'onChange' | 'inputMode' | 'autoComplete' | 'pattern' | 'maxLength'> & {
  onChange: (code: string) => void;
}) {
  return (
    <TextInput
      {...props}
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      maxLength={TWO_FACTOR_CODE_LENGTH}
      onChange={(value) => onChange(value.replace(/\D/g, '').slice(0, TWO_FACTOR_CODE_LENGTH))}
    />
  );
}
