import type { Recipient } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import {
  DataTable,
  DeleteDialog,
  ListResults,
  RegisterPage,
  RowActions,
  sortPropsOf,
  usePageInRange,
  useRegister,
} from '../../../components/ui/list-results';
import { SortableHeader } from '../../../components/ui/sortable-header';
import { formatDate } from '../../../lib/format';
import { useDeleteRecipient } from '../api/delete-recipient';
import { type RecipientListQuery, useRecipients } from '../api/list-recipients';
import { DOCUMENT_LANGUAGE_LABELS, RecipientFormModal } from './recipient-form-modal';

export interface RecipientsPageProps {
  query: RecipientListQuery;
  onQueryChange: (patch: Partial<RecipientListQuery>, options?: { replace?: boolean }) => void;
}

/**
 * `/recipient` (spec §2): the recipients as a searchable, sortable, paged table with create, edit and
 * delete. The query lives in the URL; the route parses it with the contract schema.
 */
export function RecipientsPage({ query, onQueryChange }: RecipientsPageProps) {
  const { t, i18n } = useTranslation();
  const list = useRecipients(query);
  const remove = useDeleteRecipient();
  const register = useRegister<Recipient>(remove);
  const { editing, deleting } = register;

  usePageInRange(list, query, onQueryChange);
  const sortProps = sortPropsOf(query, onQueryChange);

  return (
    <RegisterPage
      title={t('recipients:page.title')}
      lead={t('recipients:page.lead')}
      search={query.search ?? ''}
      onSearch={(search) => onQueryChange({ search, page: 1 }, { replace: true })}
      searchLabel={t('recipients:page.search')}
      searchHint={t('recipients:page.search_hint')}
      newLabel={t('recipients:page.new')}
      register={register}
    >
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
                  <RowActions
                    editLabel={t('recipients:actions.edit_row', { name: recipient.name })}
                    deleteLabel={t('recipients:actions.delete_row', { name: recipient.name })}
                    onEdit={() => register.startEdit(recipient)}
                    onDelete={() => register.startDelete(recipient)}
                  />
                </tr>
              ))}
            </tbody>
          </DataTable>
        )}
      </ListResults>

      {editing && (
        <RecipientFormModal
          recipient={editing.item}
          onClose={register.closeEditor}
          onSaved={(saved, created) =>
            register.done(
              created
                ? t('recipients:page.created', { name: saved.name })
                : t('recipients:page.saved', { name: saved.name }),
            )
          }
        />
      )}
      {deleting && (
        <DeleteDialog
          title={t('recipients:delete.title')}
          message={t('recipients:delete.text', { name: deleting.name })}
          remove={remove}
          onHide={register.closeDelete}
          onConfirm={() =>
            remove.mutate(deleting.recipientID, {
              onSuccess: () => register.done(t('recipients:page.deleted', { name: deleting.name })),
            })
          }
        />
      )}
    </RegisterPage>
  );
}
