import type { Recipient } from '@portal/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { PlusIcon } from '../../../components/ui/icons';
import { DataTable, ListResults, sortPropsOf, usePageInRange } from '../../../components/ui/list-results';
import { ListToolbar } from '../../../components/ui/list-toolbar';
import { SortableHeader } from '../../../components/ui/sortable-header';
import { formatDate } from '../../../lib/format';
import { errorText } from '../../../lib/messages';
import { useDeleteRecipient } from '../api/delete-recipient';
import { type RecipientListQuery, useRecipients } from '../api/list-recipients';
import { DOCUMENT_LANGUAGE_LABELS, RecipientFormModal } from './recipient-form-modal';

export interface RecipientsPageProps {
  query: RecipientListQuery;
  onQueryChange: (patch: Partial<RecipientListQuery>, options?: { replace?: boolean }) => void;
}

type Editing = { recipient: Recipient | null } | null;

/**
 * `/recipient` (spec §2): the recipients as a searchable, sortable, paged table with create, edit and
 * delete. The query lives in the URL; the route parses it with the contract schema.
 */
export function RecipientsPage({ query, onQueryChange }: RecipientsPageProps) {
  const { t, i18n } = useTranslation();
  const list = useRecipients(query);
  const remove = useDeleteRecipient();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Recipient | null>(null);
  const [status, setStatus] = useState('');

  usePageInRange(list, query, onQueryChange);
  const sortProps = sortPropsOf(query, onQueryChange);

  return (
    <div className="list-page">
      <h1 className="page__title">{t('recipients:page.title')}</h1>
      <p className="page__lead">{t('recipients:page.lead')}</p>
      <ListToolbar
        search={query.search ?? ''}
        onSearch={(search) => onQueryChange({ search, page: 1 }, { replace: true })}
        searchLabel={t('recipients:page.search')}
        searchHint={t('recipients:page.search_hint')}
      >
        <Button
          leadingIcon={PlusIcon}
          label={t('recipients:page.new')}
          onClick={() => {
            setStatus('');
            setEditing({ recipient: null });
          }}
        />
      </ListToolbar>
      <p className="list-page__status" role="status">
        {status}
      </p>

      <ListResults
        list={list}
        query={query}
        onQueryChange={onQueryChange}
        pagesLabel={t('recipients:page.pages')}
        empty={
          query.search
            ? t('recipients:page.no_matches', { search: query.search })
            : t('recipients:page.empty')
        }
      >
        {(data) => (
          <DataTable
            caption={t('recipients:page.title')}
            className="data-table data-table--cards"
            busy={list.isFetching}
          >
            <thead>
              <tr>
                <SortableHeader field="name" label={t('recipients:fields.name')} {...sortProps} />
                <SortableHeader
                  field="organizationNumber"
                  label={t('recipients:fields.organizationNumber')}
                  {...sortProps}
                />
                <th scope="col">{t('recipients:fields.email')}</th>
                <SortableHeader field="city" label={t('recipients:fields.city')} {...sortProps} />
                <th scope="col" title={t('recipients:fields.documentLanguage')}>
                  {t('recipients:columns.documentLanguage')}
                </th>
                <SortableHeader field="updated" label={t('recipients:columns.updated')} {...sortProps} />
                <th scope="col" className="data-table__actions">
                  <span className="visually-hidden">{t('recipients:columns.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((recipient) => (
                <tr key={recipient.recipientID}>
                  <th scope="row" className="data-table__name">
                    {recipient.name}
                  </th>
                  <td data-label={t('recipients:fields.organizationNumber')}>
                    {recipient.organizationNumber}
                  </td>
                  <td data-label={t('recipients:fields.email')}>{recipient.email}</td>
                  <td data-label={t('recipients:fields.city')}>{recipient.city}</td>
                  <td data-label={t('recipients:columns.documentLanguage')}>
                    {t(DOCUMENT_LANGUAGE_LABELS[recipient.documentLanguage])}
                  </td>
                  <td data-label={t('recipients:columns.updated')}>
                    {formatDate(recipient.updated, i18n.language)}
                  </td>
                  <td className="data-table__actions">
                    <Button
                      variant="transparent"
                      label={t('common:actions.edit')}
                      aria-label={t('recipients:actions.edit_row', { name: recipient.name })}
                      onClick={() => {
                        setStatus('');
                        setEditing({ recipient });
                      }}
                    />
                    <Button
                      variant="transparent"
                      className="btn--danger-text"
                      label={t('common:actions.delete')}
                      aria-label={t('recipients:actions.delete_row', { name: recipient.name })}
                      onClick={() => {
                        setStatus('');
                        remove.reset();
                        setDeleting(recipient);
                      }}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        )}
      </ListResults>

      {editing && (
        <RecipientFormModal
          recipient={editing.recipient}
          onClose={() => setEditing(null)}
          onSaved={(saved, created) => {
            setEditing(null);
            setStatus(
              created
                ? t('recipients:page.created', { name: saved.name })
                : t('recipients:page.saved', { name: saved.name }),
            );
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={t('recipients:delete.title')}
          message={t('recipients:delete.text', { name: deleting.name })}
          confirmLabel={t('common:actions.delete')}
          loading={remove.isPending}
          error={remove.isError ? errorText(t, remove.error) : null}
          onHide={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.recipientID, {
              onSuccess: () => {
                setDeleting(null);
                setStatus(t('recipients:page.deleted', { name: deleting.name }));
              },
            })
          }
        />
      )}
    </div>
  );
}
