import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { catchAllOutcome, findAppPath, paths } from '../config/paths';
import { reloadSessionFromStorage } from '../lib/session-store';
import { installFakeApi, makeSelf } from '../test/fake-api';
import { renderApp } from '../test/render';

function signIn() {
  const { abilities, issuer, taxRates, currencies, messages, group, ...user } = makeSelf();
  localStorage.setItem('token', JSON.stringify('tok'));
  localStorage.setItem('user', JSON.stringify(user));
  reloadSessionFromStorage();
}

describe('navigation guard (spec §2)', () => {
  it('sends a signed-out user from / to /login', async () => {
    installFakeApi({});
    const { router } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('sends a signed-out user from a gated path to /login too', async () => {
    installFakeApi({});
    const { router } = renderApp('/invoices');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('lets a signed-out user open the password reset link', async () => {
    installFakeApi({ 'GET /api/limited/password/reset/abc': () => ({ status: 200, body: { ok: true } }) });
    const { router } = renderApp('/password/reset/abc');
    expect(await screen.findByLabelText('New password')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/password/reset/abc');
  });

  it('says so when the reset link is unknown', async () => {
    installFakeApi({
      'GET /api/limited/password/reset/old': () => ({
        status: 404,
        body: { code: 'password.reset_not_found' },
      }),
    });
    renderApp('/password/reset/old');
    expect(await screen.findByText(/No password reset request was found/)).toBeInTheDocument();
  });

  it('redirects a failed group fetch to the plain login', async () => {
    installFakeApi({ 'GET /api/limited/group': () => ({ status: 404, body: { code: 'group.not_found' } }) });
    const { router } = renderApp('/nogroup/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('shows the group branding on a group login', async () => {
    const api = installFakeApi({
      'GET /api/limited/group': () => ({
        status: 200,
        body: { id: 'acme', name: 'Acme Finans', logo: null, background: null },
      }),
    });
    renderApp('/acme/login');
    expect(await screen.findByRole('heading', { level: 1, name: 'Acme Finans' })).toBeInTheDocument();
    expect(api.calls[0]?.query.get('group')).toBe('acme');
  });

  it('sends a signed-in user opening login to / and shows the home page after self', async () => {
    signIn();
    installFakeApi({ 'GET /api/self': () => ({ status: 200, body: makeSelf() }) });
    const { router } = renderApp('/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Anna!' })).toBeInTheDocument();
    expect(screen.getByText('556036-0793')).toBeInTheDocument();
  });

  it('blocks a known gated path the abilities lack to /403', async () => {
    signIn();
    installFakeApi({
      'GET /api/self': () => ({ status: 200, body: makeSelf({ abilities: ['limited_invoices'] }) }),
    });
    const { router } = renderApp('/invoice/register');
    expect(await screen.findByRole('heading', { name: 'No access' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/403');
  });

  it('shows 404 for a gated path that is allowed but has no screen yet, and for unknown paths', async () => {
    signIn();
    installFakeApi({
      'GET /api/self': () => ({ status: 200, body: makeSelf({ abilities: ['limited_invoices'] }) }),
    });
    renderApp('/transfercosts');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });

  it('a 401 from self ends the session and returns to login', async () => {
    signIn();
    installFakeApi({ 'GET /api/self': () => ({ status: 401, body: { code: 'auth.unauthorized' } }) });
    const { router } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('logout clears the session and goes to the login', async () => {
    signIn();
    installFakeApi({
      'GET /api/self': () => ({ status: 200, body: makeSelf() }),
      'POST /api/logout': () => ({ status: 200, body: { ok: true } }),
    });
    const { router } = renderApp('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'User menu for Anna Andersson' }));
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('covers the content with the setup overlay while the initial password is in use', async () => {
    signIn();
    installFakeApi({
      'GET /api/self': () => ({ status: 200, body: makeSelf({ lastPasswordChange: null, force2fa: true }) }),
    });
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
