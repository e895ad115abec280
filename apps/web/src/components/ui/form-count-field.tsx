import type { FieldValues } from 'react-hook-form';
import { type BoundFieldProps, FormTextField } from './form-fields';
import type { TextInputProps } from './text-input';

/** A whole count typed in a number input with the numeric keyboard (days of terms, installments). */
export function FormCountField<T extends FieldValues>(
  props: BoundFieldProps<T> &
    Omit<
      TextInputProps,
      'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'inputRef' | 'type' | 'inputMode'
    >,
) {
  return <FormTextField type="number" inputMode="numeric" {...props} />;
}
