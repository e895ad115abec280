import type { Self } from '@portal/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageDialog } from '../../../components/ui/message-dialog';
import { Modal } from '../../../components/ui/modal';
import { Tabs } from '../../../components/ui/tabs';
import { IssuerDetailsForm } from './issuer-details-form';
import { PasswordForm } from './password-form';
import { TwoFactorSettings } from './two-factor-settings';

export type AccountTab = 'details' | 'password' | 'twoFactor';

export interface AccountModalProps {
  self: Self;
  initialTab?: AccountTab;
  onClose: () => void;
}

/** The account modal of spec §2: details (issuer form), password and two-factor tabs. */
export function AccountModal({ self, initialTab = 'details', onClose }: AccountModalProps) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<AccountTab>(initialTab);
  const [saved, setSaved] = useState(false);

  // Spec §8: a saved issuer shows a success dialog and the modal closes.
  if (saved) {
    return (
      <MessageDialog
        tone="success"
        title={t('account:details.success_title')}
        message={t('account:details.success_text')}
        onHide={onClose}
      />
    );
  }

  return (
    <Modal wide hideFooter title={t('account:modal.title')} subtitle={self.issuer.name} onHide={onClose}>
      <Tabs<AccountTab>
        aria-label={t('account:modal.title')}
        activeKey={tab}
        onChange={setTab}
        tabs={[
          {
            key: 'details',
            label: t('account:tabs.details'),
            content: <IssuerDetailsForm issuer={self.issuer} onSaved={() => setSaved(true)} />,
          },
          { key: 'password', label: t('account:tabs.password'), content: <PasswordForm /> },
          {
            key: 'twoFactor',
            label: t('account:tabs.two_factor'),
            content: <TwoFactorSettings enabled={self.twoFactorEnabled} required={self.force2fa} />,
          },
        ]}
      />
    </Modal>
  );
}
