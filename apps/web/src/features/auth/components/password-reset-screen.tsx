import { zodResolver } from '@hookform/resolvers/zod';
import { newPasswordSchema } from '@portal/contracts';
import { accountTexts } from '@portal/i18n/namespaces/account';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { PasswordInputs, TrackedForm } from '../../../components/ui/form-fields';
import { LanguageFlags } from '../../../components/ui/language-flags';
import { MessageDialog } from '../../../components/ui/message-dialog';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { addTexts } from '../../../lib/i18n';
import { errorText } from '../../../lib/messages';
import { useCheckPasswordReset } from '../api/check-password-reset';
import { useResetPassword } from '../api/reset-password';

// The password rules and field names are the account namespace's, which the login page does not load.
addTexts('account', accountTexts);

// Field names say "password" so that form tracking drops them (spec §5).
const newPasswordFormSchema = z
  .object({ newPassword: newPasswordSchema, confirmPassword: z.string().min(1, 'validation.required') })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ['confirmPassword'],
    message: 'validation.password_mismatch',
  });
type NewPasswordForm = z.infer<typeof newPasswordFormSchema>;

/** The password.reset screen (spec §2): checks the link, then sets a new password under the policy. */
export function PasswordResetScreen({ hash }: { hash: string }) {
  const { t } = useTranslation();
  const check = useCheckPasswordReset(hash);
  const reset = useResetPassword();
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const { control, handleSubmit } = useForm<NewPasswordForm>({
    resolver: zodResolver(newPasswordFormSchema),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });

  let content: React.ReactNode;
  if (check.isPending) {
    content = <Spinner />;
  } else if (check.isError) {
    const notFound = check.error instanceof ApiError && check.error.status === 404;
    content = (
      <div className="auth-form">
        <p role="alert" className="notice notice--error">
          {notFound ? t('errors:password.reset_not_found') : errorText(t, check.error)}
        </p>
        <Link className="link-button" to={paths.login.getHref()}>
          {t('auth:common.back_to_login')}
        </Link>
      </div>
    );
  } else if (done) {
    content = (
      <div className="auth-form">
        <p role="status" className="notice notice--success">
          {t('auth:password_reset.done')}
        </p>
        <Link className="btn btn--primary btn--full" to={paths.login.getHref()}>
          {t('auth:common.back_to_login')}
        </Link>
      </div>
    );
  } else {
    content = (
      <TrackedForm
        className="auth-form"
        label={t('auth:password_reset.title')}
        event="password_reset"
        handleSubmit={handleSubmit}
        onValid={(values) =>
          reset.mutate(
            { hash, new: values.newPassword },
            { onSuccess: () => setDone(true), onError: setFailure },
          )
        }
      >
        <h2 className="auth-form__title">{t('auth:password_reset.title')}</h2>
        <p className="auth-form__intro">{t('account:password.policy')}</p>
        <PasswordInputs control={control} />
        <Button type="submit" fullWidth loading={reset.isPending} label={t('auth:password_reset.submit')} />
        <Link className="link-button" to={paths.login.getHref()}>
          {t('auth:common.back_to_login')}
        </Link>
      </TrackedForm>
    );
  }

  return (
    <main className="login">
      <div className="login__panel">
        <h1 className="login__heading">{t('common:app.name')}</h1>
        {content}
        <LanguageFlags className="login__languages" />
      </div>
      {failure !== null && (
        <MessageDialog
          title={t('auth:password_reset.error_title')}
          message={errorText(t, failure)}
          onHide={() => setFailure(null)}
        />
      )}
    </main>
  );
}
