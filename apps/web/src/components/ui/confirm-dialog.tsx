import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/messages';
import { Modal } from './modal';

/** What the dialog shows of the call its confirm starts (a mutation): running, or failed and why. */
export interface ConfirmedAction {
  isPending: boolean;
  isError: boolean;
  error: unknown;
}

export interface ConfirmDialogProps {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onHide: () => void;
  /**
   * The call the confirm starts: a spinner covers the dialog while it runs, and its failure is shown
   * translated in the dialog, so the user can try again or cancel.
   */
  action: ConfirmedAction;
}

/** Asks before a destructive action (e.g. delete): an alertdialog whose submit is the danger button. */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  onConfirm,
  onHide,
  action,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal
      title={title}
      onHide={onHide}
      onSubmit={onConfirm}
      submitLabel={confirmLabel}
      submitVariant="danger"
      loading={action.isPending}
      alert
    >
      <div className="stack">
        <p className="message-dialog__text">{message}</p>
        {action.isError && (
          <p className="notice notice--error" role="alert">
            {errorText(t, action.error)}
          </p>
        )}
      </div>
    </Modal>
  );
}
