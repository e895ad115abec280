import type { Recipient } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { RegisterList } from '../../../components/ui/list-results';
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
  return (
    <RegisterList<Recipient, RecipientListQuery['sort']>
      ns="recipients"
      query={query}
      onQueryChange={onQueryChange}
      list={useRecipients(query)}
      remove={useDeleteRecipient()}
      idOf={(recipient) => recipient.recipientID}
      head={(sortProps) => (
        <>
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
        </>
      )}
      cells={(recipient) => (
        <>
          <th scope="row" className="data-table__name">
            {recipient.name}
          </th>
          <td data-label={t('recipients:fields.organizationNumber')}>{recipient.organizationNumber}</td>
          <td data-label={t('recipients:fields.email')}>{recipient.email}</td>
          <td data-label={t('recipients:fields.city')}>{recipient.city}</td>
          <td data-label={t('recipients:columns.documentLanguage')}>
            {t(DOCUMENT_LANGUAGE_LABELS[recipient.documentLanguage])}
          </td>
          <td data-label={t('recipients:columns.updated')}>{formatDate(recipient.updated, i18n.language)}</td>
        </>
      )}
      deleteMessage={(recipient) => t('recipients:delete.text', { name: recipient.name })}
      form={(recipient, onClose, onSaved) => (
        <RecipientFormModal recipient={recipient} onClose={onClose} onSaved={onSaved} />
      )}
    />
  );
}
