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
