import { TWO_FACTOR_CODE_LENGTH, type VerifiedBankAccount } from '@portal/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ErrorNotice } from '../../../components/ui/load-states';
import { CodeInput } from '../../../components/ui/text-input';
import { VerifiedAccount } from './verified-account';

/** One of the two accounts compared, under its heading. */
function AccountSection({
  id,
  title,
  account,
  testId,
}: {
  id: string;
  title: string;
  account: VerifiedBankAccount;
  testId: string;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="section-title">
        {title}
      </h2>
      <VerifiedAccount account={account} testId={testId} />
    </section>
  );
}

/**
 * The step between a verified new account and the switch (docs/INTEGRATIONS.md "Changing the
 * account"): the account payouts go to now and the new one side by side, and the user's two-factor
 * code to confirm. Nothing changes until the server accepts the code.
 */
export function ConfirmAccountChange({
  account,
  replaces,
  error,
  isPending,
  onConfirm,
}: {
  account: VerifiedBankAccount;
  replaces: VerifiedBankAccount | null;
  /** The refusal of the last try (a wrong or spent code), if any. */
  error: Error | null;
  isPending: boolean;
  onConfirm: (code: string) => void;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const isComplete = code.length === TWO_FACTOR_CODE_LENGTH;
  return (
    <Card header={t('bank-verification:confirm.title')}>
      <p className="notice notice--warning">{t('bank-verification:confirm.text')}</p>
      <div className="bank-verification__compare">
        {replaces && (
          <AccountSection
            id="confirm-current"
            title={t('bank-verification:confirm.current')}
            account={replaces}
            testId="current-account"
          />
        )}
        <AccountSection
          id="confirm-new"
          title={t('bank-verification:confirm.new')}
          account={account}
          testId="new-account"
        />
      </div>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (isComplete) onConfirm(code);
        }}
      >
        <CodeInput
          className="bank-verification__code"
          label={t('bank-verification:confirm.code')}
          name="code"
          value={code}
          onChange={setCode}
        />
        {error && <ErrorNotice error={error} />}
        <div className="bank-verification__actions">
          <Button
            type="submit"
            disabled={!isComplete}
            loading={isPending}
            label={t('bank-verification:confirm.submit')}
          />
        </div>
      </form>
    </Card>
  );
}
