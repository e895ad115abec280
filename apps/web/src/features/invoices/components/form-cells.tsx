import type { Language, TaxRate } from '@portal/contracts';
import { type Control, Controller, type FieldPath, type FieldValues } from 'react-hook-form';
import { FormTextField } from '../../../components/ui/form-fields';
import { IconButton } from '../../../components/ui/icon-button';
import { CloseIcon } from '../../../components/ui/icons';
import { formatBasisPoints } from '../../../lib/format';
import { CellSelect } from './cell-select';

interface CellProps<T extends FieldValues> {
  control: Control<T, unknown, FieldValues>;
  name: FieldPath<T>;
  /** The accessible name: a table cell has its column header, not a visible label. */
  label: string;
}

/**
 * A text cell of an editable table bound to a react-hook-form field: the field's value, its error
 * (translated by TextInput) and its ref for focusing the first invalid field. `numeric` gives the
 * decimal keyboard and right alignment of amounts and quantities.
 */
export function TextCell<T extends FieldValues>({
  control,
  name,
  label,
  numeric = false,
  className,
  placeholder,
  limit,
}: CellProps<T> & { numeric?: boolean; className?: string; placeholder?: string; limit?: number }) {
  return (
    <FormTextField
      control={control}
      name={name}
      aria-label={label}
      placeholder={placeholder}
      className={['field--cell', numeric && 'field--number', className].filter(Boolean).join(' ')}
      inputMode={numeric ? 'decimal' : undefined}
      autoComplete={numeric ? 'off' : undefined}
      limit={limit}
    />
  );
}

/** A select cell of an editable table bound to a react-hook-form field, like TextCell. */
export function SelectCell<T extends FieldValues>({
  control,
  name,
  label,
  options,
}: CellProps<T> & { options: readonly { value: string; label: string }[] }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field: f, fieldState }) => (
        <CellSelect
          label={label}
          name={f.name}
          value={f.value}
          onChange={f.onChange}
          onBlur={f.onBlur}
          selectRef={f.ref}
          options={options}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

/** The VAT rates as a select's options: the rate in basis points, shown as a percentage in `language`. */
export function vatRateOptions(taxRates: readonly TaxRate[], language: Language) {
  return taxRates.map((rate) => ({
    value: String(rate.rateBasisPoints),
    label: formatBasisPoints(rate.rateBasisPoints, language),
  }));
}

/** The last cell of an editable table's row: the button that removes the row, named by `label`. */
export function RemoveRowCell({
  label,
  disabled,
  onRemove,
}: {
  label: string;
  /** True for the only row: a table keeps one. */
  disabled: boolean;
  onRemove: () => void;
}) {
  return (
    <td className="invoice-rows__remove">
      <IconButton icon={CloseIcon} size={16} aria-label={label} disabled={disabled} onClick={onRemove} />
    </td>
  );
}
