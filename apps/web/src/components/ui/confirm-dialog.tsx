import type { ReactNode } from 'react';
import { Modal } from './modal';

export interface ConfirmDialogProps {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onHide: () => void;
  /** Covers the dialog with a spinner while the action runs. */
  loading?: boolean;
  /** A translated failure, shown in the dialog so the user can try again or cancel. */
  error?: string | null;
}

/** Asks before a destructive action (e.g. delete): an alertdialog whose submit is the danger button. */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  onConfirm,
  onHide,
  loading = false,
  error = null,
}: ConfirmDialogProps) {
  return (
    <Modal
      title={title}
      onHide={onHide}
      onSubmit={onConfirm}
      submitLabel={confirmLabel}
      submitVariant="danger"
      loading={loading}
      alert
    >
      <div className="stack">
        <p className="message-dialog__text">{message}</p>
        {error && (
          <p className="notice notice--error" role="alert">
            {error}
          </p>
        )}
      </div>
    </Modal>
  );
}
