import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it, vi } from 'vitest';
import { getSession } from '../../../lib/session-store';
import { startRealApi } from '../../../test/real-api';
import { renderWithProviders } from '../../../test/render';
import { LoginScreen } from './login-screen';

/** The demo seed's TOTP secret of `demo-2fa` (README, demo logins). */
const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';

function renderLogin(props: Partial<Parameters<typeof LoginScreen>[0]> = {}) {
  const onSignedIn = vi.fn();
  renderWithProviders(<LoginScreen onSignedIn={onSignedIn} {...props} />, { path: '/login' });
  return { onSignedIn, user: userEvent.setup() };
}

describe('LoginScreen', () => {
  const api = startRealApi();

  /** The code the server accepts now: its clock stands still at the test START instant. */
  function currentCode(): string {
    const totp = new TOTP({ secret: Secret.fromBase32(DEMO_TOTP_SECRET), algorithm: 'SHA1', digits: 6 });
    return totp.generate({ timestamp: api.server.clock.now().getTime() });
  }

  it('signs in with Enter in the credentials view and stores user and token', async () => {
    const { onSignedIn, user: u } = renderLogin();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Customer Portal');
    await u.type(screen.getByLabelText('Username'), 'demo');
    await u.type(screen.getByLabelText('Password'), 'Portal-demo-1{Enter}');
    await waitFor(() => expect(onSignedIn).toHaveBeenCalled());
    expect(api.calls[0]?.body).toEqual({ username: 'demo', password: 'Portal-demo-1' });
    const token = getSession().token;
    expect(token).toEqual(expect.any(String));
    expect(JSON.parse(localStorage.getItem('token') ?? 'null')).toBe(token);
    expect(JSON.parse(localStorage.getItem('user') ?? 'null')).toMatchObject({
      username: 'demo',
      firstName: 'Dana',
    });
    // The stored token is a live session on the server.
    expect(await api.selfStatus(String(token))).toBe(200);
  });

  it('sends the group on a group login and shows its name as the heading', async () => {
    const { onSignedIn, user: u } = renderLogin({
      group: { id: 'acme', name: 'Acme Finans', logo: null, background: null },
    });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Acme Finans');
    await u.type(screen.getByLabelText('Username'), 'demo');
    await u.type(screen.getByLabelText('Password'), 'Portal-demo-1{Enter}');
    await waitFor(() => expect(onSignedIn).toHaveBeenCalled());
    expect(api.calls[0]?.body).toMatchObject({ group: 'acme' });
  });

  it('shows the login error dialog with the translated text for a wrong password', async () => {
    const { onSignedIn, user: u } = renderLogin();
    await u.type(screen.getByLabelText('Username'), 'demo');
    await u.type(screen.getByLabelText('Password'), 'wrong{Enter}');
    const dialog = await screen.findByRole('alertdialog', { name: 'Sign-in failed' });
    expect(dialog).toHaveTextContent('Wrong username or password.');
    expect(onSignedIn).not.toHaveBeenCalled();
    expect(getSession().token).toBeNull();
  });

  it('shows the wait time once the server throttles the username', async () => {
    api.server.throttle.perUsername = 1;
    const { user: u } = renderLogin();
    await u.type(screen.getByLabelText('Username'), 'demo');
    await u.type(screen.getByLabelText('Password'), 'wrong{Enter}');
    await u.click(
      within(await screen.findByRole('alertdialog')).getAllByRole('button', {
        name: 'Close',
      })[0] as HTMLElement,
    );
    await u.type(screen.getByLabelText('Password'), '{Enter}');
    const minutes = api.server.throttle.windowMinutes;
    await waitFor(() =>
      expect(screen.getByRole('alertdialog')).toHaveTextContent(`Try again in ${minutes} min.`),
    );
  });

  it('two-factor: verify stays disabled under six digits, Enter verifies, back returns', async () => {
    const { onSignedIn, user: u } = renderLogin();
    await u.type(screen.getByLabelText('Username'), 'demo-2fa');
    await u.type(screen.getByLabelText('Password'), 'Portal-demo-1{Enter}');
    const code = await screen.findByLabelText('Verification code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    const verify = screen.getByRole('button', { name: 'Verify' });
    const valid = currentCode();
    await u.type(code, valid.slice(0, 5));
    expect(verify).toBeDisabled();
    await u.type(code, '{Enter}');
    expect(api.calls).toHaveLength(1);
    await u.type(code, `${valid.slice(5)}{Enter}`);
    await waitFor(() => expect(onSignedIn).toHaveBeenCalled());
    expect(api.calls[1]?.body).toMatchObject({ code: valid });
    expect(getSession().user).toMatchObject({ username: 'demo-2fa', twoFactorEnabled: true });
  });

  it('two-factor failure shows the two-factor error dialog; back link returns to credentials', async () => {
    const { user: u } = renderLogin();
    await u.type(screen.getByLabelText('Username'), 'demo-2fa');
    await u.type(screen.getByLabelText('Password'), 'Portal-demo-1{Enter}');
    const wrong = currentCode() === '000000' ? '111111' : '000000';
    await u.type(await screen.findByLabelText('Verification code'), `${wrong}{Enter}`);
    const dialog = await screen.findByRole('alertdialog', { name: 'Verification failed' });
    expect(dialog).toHaveTextContent('Invalid verification code.');
    await u.click(within(dialog).getAllByRole('button', { name: 'Close' })[0] as HTMLElement);
    await u.click(screen.getByRole('button', { name: 'Back to sign-in' }));
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
  });

  it('reset request: username required, unknown user dialog, mail sent then back to credentials', async () => {
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

    await u.clear(screen.getByLabelText('Username'));
    await u.type(screen.getByLabelText('Username'), 'demo{Enter}');
    const info = await screen.findByRole('dialog', { name: 'Check your email' });
    expect(api.server.mailer.sent.map((m) => m.to)).toEqual(['dana@demobygg.se']);
    await u.click(within(info).getAllByRole('button', { name: 'Close' })[0] as HTMLElement);
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
  });
});
