import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/messages';
import { Button } from './button';
import { ConfirmDialog } from './confirm-dialog';
import { PlusIcon } from './icons';
import { ListToolbar } from './list-toolbar';

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

/** Asks before a record is deleted; a refusal (e.g. the record is in use) shows in the dialog. */
export function DeleteDialog({
  title,
  message,
  remove,
  onHide,
  onConfirm,
}: {
  title: string;
  message: string;
  remove: { isPending: boolean; isError: boolean; error: unknown };
  onHide: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      title={title}
      message={message}
      confirmLabel={t('common:actions.delete')}
      loading={remove.isPending}
      error={remove.isError ? errorText(t, remove.error) : null}
      onHide={onHide}
      onConfirm={onConfirm}
    />
  );
}
