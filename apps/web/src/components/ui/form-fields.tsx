import type { ComponentType, ReactNode } from 'react';
import {
  type Control,
  Controller,
  type FieldPath,
  type FieldValues,
  type UseFormHandleSubmit,
  type UseFormSetError,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { trackedSubmit } from '../../lib/analytics';
import { ApiError } from '../../lib/api-client';
import { errorText } from '../../lib/messages';
import { SelectField, type SelectFieldProps } from './select-field';
import { TextArea, type TextAreaProps } from './text-area';
import { TextInput, type TextInputProps } from './text-input';

/** What binds a field to a react-hook-form form. */
export interface BoundFieldProps<T extends FieldValues> {
  control: Control<T, unknown, FieldValues>;
  name: FieldPath<T>;
  /** Runs after the form has the new value (e.g. a due date that follows the invoice date). */
  onValueChange?: (value: string) => void;
  /**
   * Turns the error code the form holds into the one shown (default: as it is); the field translates
   * it.
   */
  errorOf?: (code: string | undefined) => string | undefined;
  /** Shown while the form holds no value (a select's default). */
  emptyValue?: string;
}

/** The props every field component takes and a bound field sets itself. */
export interface FieldInputProps {
  name: string;
  value: unknown;
  onChange?: (value: string) => void;
  onBlur?: unknown;
  error?: string | undefined;
}
type BoundKeys = 'name' | 'value' | 'onChange' | 'onBlur' | 'error';

const asIs = (code: string | undefined) => code;

// FormDateField lives in form-date-field.tsx: here it would bring React Aria's date field to every form.

/**
 * Makes a field component (TextInput, SelectField, …) into one bound to a form field by `control` and
 * `name`: the form's value, change, blur, its ref (under the component's own ref prop, which is what
 * react-hook-form focuses on an error) and its error code, which the component translates.
 */
export function boundField<P extends FieldInputProps, R extends keyof P & string>(
  Input: ComponentType<P>,
  refProp: R,
) {
  return function BoundField<T extends FieldValues>({
    control,
    name,
    onValueChange,
    errorOf = asIs,
    emptyValue,
    ...input
  }: BoundFieldProps<T> & Omit<P, BoundKeys | R>) {
    return (
      <Controller
        control={control}
        name={name}
        render={({ field, fieldState }) => {
          const props = {
            ...input,
            name: field.name,
            value: field.value ?? emptyValue,
            onChange: (value: string) => {
              field.onChange(value);
              onValueChange?.(value);
            },
            onBlur: field.onBlur,
            error: errorOf(fieldState.error?.message),
            [refProp]: field.ref,
          } as unknown as P;
          return <Input {...props} />;
        }}
      />
    );
  };
}

/** A TextInput bound to a form field: text, e-mail, password, or a number typed as text. */
export const FormTextField = boundField<TextInputProps, 'inputRef'>(TextInput, 'inputRef');
/** A TextArea bound to a react-hook-form field. */
export const FormTextArea = boundField<TextAreaProps, 'textAreaRef'>(TextArea, 'textAreaRef');
/** A SelectField bound to a react-hook-form field. */
export const FormSelectField = boundField<SelectFieldProps, 'selectRef'>(SelectField, 'selectRef');

/**
 * An amount or a quantity typed as the user writes numbers ("1 234,50"): the decimal keyboard and no
 * autocomplete; the form's schema reads it into minor units.
 */
export function FormMoneyField<T extends FieldValues>(
  props: BoundFieldProps<T> & Omit<TextInputProps, BoundKeys | 'inputRef'>,
) {
  return <FormTextField inputMode="decimal" autoComplete="off" {...props} />;
}

/** A checkbox bound to a boolean form field; `label` is its accessible name (a table cell's). */
export function FormCheckbox<T extends FieldValues>({
  control,
  name,
  label,
}: Pick<BoundFieldProps<T>, 'control' | 'name'> & { label: string }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <input
          type="checkbox"
          className="checkbox"
          aria-label={label}
          name={field.name}
          checked={field.value}
          onChange={(event) => field.onChange(event.target.checked)}
          onBlur={field.onBlur}
          ref={field.ref}
        />
      )}
    />
  );
}

export interface ServerErrorFields<T extends FieldValues> {
  /** The form field an issue's path names (`recipientID` → `recipient`), or null when none does. */
  fieldOf: (path: string) => FieldPath<T> | null;
  /** Error codes that are about one field (a duplicate number): marked on it, and it takes the focus. */
  codeFields?: Readonly<Record<string, FieldPath<T>>>;
  /** The first field an issue marks takes the focus (the long invoice forms). */
  focusFirstIssue?: boolean;
}

/**
 * Shows a refused save on the form's fields: the answer's error code on the field it is about, and each validation issue's code on the
 * field its path names. What names no field is left to the banner above the form, which shows
 * `errorText` of the same error. Anything but an API error marks nothing.
 */
export function markServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  { fieldOf, codeFields = {}, focusFirstIssue = false }: ServerErrorFields<T>,
): void {
  if (!(error instanceof ApiError)) return;
  const codeField = codeFields[error.code];
  if (codeField) setError(codeField, { type: 'server', message: error.code }, { shouldFocus: true });
  let focus = focusFirstIssue;
  for (const issue of error.issues) {
    const field = fieldOf(issue.path);
    if (field === null) continue;
    setError(field, { type: 'server', message: issue.code }, { shouldFocus: focus });
    focus = false;
  }
}

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

export interface TrackedFormProps<V extends FieldValues, B extends object> {
  /** The form's name in the `form_submitted` event (trackFormSubmit). */
  event: string;
  /** The form's accessible name. */
  label: string;
  className: string;
  /** react-hook-form's `handleSubmit` of the form: it checks the values before `onValid` runs. */
  handleSubmit: UseFormHandleSubmit<V, B>;
  /** Runs with the checked values, after the submit was reported. */
  onValid: (values: B) => void;
  children: ReactNode;
}

/**
 * A react-hook-form form that checks its own fields (no browser validation), reports a valid submit
 * with its fields' names (trackedSubmit), then does `onValid`.
 */
export function TrackedForm<V extends FieldValues, B extends object>({
  event,
  label,
  className,
  handleSubmit,
  onValid,
  children,
}: TrackedFormProps<V, B>) {
  return (
    <form
      className={className}
      noValidate
      aria-label={label}
      onSubmit={handleSubmit(trackedSubmit(event, onValid))}
    >
      {children}
    </form>
  );
}

/** The password fields a form may have; each name says "password" so that form tracking drops it (spec §5). */
const PASSWORD_FIELDS = [
  { name: 'currentPassword', label: 'account:password.current', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'account:password.new', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'account:password.confirm', autoComplete: 'new-password' },
] as const;

export interface PasswordValues {
  newPassword: string;
  confirmPassword: string;
}

/**
 * The new password and its confirmation of a form whose values have those fields, after the current
 * password when the form asks for it (a change, not a reset). The labels are the account namespace's.
 */
export function PasswordInputs<T extends FieldValues & PasswordValues>({
  control,
  withCurrent = false,
}: Pick<BoundFieldProps<T>, 'control'> & { withCurrent?: boolean }) {
  const { t } = useTranslation();
  return PASSWORD_FIELDS.filter((f) => withCurrent || f.name !== 'currentPassword').map((f) => (
    <FormTextField
      key={f.name}
      control={control}
      name={f.name as FieldPath<T>}
      label={t(f.label)}
      type="password"
      autoComplete={f.autoComplete}
    />
  ));
}
