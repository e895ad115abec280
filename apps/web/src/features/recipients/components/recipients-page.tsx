import type { Recipient } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { RegisterList } from '../../../components/ui/list-results';
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
      columns={[
        { label: t('recipients:fields.name'), sort: 'name' },
        { label: t('recipients:fields.organizationNumber'), sort: 'organizationNumber' },
        { label: t('recipients:fields.email') },
        { label: t('recipients:fields.city'), sort: 'city' },
        { label: t('recipients:columns.documentLanguage'), title: t('recipients:fields.documentLanguage') },
        { label: t('recipients:columns.updated'), sort: 'updated' },
      ]}
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
