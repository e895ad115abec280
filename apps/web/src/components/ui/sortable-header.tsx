import type { ReactNode } from 'react';
import { SortIcon } from './icons';

export type SortOrder = 'asc' | 'desc';

export interface SortableHeaderProps<S extends string> {
  field: S;
  label: ReactNode;
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

export interface Column<S extends string = string> {
  label: ReactNode;
  /** An amount or a count: right-aligned (data-table__number). */
  numeric?: boolean;
  className?: string;
  /** A longer name of the column, shown on hover. */
  title?: string;
  /** The field a press on the header sorts by: a SortableHeader (TableHead needs `sortProps`). */
  sort?: S;
}

/** How a table is sorted now and how a header changes it (the list's `sortPropsOf`). */
export type SortProps<S extends string> = Pick<SortableHeaderProps<S>, 'sort' | 'order' | 'onSort'>;

/**
 * The header row of a table: plain column names, and a SortableHeader for a column with `sort`; a
 * `false` column is left out (a column shown only sometimes).
 */
export function TableHead<S extends string = string>({
  columns,
  sortProps,
}: {
  columns: readonly (Column<S> | false)[];
  sortProps?: SortProps<S>;
}) {
  return (
    <thead>
      <tr>
        {columns.map((column, index) => {
          if (column === false) return null;
          const className =
            [column.className, column.numeric && 'data-table__number'].filter(Boolean).join(' ') || undefined;
          // The columns are fixed for the table: their place is their identity.
          return column.sort !== undefined && sortProps ? (
            <SortableHeader
              // biome-ignore lint/suspicious/noArrayIndexKey: see above.
              key={index}
              field={column.sort}
              label={column.label}
              className={className}
              {...sortProps}
            />
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: see above.
            <th key={index} scope="col" className={className} title={column.title}>
              {column.label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
