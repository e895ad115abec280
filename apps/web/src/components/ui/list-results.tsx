import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';
import { ConfirmDialog } from './confirm-dialog';
import { PlusIcon } from './icons';
import { ListToolbar } from './list-toolbar';
import { LoadFailure, PageSpinner } from './load-states';
import { Pagination } from './pagination';
import { type Column, type SortOrder, type SortProps, TableHead } from './sortable-header';

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
 * The props of a list's search box (ListToolbar): a new search starts again on page 1 and replaces the
 * history entry, so that Back does not step through every search typed.
 */
export function searchPropsOf(
  query: { search?: string },
  onQueryChange: (patch: { search: string; page: number }, options: { replace: boolean }) => void,
) {
  return {
    search: query.search ?? '',
    onSearch: (search: string) => onQueryChange({ search, page: 1 }, { replace: true }),
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

/**
 * What a searchable, sortable, paged list bound to its query needs: the search box's and the sortable
 * headers' props, ListResults' list and paging props, DataTable's busy flag and sortable headers, and
 * the page kept in range (usePageInRange).
 */
export function useListControls<
  S extends string,
  L extends Pick<UseQueryResult<ListAnswer>, 'data' | 'isPlaceholderData' | 'isFetching'>,
>(
  list: L,
  query: ListPaging & { search?: string; sort: S; order: SortOrder },
  onQueryChange: (
    patch: Partial<ListPaging> & { search?: string; sort?: S; order?: SortOrder },
    options?: { replace?: boolean },
  ) => void,
) {
  usePageInRange(list, query, onQueryChange);
  return {
    searchProps: searchPropsOf(query, onQueryChange),
    resultsProps: { list, query, onQueryChange },
    tableProps: { busy: list.isFetching, sortProps: sortPropsOf(query, onQueryChange) },
  };
}

/**
 * A table in its scrolling wrapper, named for a screen reader by a hidden caption; with `columns` its
 * header row comes first (sortable columns need `sortProps`).
 */
export function DataTable<S extends string = string>({
  caption,
  className = 'data-table',
  wrapClassName = 'table-wrap',
  busy,
  columns,
  sortProps,
  children,
}: {
  caption: string;
  className?: string;
  /** The wrapper's classes (default table-wrap, the card look). */
  wrapClassName?: string;
  /** A new page is on its way: the rows shown are the previous ones. */
  busy?: boolean;
  columns?: readonly (Column<S> | false)[];
  sortProps?: SortProps<S>;
  /** The tbody and tfoot (and the thead when there are no `columns`). */
  children: ReactNode;
}) {
  return (
    <div className={wrapClassName} aria-busy={busy || undefined}>
      <table className={className}>
        <caption className="visually-hidden">{caption}</caption>
        {columns && <TableHead columns={columns} sortProps={sortProps} />}
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
  const data = list.data;
  return (
    <>
      {list.isPending && <PageSpinner />}
      {list.isError && (
        <LoadFailure error={list.error} onRetry={retry ? () => void list.refetch() : undefined} />
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

/**
 * What a register page (recipients, articles) is doing: the record in its form (null for a new one),
 * the record asked about before deleting it, and the status line that says what was done last.
 */
export interface RegisterState<T> {
  editing: { item: T | null } | null;
  deleting: T | null;
  status: string;
  startNew: () => void;
  startEdit: (item: T) => void;
  startDelete: (item: T) => void;
  closeEditor: () => void;
  closeDelete: () => void;
  /** Closes the form or the question and says what was done. */
  done: (status: string) => void;
}

/** `remove` is the delete mutation: its last failure is cleared when another delete is asked. */
export function useRegister<T>(remove: { reset: () => void }): RegisterState<T> {
  const [editing, setEditing] = useState<{ item: T | null } | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const [status, setStatus] = useState('');
  return {
    editing,
    deleting,
    status,
    startNew: () => {
      setStatus('');
      setEditing({ item: null });
    },
    startEdit: (item) => {
      setStatus('');
      setEditing({ item });
    },
    startDelete: (item) => {
      setStatus('');
      remove.reset();
      setDeleting(item);
    },
    closeEditor: () => setEditing(null),
    closeDelete: () => setDeleting(null),
    done: (text) => {
      setEditing(null);
      setDeleting(null);
      setStatus(text);
    },
  };
}

export interface RegisterPageProps {
  title: string;
  lead: string;
  search: string;
  onSearch: (search: string) => void;
  searchLabel: string;
  searchHint: string;
  newLabel: string;
  register: Pick<RegisterState<unknown>, 'status' | 'startNew'>;
  /** The list, the form and the delete question. */
  children: ReactNode;
}

/** A register page: title, lead, the search with the "New …" button, the status line, then the list. */
export function RegisterPage({
  title,
  lead,
  search,
  onSearch,
  searchLabel,
  searchHint,
  newLabel,
  register,
  children,
}: RegisterPageProps) {
  return (
    <div className="list-page">
      <h1 className="page__title">{title}</h1>
      <p className="page__lead">{lead}</p>
      <ListToolbar search={search} onSearch={onSearch} searchLabel={searchLabel} searchHint={searchHint}>
        <Button leadingIcon={PlusIcon} label={newLabel} onClick={register.startNew} />
      </ListToolbar>
      <p className="list-page__status" role="status">
        {register.status}
      </p>
      {children}
    </div>
  );
}

/** The edit and delete buttons at the end of a register row, named with the row's record. */
export function RowActions({
  editLabel,
  deleteLabel,
  onEdit,
  onDelete,
}: {
  editLabel: string;
  deleteLabel: string;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  return (
    <td className="data-table__actions">
      <Button
        variant="transparent"
        label={t('common:actions.edit')}
        aria-label={editLabel}
        onClick={onEdit}
      />
      <Button
        variant="transparent"
        className="btn--danger-text"
        label={t('common:actions.delete')}
        aria-label={deleteLabel}
        onClick={onDelete}
      />
    </td>
  );
}

/** The query of a register's list: a page of a search, sorted by one of its fields. */
export interface RegisterQuery<S extends string> extends ListPaging {
  search?: string;
  sort: S;
  order: SortOrder;
}

export interface RegisterListProps<T extends { name: string }, S extends string> {
  /**
   * The namespace of the register's texts: `page.title`, `page.lead`, `page.search`, `page.search_hint`,
   * `page.new`, `page.pages`, `page.empty`, `page.no_matches`, `page.created`, `page.saved`,
   * `page.deleted`, `delete.title`, `actions.edit_row`, `actions.delete_row` and `columns.actions`.
   */
  ns: 'articles' | 'recipients';
  query: RegisterQuery<S>;
  onQueryChange: (patch: Partial<RegisterQuery<S>>, options?: { replace?: boolean }) => void;
  list: UseQueryResult<{ items: T[]; total: number; pageSize?: number }>;
  /** The delete call, by the record's id. */
  remove: UseMutationResult<unknown, Error, string>;
  idOf: (item: T) => string;
  /** The columns before the actions' column. */
  columns: readonly Column<S>[];
  /** A row's cells before its actions. */
  cells: (item: T) => ReactNode;
  /** The delete question's text. */
  deleteMessage: (item: T) => string;
  /** The form of a record (null: a new one). */
  form: (item: T | null, onClose: () => void, onSaved: (saved: T, created: boolean) => void) => ReactNode;
}

/**
 * A register (recipients, articles): the searchable, sortable, paged table of its records with create,
 * edit and delete, and the status line that says what was done last.
 */
export function RegisterList<T extends { name: string }, S extends string>({
  ns,
  query,
  onQueryChange,
  list,
  remove,
  idOf,
  columns,
  cells,
  deleteMessage,
  form,
}: RegisterListProps<T, S>) {
  const { t } = useTranslation();
  const register = useRegister<T>(remove);
  const { editing, deleting } = register;
  const { searchProps, resultsProps, tableProps } = useListControls(list, query, onQueryChange);

  return (
    <RegisterPage
      title={t(`${ns}:page.title`)}
      lead={t(`${ns}:page.lead`)}
      {...searchProps}
      searchLabel={t(`${ns}:page.search`)}
      searchHint={t(`${ns}:page.search_hint`)}
      newLabel={t(`${ns}:page.new`)}
      register={register}
    >
      <ListResults
        {...resultsProps}
        pagesLabel={t(`${ns}:page.pages`)}
        empty={query.search ? t(`${ns}:page.no_matches`, { search: query.search }) : t(`${ns}:page.empty`)}
      >
        {(data) => (
          <DataTable
            caption={t(`${ns}:page.title`)}
            className="data-table data-table--cards"
            {...tableProps}
            columns={[
              ...columns,
              {
                label: <span className="visually-hidden">{t(`${ns}:columns.actions`)}</span>,
                className: 'data-table__actions',
              },
            ]}
          >
            <tbody>
              {data.items.map((item) => (
                <tr key={idOf(item)}>
                  {cells(item)}
                  <RowActions
                    editLabel={t(`${ns}:actions.edit_row`, { name: item.name })}
                    deleteLabel={t(`${ns}:actions.delete_row`, { name: item.name })}
                    onEdit={() => register.startEdit(item)}
                    onDelete={() => register.startDelete(item)}
                  />
                </tr>
              ))}
            </tbody>
          </DataTable>
        )}
      </ListResults>

      {editing &&
        form(editing.item, register.closeEditor, (saved, created) =>
          register.done(t(created ? `${ns}:page.created` : `${ns}:page.saved`, { name: saved.name })),
        )}
      {deleting && (
        <ConfirmDialog
          title={t(`${ns}:delete.title`)}
          message={deleteMessage(deleting)}
          confirmLabel={t('common:actions.delete')}
          action={remove}
          onHide={register.closeDelete}
          onConfirm={() =>
            remove.mutate(idOf(deleting), {
              onSuccess: () => register.done(t(`${ns}:page.deleted`, { name: deleting.name })),
            })
          }
        />
      )}
    </RegisterPage>
  );
}

interface SaveHandlers<R> {
  onSuccess: (saved: R) => void;
  onError: (error: unknown) => void;
}

/**
 * Saves a register's record from its form: an update of the record with `id`, or a new one without;
 * `onSaved` learns which it was.
 */
export function saveRecord<B, R>({
  id,
  body,
  create,
  update,
  onSaved,
  onError,
}: {
  id: string | undefined;
  body: B;
  create: { mutate: (body: B, handlers: SaveHandlers<R>) => void };
  update: { mutate: (input: { id: string; body: B }, handlers: SaveHandlers<R>) => void };
  onSaved: (saved: R, created: boolean) => void;
  onError: (error: unknown) => void;
}): void {
  if (id === undefined) create.mutate(body, { onSuccess: (saved) => onSaved(saved, true), onError });
  else update.mutate({ id, body }, { onSuccess: (saved) => onSaved(saved, false), onError });
}
