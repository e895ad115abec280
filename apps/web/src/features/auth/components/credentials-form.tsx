import type { LoginBody } from '@portal/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { TextInput } from '../../../components/ui/text-input';
import { trackFormSubmit } from '../../../lib/analytics';
import { type FieldErrorCodes, loadPublicSchemas, validateWith } from '../../../lib/load-schemas';
import { AuthForm } from './auth-form';

export type Credentials = Pick<LoginBody, 'username' | 'password'>;

interface CredentialsFormProps {
  loading: boolean;
  onSubmit: (values: Credentials) => void;
  onForgotPassword: () => void;
}

/** The credentials view of the login screen (spec §2), validated with the contract's loginBodySchema. */
export function CredentialsForm({ loading, onSubmit, onForgotPassword }: CredentialsFormProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Credentials>({ username: '', password: '' });
  const [errors, setErrors] = useState<FieldErrorCodes<Credentials>>({});
  // The schemas that check and parse the sign-in: fetched once the form is on screen, while the
  // visitor types, so that they never delay the form itself.
  useEffect(() => {
    void loadPublicSchemas();
  }, []);

  /** What a field shows and how it changes: its value, its error code and its setter in `values`. */
  const field = (name: keyof Credentials) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (value: string) => setValues((v) => ({ ...v, [name]: value })),
  });

  return (
    <AuthForm
      label={t('auth:login.form_label')}
      onSubmit={async () => {
        const result = await validateWith(
          (s) => s.loginBodySchema.pick({ username: true, password: true }),
          values,
        );
        setErrors(result.errors ?? {});
        if (!result.data) return;
        trackFormSubmit('login', Object.keys(values));
        onSubmit(result.data);
      }}
    >
      <TextInput label={t('auth:login.username')} autoComplete="username" {...field('username')} />
      <TextInput
        label={t('auth:login.password')}
        type="password"
        autoComplete="current-password"
        {...field('password')}
      />
      <Button
        type="submit"
        fullWidth
        loading={loading}
        label={t('auth:login.submit')}
        trackingName="login_submit"
      />
      <button type="button" className="link-button" onClick={onForgotPassword}>
        {t('auth:login.forgot_password')}
      </button>
    </AuthForm>
  );
}
