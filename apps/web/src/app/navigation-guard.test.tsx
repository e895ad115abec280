import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { catchAllOutcome, findAppPath, paths } from '../config/paths';
import { getSession, reloadSessionFromStorage } from '../lib/session-store';
import { startRealApi } from '../test/real-api';
import { renderApp } from '../test/render';

// One real server for the whole file; each test starts from the demo seed.
const api = startRealApi();

describe('navigation guard (spec §2)', () => {
  it('sends a signed-out user from / to /login', async () => {
    const { router } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('sends a signed-out user from a gated path to /login too', async () => {
    const { router } = renderApp('/invoices');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('lets a signed-out user open the password reset link', async () => {
    await api.call('POST', '/api/limited/password', { username: 'demo' });
    const link = /\/password\/reset\/([A-Za-z0-9_-]+)/.exec(api.server.mailer.sent[0]?.text ?? '');
    const path = `/password/reset/${link?.[1]}`;
    const { router } = renderApp(path);
    expect(await screen.findByLabelText('New password')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(path);
  });

  it('says so when the reset link is unknown', async () => {
    renderApp('/password/reset/old');
    expect(await screen.findByText(/No password reset request was found/)).toBeInTheDocument();
  });

  it('redirects a failed group fetch to the plain login', async () => {
    const { router } = renderApp('/nogroup/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('shows the group branding on a group login', async () => {
    // The demo group `acme`.
    renderApp('/acme/login');
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Finans' })).toBeInTheDocument();
    expect(api.calls[0]?.query.get('group')).toBe('acme');
  });

  it('sends a signed-in user opening login to / and shows the home page after self', async () => {
    await api.signIn('demo');
    const self = await api.call<{ issuer: { organizationNo: string } }>('GET', '/api/self');
    const { router } = renderApp('/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Dana!' })).toBeInTheDocument();
    expect(screen.getByText(self.issuer.organizationNo)).toBeInTheDocument();
  });

  it('blocks a known gated path the abilities lack to /403', async () => {
    // demo-limited may only see and send invoices.
    await api.signIn('demo-limited');
    const { router } = renderApp('/invoice/register');
    expect(await screen.findByRole('heading', { name: 'No access' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/403');
  });

  it('opens an allowed gated path, and shows 404 for an unknown one', async () => {
    // demo has contract financing: the installment plans (issue #14) open.
    await api.signIn('demo');
    renderApp('/installmentplans');
    expect(await screen.findByRole('heading', { level: 1, name: 'Installment plans' })).toBeInTheDocument();
    cleanup();
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });

  it('a 401 from self ends the session and returns to login', async () => {
    // A token the server does not know (an ended session) next to a stored user.
    const { user } = await api.signIn('demo');
    localStorage.setItem('token', JSON.stringify('no-such-session'));
    localStorage.setItem('user', JSON.stringify(user));
    reloadSessionFromStorage();
    const { router } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('logout clears the session and goes to the login', async () => {
    const { token } = await api.signIn('demo');
    const { router } = renderApp('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'User menu for Dana Demosson' }));
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(getSession().token).toBeNull();
    // The server ended the session too.
    expect(await api.selfStatus(token)).toBe(401);
  });

  it('covers the content with the setup overlay while the initial password is in use', async () => {
    // demo-new still has the initial password and must set up two-factor.
    await api.signIn('demo-new');
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Secure your account' })).toBeInTheDocument();
    expect(
      screen.getByText(/You need to change your password and set up two-factor authentication/),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Set up two-factor authentication' }));
    expect(await screen.findByRole('tab', { name: 'Two-factor authentication' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });
});

describe('paths and the catch-all rule', () => {
  it.each([
    ['/invoice/register', [], 'not-found'],
    ['/invoice/register', ['limited_invoices'], 'forbidden'],
    ['/invoice/register', ['limited_register_invoice'], 'not-found'],
    ['/invoices', ['limited_transfercosts'], 'not-found'],
    ['/reports/ledger', ['limited_invoices'], 'forbidden'],
    ['/invoice/edit/42', ['limited_invoices'], 'forbidden'],
    ['/recipient', ['limited_invoices'], 'not-found'],
    ['/installmentplans/42', ['limited_invoices'], 'forbidden'],
    ['/no/such/page', ['limited_invoices'], 'not-found'],
  ] as const)('%s with %j → %s', (path, abilities, outcome) => {
    expect(catchAllOutcome(path, abilities)).toBe(outcome);
  });

  it('builds links and finds routes with parameters', () => {
    expect(paths.groupLogin.getHref('acme')).toBe('/acme/login');
    expect(paths.passwordReset.name).toBe('password.reset');
    expect(findAppPath('/invoice/messages')?.path).toBe('/invoice/messages');
  });
});
