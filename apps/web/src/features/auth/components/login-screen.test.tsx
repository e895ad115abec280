import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { getSession } from '../../../lib/session-store';
import { installFakeApi, makeSelf } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { LoginScreen } from './login-screen';

const { abilities, issuer, taxRates, currencies, messages, group, ...user } = makeSelf();

function renderLogin(props: Partial<Parameters<typeof LoginScreen>[0]> = {}) {
  const onSignedIn = vi.fn();
  renderWithProviders(<LoginScreen onSignedIn={onSignedIn} {...props} />, { path: '/login' });
  return { onSignedIn, user: userEvent.setup() };
}

describe('LoginScreen', () => {
  it('signs in with Enter in the credentials view and stores user and token', async () => {
    const api = installFakeApi({
      'POST /api/login/limited': () => ({
        status: 200,
        body: { requireTwoFactor: false, token: 'tok', user },
      }),
    });
    const { onSignedIn, user: u } = renderLogin();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Customer Portal');
    await u.type(screen.getByLabelText('Username'), 'demo');
    await u.type(screen.getByLabelText('Password'), 'Portal-demo-1{Enter}');
    await waitFor(() => expect(onSignedIn).toHaveBeenCalled());
    expect(api.calls[0]?.body).toEqual({ username: 'demo', password: 'Portal-demo-1' });
    expect(getSession().token).toBe('tok');
    expect(JSON.parse(localStorage.getItem('token') ?? 'null')).toBe('tok');
    expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toMatchObject({ username: 'demo' });
  });

  it('sends the group on a group login and shows its name as the heading', async () => {
    const api = installFakeApi({
      'POST /api/login/limited': () => ({ status: 200, body: { requireTwoFactor: false, token: 't', user } }),
    });
    const { user: u } = renderLogin({
      group: { id: 'acme', name: 'Acme Finans', logo: null, background: null },
    });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Acme Finans');
    await u.type(screen.getByLabelText('Username'), 'demo');
    await u.type(screen.getByLabelText('Password'), 'x{Enter}');
    await waitFor(() => expect(api.calls).toHaveLength(1));
    expect(api.calls[0]?.body).toMatchObject({ group: 'acme' });
  });

  it('shows the login error dialog with the translated text on 401', async () => {
    installFakeApi({
      'POST /api/login/limited': () => ({ status: 401, body: { code: 'auth.invalid_credentials' } }),
    });
    const { onSignedIn, user: u } = renderLogin();
    await u.type(screen.getByLabelText('Username'), 'demo');
    await u.type(screen.getByLabelText('Password'), 'wrong{Enter}');
    const dialog = await screen.findByRole('alertdialog', { name: 'Sign-in failed' });
    expect(dialog).toHaveTextContent('Wrong username or password.');
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it('shows the wait time on 429', async () => {
    installFakeApi({
      'POST /api/login/limited': () => ({
        status: 429,
        body: { code: 'auth.too_many_attempts', retryAfterSeconds: 600 },
      }),
    });
    const { user: u } = renderLogin();
    await u.type(screen.getByLabelText('Username'), 'demo');
    await u.type(screen.getByLabelText('Password'), 'x{Enter}');
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('Try again in 10 min.');
  });

  it('two-factor: verify stays disabled under six digits, Enter verifies, back returns', async () => {
    const api = installFakeApi({
      'POST /api/login/limited': () => ({ status: 200, body: { requireTwoFactor: true, token: 'step1' } }),
      'POST /api/login/limited-2fa': () => ({ status: 200, body: { token: 'session', user } }),
    });
    const { onSignedIn, user: u } = renderLogin();
    await u.type(screen.getByLabelText('Username'), 'demo-2fa');
    await u.type(screen.getByLabelText('Password'), 'x{Enter}');
    const code = await screen.findByLabelText('Verification code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    const verify = screen.getByRole('button', { name: 'Verify' });
    await u.type(code, '12345');
    expect(verify).toBeDisabled();
    await u.type(code, '{Enter}');
    expect(api.calls).toHaveLength(1);
    await u.type(code, '6{Enter}');
    await waitFor(() => expect(onSignedIn).toHaveBeenCalled());
    expect(api.calls[1]?.body).toEqual({ token: 'step1', code: '123456' });
    expect(getSession().token).toBe('session');
  });

  it('two-factor failure shows the two-factor error dialog; back link returns to credentials', async () => {
    installFakeApi({
      'POST /api/login/limited': () => ({ status: 200, body: { requireTwoFactor: true, token: 'step1' } }),
      'POST /api/login/limited-2fa': () => ({ status: 401, body: { code: 'auth.invalid_code' } }),
    });
    const { user: u } = renderLogin();
    await u.type(screen.getByLabelText('Username'), 'demo-2fa');
    await u.type(screen.getByLabelText('Password'), 'x{Enter}');
    await u.type(await screen.findByLabelText('Verification code'), '000000{Enter}');
    const dialog = await screen.findByRole('alertdialog', { name: 'Verification failed' });
    expect(dialog).toHaveTextContent('Invalid verification code.');
    await u.click(within(dialog).getAllByRole('button', { name: 'Close' })[0] as HTMLElement);
    await u.click(screen.getByRole('button', { name: 'Back to sign-in' }));
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
  });

  it('reset request: username required, 404 dialog, success info then back to credentials', async () => {
    let found = false;
    const api = installFakeApi({
      'POST /api/limited/password': () =>
        found
          ? { status: 200, body: { ok: true } }
          : { status: 404, body: { code: 'password.user_not_found' } },
    });
    const { user: u } = renderLogin();
    await u.click(screen.getByRole('button', { name: 'Forgot your password?' }));
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Send link' }));
    expect(await screen.findByText('This field is required.')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);

    await u.type(screen.getByLabelText('Username'), 'nobody{Enter}');
    const dialog = await screen.findByRole('alertdialog', { name: 'Username not found' });
    expect(dialog).toHaveTextContent('There is no active user with that username.');
    await u.keyboard('{Escape}');

    found = true;
    await u.type(screen.getByLabelText('Username'), '{Enter}');
    const info = await screen.findByRole('dialog', { name: 'Check your email' });
    await u.click(within(info).getAllByRole('button', { name: 'Close' })[0] as HTMLElement);
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
  });
});
