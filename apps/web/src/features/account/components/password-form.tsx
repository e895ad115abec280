import { changePasswordFormSchema } from '@portal/contracts';
import { useState } from 'react';
import { type FieldErrors, type Resolver, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { PasswordInputs, TrackedForm } from '../../../components/ui/form-fields';
import { MessageDialog } from '../../../components/ui/message-dialog';
import { ApiError } from '../../../lib/api-client';
import { errorText } from '../../../lib/messages';
import { useChangePassword } from '../api/change-password';

/**
 * The form layer names the fields currentPassword/newPassword/confirmPassword, so that form tracking
 * recognises them as sensitive (spec §5); the API's names are old/new/confirm.
 */
export interface PasswordFields {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

const FIELD_FOR_API = { old: 'currentPassword', new: 'newPassword', confirm: 'confirmPassword' } as const;

/** Validates with the contract's changePasswordFormSchema, mapping its field names to the form's. */
export const passwordResolver: Resolver<PasswordFields> = async (values) => {
  const result = changePasswordFormSchema.safeParse({
    old: values.currentPassword,
    new: values.newPassword,
    confirm: values.confirmPassword,
  });
  if (result.success) return { values, errors: {} };
  const errors: FieldErrors<PasswordFields> = {};
  for (const issue of result.error.issues) {
    const field = FIELD_FOR_API[issue.path[0] as keyof typeof FIELD_FOR_API];
    if (field && !errors[field]) errors[field] = { type: 'validation', message: issue.message };
  }
  return { values: {}, errors };
};

const EMPTY: PasswordFields = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** The password tab (spec §5): the button stays disabled until all three fields are filled. */
export function PasswordForm() {
  const { t } = useTranslation();
  const change = useChangePassword();
  const [outcome, setOutcome] = useState<'success' | { error: unknown } | null>(null);
  const { control, handleSubmit, reset } = useForm<PasswordFields>({
    resolver: passwordResolver,
    defaultValues: EMPTY,
  });
  const values = useWatch({ control });
  const isFilled = Boolean(values.currentPassword && values.newPassword && values.confirmPassword);

  function errorMessage(error: unknown): string {
    if (error instanceof ApiError && error.status === 412) return t('errors:account.wrong_old_password');
    if (error instanceof ApiError && error.status === 400) return t('errors:account.invalid_new_password');
    return errorText(t, error);
  }

  return (
    <TrackedForm
      className="stack"
      label={t('account:password.title')}
      event="change_password"
      handleSubmit={handleSubmit}
      onValid={(form) =>
        change.mutate(
          { old: form.currentPassword, new: form.newPassword },
          {
            onSuccess: () => {
              reset(EMPTY);
              setOutcome('success');
            },
            onError: (error) => setOutcome({ error }),
          },
        )
      }
    >
      <p className="muted">{t('account:password.policy')}</p>
      <PasswordInputs control={control} withCurrent />
      <div>
        <Button
          type="submit"
          disabled={!isFilled}
          loading={change.isPending}
          label={t('account:password.submit')}
        />
      </div>
      {outcome === 'success' && (
        <MessageDialog
          tone="success"
          title={t('account:password.success_title')}
          message={t('account:password.success_text')}
          onHide={() => setOutcome(null)}
        />
      )}
      {outcome !== null && outcome !== 'success' && (
        <MessageDialog
          title={t('account:password.error_title')}
          message={errorMessage(outcome.error)}
          onHide={() => setOutcome(null)}
        />
      )}
    </TrackedForm>
  );
}
