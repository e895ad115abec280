import { TWO_FACTOR_CODE_LENGTH } from '@portal/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { CodeInput } from '../../../components/ui/text-input';
import { trackFormSubmit } from '../../../lib/analytics';
import { AuthForm } from './auth-form';

interface TwoFactorFormProps {
  loading: boolean;
  onSubmit: (code: string) => void;
  onBack: () => void;
}

/** The two-factor view (spec §2, §5): six digits, verify disabled while shorter. */
export function TwoFactorForm({ loading, onSubmit, onBack }: TwoFactorFormProps) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const isComplete = code.length === TWO_FACTOR_CODE_LENGTH;
  return (
    <AuthForm
      label={t('auth:two_factor.form_label')}
      onSubmit={() => {
        if (!isComplete || loading) return;
        trackFormSubmit('login_two_factor', ['code']);
        onSubmit(code);
      }}
    >
      <h2 className="auth-form__title">{t('auth:two_factor.title')}</h2>
      <p className="auth-form__intro">{t('auth:two_factor.intro')}</p>
      <CodeInput label={t('auth:two_factor.code')} name="code" value={code} onChange={setCode} autoFocus />
      <Button
        type="submit"
        fullWidth
        loading={loading}
        disabled={!isComplete}
        label={t('auth:two_factor.submit')}
      />
      <button type="button" className="link-button" onClick={onBack}>
        {t('auth:common.back_to_login')}
      </button>
    </AuthForm>
  );
}
