import type { ReactNode } from 'react';

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
