import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from './form-fields';
import { Modal } from './modal';

/**
 * The wide dialog of a register's record form (a recipient, an article): the required-fields note, the
 * failure of the last save (with `failureDetail` after its text), and the form, named by the title,
 * that Enter or the dialog's save button submits.
 */
export function RecordFormModal({
  title,
  failureTitle,
  failure,
  failureDetail,
  loading,
  onClose,
  onSubmit,
  before,
  children,
}: {
  title: string;
  /** What the failure says first ("The recipient could not be saved."). */
  failureTitle: string;
  /** The last save's failure; null when there is none. */
  failure: unknown;
  failureDetail?: ReactNode;
  loading: boolean;
  onClose: () => void;
  onSubmit: () => void;
  /** What stands above the failure and the form (e.g. a company search). */
  before?: ReactNode;
  /** The form's fields. */
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      title={title}
      subtitle={t('common:form.required_note')}
      onHide={onClose}
      onSubmit={onSubmit}
      submitOnEnter
      loading={loading}
      wide
    >
      {before}
      {failure !== null && (
        <FormFailure title={failureTitle} error={failure}>
          {failureDetail}
        </FormFailure>
      )}
      <form
        className="form-grid"
        noValidate
        aria-label={title}
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
      </form>
    </Modal>
  );
}
