import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/messages';
import { Button } from './button';
import { Pagination } from './pagination';
import type { SortOrder } from './sortable-header';
import { Spinner } from './spinner';

/** The paging part of a list's query, and how a page changes it. */
export interface ListPaging {
  page: number;
  pageSize: number;
}
export type ListPagingChange = (patch: Partial<ListPaging>, options?: { replace?: boolean }) => void;

/** A page of a list as every list call answers it. */
export interface ListAnswer {
  items: readonly unknown[];
  total: number;
  /** The page size the server used, where it says. */
  pageSize?: number;
}

/** The pages under a list, bound to its query: a new page size starts again on page 1. */
export function ListPagination({
  query,
  total,
  label,
  onQueryChange,
}: {
  query: ListPaging;
  total: number;
  /** Names the navigation landmark, e.g. "Recipient pages". */
  label: string;
  onQueryChange: ListPagingChange;
}) {
  return (
    <Pagination
      page={query.page}
      pageSize={query.pageSize}
      total={total}
      label={label}
      onPageChange={(page) => onQueryChange({ page })}
      onPageSizeChange={(pageSize) => onQueryChange({ pageSize, page: 1 })}
    />
  );
}

/**
 * The props of a list's SortableHeaders: a new sort starts again on page 1.
 */
export function sortPropsOf<S extends string>(
  query: { sort: S; order: SortOrder },
  onQueryChange: (patch: { sort: S; order: SortOrder; page: number }) => void,
) {
  return {
    sort: query.sort,
    order: query.order,
    onSort: (sort: S, order: SortOrder) => onQueryChange({ sort, order, page: 1 }),
  };
}

/**
 * After a delete, a narrower filter or a shared link the page can lie past the end of the list: the
 * last page is shown instead (replacing the history entry, so that Back does not return past the end).
 */
export function usePageInRange(
  list: Pick<UseQueryResult<ListAnswer>, 'data' | 'isPlaceholderData'>,
  query: ListPaging,
  onQueryChange: ListPagingChange,
): void {
  const data = list.data;
  const lastPage = data ? Math.max(1, Math.ceil(data.total / (data.pageSize ?? query.pageSize))) : 1;
  useEffect(() => {
    if (data && !list.isPlaceholderData && data.items.length === 0 && query.page > lastPage) {
      onQueryChange({ page: lastPage }, { replace: true });
    }
  }, [data, list.isPlaceholderData, query.page, lastPage, onQueryChange]);
}

/** A list's table in its scrolling wrapper, named for a screen reader by a hidden caption. */
export function DataTable({
  caption,
  className = 'data-table',
  busy,
  children,
}: {
  caption: string;
  className?: string;
  /** A new page is on its way: the rows shown are the previous ones. */
  busy?: boolean;
  /** The thead, tbody and tfoot. */
  children: ReactNode;
}) {
  return (
    <div className="table-wrap" aria-busy={busy || undefined}>
      <table className={className}>
        <caption className="visually-hidden">{caption}</caption>
        {children}
      </table>
    </div>
  );
}

export interface ListResultsProps<D extends ListAnswer> {
  list: Pick<UseQueryResult<D>, 'data' | 'isPending' | 'isError' | 'error' | 'refetch'>;
  query: ListPaging;
  onQueryChange: ListPagingChange;
  /** What an empty list says (it may depend on the search). */
  empty: ReactNode;
  /** Names the pages' navigation landmark. */
  pagesLabel: string;
  /** Offer a retry button under a failed load (default true). */
  retry?: boolean;
  /** The rows of a non-empty list (and what goes with them); the pages follow. */
  children: (data: D) => ReactNode;
}

/**
 * What a list shows below its filters: a spinner while the first page loads, the translated error
 * with a retry, the empty text, or the rows and their pages.
 */
export function ListResults<D extends ListAnswer>({
  list,
  query,
  onQueryChange,
  empty,
  pagesLabel,
  retry = true,
  children,
}: ListResultsProps<D>) {
  const { t } = useTranslation();
  const data = list.data;
  return (
    <>
      {list.isPending && (
        <div className="page--center">
          <Spinner size="large" />
        </div>
      )}
      {list.isError && (
        <div className="notice notice--error" role="alert">
          <p>{errorText(t, list.error)}</p>
          {retry && (
            <Button
              variant="secondary"
              label={t('common:actions.retry')}
              onClick={() => void list.refetch()}
            />
          )}
        </div>
      )}
      {data && data.total === 0 && <p className="empty-state">{empty}</p>}
      {data && data.total > 0 && (
        <>
          {children(data)}
          <ListPagination query={query} total={data.total} label={pagesLabel} onQueryChange={onQueryChange} />
        </>
      )}
    </>
  );
}
