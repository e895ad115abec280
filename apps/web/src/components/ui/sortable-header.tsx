import type { ReactNode } from 'react';
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

export interface Column {
  label: ReactNode;
  /** An amount or a count: right-aligned (data-table__number). */
  numeric?: boolean;
  className?: string;
}

/**
 * The header row of a table whose headers are plain column names (a sortable one uses SortableHeader);
 * a `false` column is left out (a column shown only sometimes).
 */
export function TableHead({ columns }: { columns: readonly (Column | false)[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column, index) =>
          column === false ? null : (
            <th
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed for the table, their place is their identity.
              key={index}
              scope="col"
              className={
                [column.className, column.numeric && 'data-table__number'].filter(Boolean).join(' ') ||
                undefined
              }
            >
              {column.label}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}
