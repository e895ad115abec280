import { SortIcon } from './icons';

export type SortOrder = 'asc' | 'desc';

export interface SortableHeaderProps<S extends string> {
  field: S;
  label: string;
  sort: S;
  order: SortOrder;
  onSort: (field: S, order: SortOrder) => void;
  className?: string;
}

/**
 * A column header whose button sorts the list by that column: ascending first, a second press
 * descending. The header carries aria-sort, so a screen reader says how the table is sorted.
 */
export function SortableHeader<S extends string>({
  field,
  label,
  sort,
  order,
  onSort,
  className,
}: SortableHeaderProps<S>) {
  const active = sort === field;
  const direction = active ? order : 'none';
  return (
    <th
      scope="col"
      className={className}
      aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}
    >
      <button
        type="button"
        className="sort-button"
        onClick={() => onSort(field, active && order === 'asc' ? 'desc' : 'asc')}
      >
        {label}
        <SortIcon direction={direction} size={14} className="sort-button__icon" />
      </button>
    </th>
  );
}
