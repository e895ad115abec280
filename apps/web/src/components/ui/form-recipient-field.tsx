import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import type { PickedRecipient, RecipientPickerComponent, RecipientPickerProps } from './picker-slots';

export interface FormRecipientFieldProps<T extends FieldValues, V>
  extends Omit<RecipientPickerProps, 'value' | 'onChange' | 'error'> {
  control: Control<T, unknown, FieldValues>;
  name: FieldPath<T>;
  /** The recipients feature's picker, handed in by the route (features never import each other). */
  Picker: RecipientPickerComponent;
  /** The picked recipient of the form's value (default: the value is the picked recipient). */
  toPicked?: (value: V) => PickedRecipient | null;
  /** The form's value of a pick (default: the picked recipient itself). */
  fromPicked?: (picked: PickedRecipient | null) => V;
  /** Runs first on a pick (e.g. to keep the picked name in a field of its own). */
  onPick?: (picked: PickedRecipient | null) => void;
  /** A pick marks the field touched, as leaving a field does (so its error shows at once). */
  touchOnPick?: boolean;
}

const asPicked = <V,>(value: V) => value as PickedRecipient | null;
const asValue = <V,>(picked: PickedRecipient | null) => picked as V;

/**
 * The recipient picker bound to a react-hook-form field: the form's value shown as the picked
 * recipient, a pick written back (and the field touched, unless `touchOnPick` is false), the field's
 * error code under the picker, which translates it.
 */
export function FormRecipientField<T extends FieldValues, V = PickedRecipient | null>({
  control,
  name,
  Picker,
  toPicked = asPicked,
  fromPicked = asValue,
  onPick,
  touchOnPick = true,
  ...picker
}: FormRecipientFieldProps<T, V>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <Picker
          {...picker}
          value={toPicked(field.value)}
          onChange={(picked) => {
            onPick?.(picked);
            field.onChange(fromPicked(picked));
            if (touchOnPick) field.onBlur();
          }}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}
