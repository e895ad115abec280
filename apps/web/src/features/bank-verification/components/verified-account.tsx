import type { VerifiedBankAccount } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../lib/format';

const KIND_KEYS = {
  'se-bban': 'bank-verification:account.kinds.se-bban',
  bankgiro: 'bank-verification:account.kinds.bankgiro',
  iban: 'bank-verification:account.kinds.iban',
} as const;

/** The verified account's facts, its number masked to the last four digits (the server masks it). */
export function VerifiedAccount({
  account,
  testId = 'verified-account',
}: {
  account: VerifiedBankAccount;
  testId?: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <dl className="facts" data-testid={testId}>
      <dt>{t('bank-verification:account.bank')}</dt>
      <dd>{account.bankName}</dd>
      <dt>{t(KIND_KEYS[account.kind])}</dt>
      <dd>{account.masked}</dd>
      <dt>{t('bank-verification:account.holder')}</dt>
      <dd>{account.holderName}</dd>
      <dt>{t('bank-verification:account.verified_at')}</dt>
      <dd>{formatDate(account.verifiedAt, i18n.language)}</dd>
    </dl>
  );
}
