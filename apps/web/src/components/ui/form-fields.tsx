import type { ComponentType } from 'react';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { DateField, type DateFieldProps } from './date-field';
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
interface FieldInputProps {
  name: string;
  value: unknown;
  onChange?: (value: string) => void;
  onBlur?: unknown;
  error?: string | undefined;
}
type BoundKeys = 'name' | 'value' | 'onChange' | 'onBlur' | 'error';

const asIs = (code: string | undefined) => code;

/**
 * Makes a field component (TextInput, SelectField, …) into one bound to a form field by `control` and
 * `name`: the form's value, change, blur, its ref (under the component's own ref prop, which is what
 * react-hook-form focuses on an error) and its error code, which the component translates.
 */
function boundField<P extends FieldInputProps, R extends keyof P & string>(
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
/** A TextArea bound to a form field. */
export const FormTextArea = boundField<TextAreaProps, 'textAreaRef'>(TextArea, 'textAreaRef');
/** A SelectField bound to a form field. */
export const FormSelectField = boundField<SelectFieldProps, 'selectRef'>(SelectField, 'selectRef');
/** A DateField bound to a form field (an ISO date, '' while incomplete). */
export const FormDateField = boundField<DateFieldProps, 'inputRef'>(DateField, 'inputRef');

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
