import { useEffect, useRef } from 'react';

/** The header checkbox of a selectable table: checked when all are chosen, mixed when some are. */
export function SelectAllBox({
  checked,
  mixed,
  label,
  onChange,
}: {
  checked: boolean;
  mixed: boolean;
  label: string;
  onChange: (checked: boolean) => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = mixed;
  }, [mixed]);
  // The label around the box is the 44 px touch target of a phone (issue #17); the name stays aria-label.
  return (
    <label className="check-target">
      <input
        ref={ref}
        type="checkbox"
        className="checkbox"
        aria-label={label}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
    </label>
  );
}

/** The checkbox cell that chooses a row of a selectable table, named for the row (`label`). */
export function CheckCell({
  checked,
  label,
  disabled,
  onChange,
}: {
  checked: boolean;
  label: string;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <td className="data-table__check">
      <label className="check-target">
        <input
          type="checkbox"
          className="checkbox"
          aria-label={label}
          checked={checked}
          disabled={disabled}
          onChange={(event) => onChange(event.target.checked)}
        />
      </label>
    </td>
  );
}
