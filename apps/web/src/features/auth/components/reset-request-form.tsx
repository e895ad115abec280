import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { TextInput } from '../../../components/ui/text-input';
import { trackFormSubmit } from '../../../lib/analytics';
import { validateWith } from '../../../lib/load-schemas';
import { AuthForm } from './auth-form';

interface ResetRequestFormProps {
  loading: boolean;
  onSubmit: (values: { username: string }) => void;
  onBack: () => void;
}

/** The reset request view (spec §2 password.reset.request): the username only, required (spec §5). */
export function ResetRequestForm({ loading, onSubmit, onBack }: ResetRequestFormProps) {
  const { t } = useTranslation();
  const [username, setUsername] = useState('');
  const [error, setError] = useState<string | undefined>();
  return (
    <AuthForm
      label={t('auth:reset_request.form_label')}
      onSubmit={async () => {
        const result = await validateWith((s) => s.requestPasswordResetBodySchema, { username });
        setError(result.errors?.username);
        if (!result.data) return;
        trackFormSubmit('password_reset_request', ['username']);
        onSubmit(result.data);
      }}
    >
      <h2 className="auth-form__title">{t('auth:reset_request.title')}</h2>
      <p className="auth-form__intro">{t('auth:reset_request.intro')}</p>
      <TextInput
        label={t('auth:login.username')}
        name="username"
        autoComplete="username"
        value={username}
        error={error}
        onChange={setUsername}
      />
      <Button type="submit" fullWidth loading={loading} label={t('auth:reset_request.submit')} />
      <button type="button" className="link-button" onClick={onBack}>
        {t('auth:common.back_to_login')}
      </button>
    </AuthForm>
  );
}
