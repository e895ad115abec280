import type { Ref } from 'react';
import { SelectField } from '../../../components/ui/select-field';

export interface CellSelectProps {
  /** The accessible name; a table cell has its column header, not a visible label. */
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  options: readonly { value: string; label: string }[];
  /** An error code, shown translated under the select. */
  error?: string | undefined;
  selectRef?: Ref<HTMLSelectElement>;
}

/** A compact select for a table cell: no visible label (the column header says it), the error under it. */
export function CellSelect({ label, selectRef, ...select }: CellSelectProps) {
  return <SelectField aria-label={label} className="field--cell" selectRef={selectRef} {...select} />;
}
