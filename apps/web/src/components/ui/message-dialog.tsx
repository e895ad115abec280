import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from './modal';

export interface MessageDialogProps {
  title: string;
  message: ReactNode;
  onHide: () => void;
  tone?: 'error' | 'success' | 'info';
}

/** An error, success or info message as a dialog with one close button (spec §8 error dialogs). */
export function MessageDialog({ title, message, onHide, tone = 'error' }: MessageDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal
      title={title}
      onHide={onHide}
      hideSubmit
      cancelLabel={t('common:actions.close')}
      alert={tone === 'error'}
      className={`modal--${tone}`}
    >
      <div className="message-dialog__text">{message}</div>
    </Modal>
  );
}
