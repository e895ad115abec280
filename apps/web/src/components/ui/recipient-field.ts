import { type Control, type FieldPath, type FieldValues, useController } from 'react-hook-form';
import type { PickedRecipient, RecipientPickerProps } from './picker-slots';

export interface RecipientFieldOptions<T extends FieldValues, V> {
  control: Control<T, unknown, FieldValues>;
  name: FieldPath<T>;
  /** The picked recipient of the form's value (default: the value is the picked recipient). */
  toPicked?: (value: V) => PickedRecipient | null;
  /** The form's value of a pick (default: the picked recipient itself). */
  fromPicked?: (picked: PickedRecipient | null) => V;
  /** Runs first on a pick (e.g. to keep the picked name in a field of its own). */
  onPick?: (picked: PickedRecipient | null) => void;
  /** A pick marks the field touched, as leaving a field does (so its error shows at once). */
  touchOnPick?: boolean;
}

const asPicked = <V>(value: V) => value as PickedRecipient | null;
const asValue = <V>(picked: PickedRecipient | null) => picked as V;

/**
 * Binds the recipient picker (the recipients feature's, handed in by the route) to a react-hook-form
 * field: the form's value shown as the picked recipient, a pick written back (and the field touched,
 * unless `touchOnPick` is false), the field's error code, which the picker translates. Spread the
 * answer on the picker: `<RecipientPicker {...recipient} label={…} />`.
 */
export function useRecipientField<T extends FieldValues, V = PickedRecipient | null>({
  control,
  name,
  toPicked = asPicked,
  fromPicked = asValue,
  onPick,
  touchOnPick = true,
}: RecipientFieldOptions<T, V>): Pick<RecipientPickerProps, 'value' | 'onChange' | 'error'> {
  const { field, fieldState } = useController({ control, name });
  return {
    value: toPicked(field.value),
    onChange: (picked) => {
      onPick?.(picked);
      field.onChange(fromPicked(picked));
      if (touchOnPick) field.onBlur();
    },
    error: fieldState.error?.message,
  };
}
