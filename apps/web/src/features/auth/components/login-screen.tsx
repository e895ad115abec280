import { type Group, LOGIN_THROTTLE_WINDOW_MINUTES } from '@portal/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageFlags } from '../../../components/ui/language-flags';
import { MessageDialog } from '../../../components/ui/message-dialog';
import { ApiError } from '../../../lib/api-client';
import { errorText } from '../../../lib/messages';
import { updateSession } from '../../../lib/session-store';
import { type login, useLogin } from '../api/login';
import { useLogin2fa } from '../api/login-2fa';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { CredentialsForm } from './credentials-form';
import { ResetRequestForm } from './reset-request-form';
import { TwoFactorForm } from './two-factor-form';

type View = 'credentials' | 'reset' | 'twoFactor';

interface Dialog {
  title: string;
  message: string;
  tone: 'error' | 'info';
  /** Where to go once the dialog is closed. */
  next?: View;
}

export interface LoginScreenProps {
  /** The branded group of a group login (spec §2); undefined on the plain login. */
  group?: Group;
  /** Called once the user and token are stored. */
  onSignedIn: () => void;
}

/**
 * The login screen of spec §2: credentials, reset request and two-factor views switched in place.
 * Enter submits the active view because each view is its own form.
 */
export function LoginScreen({ group, onSignedIn }: LoginScreenProps) {
  const { t } = useTranslation();
  const [view, setView] = useState<View>('credentials');
  const [firstStepToken, setFirstStepToken] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const loginMutation = useLogin();
  const login2faMutation = useLogin2fa();
  const resetMutation = useRequestPasswordReset();

  function showError(titleKey: string, error: unknown) {
    setDialog({
      title: t(titleKey),
      message: errorText(t, error, LOGIN_THROTTLE_WINDOW_MINUTES),
      tone: 'error',
    });
  }

  function completeSignIn(token: string, user: NonNullable<Awaited<ReturnType<typeof login>>['user']>) {
    updateSession({ token, user, group: group ?? null });
    onSignedIn();
  }

  const brand = group?.logo ? (
    <img className="login__logo" src={group.logo} alt={group.name} />
  ) : (
    (group?.name ?? t('common:app.name'))
  );

  return (
    <main
      className="login"
      style={group?.background ? { backgroundImage: `url(${JSON.stringify(group.background)})` } : undefined}
    >
      <div className="login__panel">
        <h1 className="login__heading">{brand}</h1>
        {view === 'credentials' && (
          <CredentialsForm
            loading={loginMutation.isPending}
            onForgotPassword={() => setView('reset')}
            onSubmit={(values) =>
              loginMutation.mutate(
                { ...values, ...(group ? { group: group.id } : {}) },
                {
                  onSuccess: (answer) => {
                    if (answer.requireTwoFactor || !answer.user) {
                      // The first-step token may only verify a code (spec §4); it is not a session.
                      setFirstStepToken(answer.token);
                      setView('twoFactor');
                      return;
                    }
                    completeSignIn(answer.token, answer.user);
                  },
                  onError: (error) => showError('auth:login.error_title', error),
                },
              )
            }
          />
        )}
        {view === 'reset' && (
          <ResetRequestForm
            loading={resetMutation.isPending}
            onBack={() => setView('credentials')}
            onSubmit={(values) =>
              resetMutation.mutate(values, {
                onSuccess: () =>
                  setDialog({
                    title: t('auth:reset_request.sent_title'),
                    message: t('auth:reset_request.sent_text'),
                    tone: 'info',
                    next: 'credentials',
                  }),
                onError: (error) =>
                  error instanceof ApiError && error.status === 404
                    ? setDialog({
                        title: t('auth:reset_request.not_found_title'),
                        message: t('errors:password.user_not_found'),
                        tone: 'error',
                      })
                    : showError('auth:reset_request.error_title', error),
              })
            }
          />
        )}
        {view === 'twoFactor' && (
          <TwoFactorForm
            loading={login2faMutation.isPending}
            onBack={() => {
              setFirstStepToken(null);
              setView('credentials');
            }}
            onSubmit={(code) =>
              login2faMutation.mutate(
                { token: firstStepToken ?? '', code },
                {
                  onSuccess: (answer) => completeSignIn(answer.token, answer.user),
                  onError: (error) => {
                    showError('auth:two_factor.error_title', error);
                    // An expired first step cannot be retried: the user signs in again.
                    if (error instanceof ApiError && error.code === 'auth.two_factor_token_expired') {
                      setFirstStepToken(null);
                      setView('credentials');
                    }
                  },
                },
              )
            }
          />
        )}
        <LanguageFlags className="login__languages" />
      </div>
      {dialog && (
        <MessageDialog
          title={dialog.title}
          message={dialog.message}
          tone={dialog.tone}
          onHide={() => {
            if (dialog.next) setView(dialog.next);
            setDialog(null);
          }}
        />
      )}
    </main>
  );
}
