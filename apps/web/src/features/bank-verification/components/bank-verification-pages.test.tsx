import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Secret, TOTP } from 'otpauth';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18next } from '../../../lib/i18n';
import { startRealApi } from '../../../test/real-api';
import { renderWithProviders } from '../../../test/render';
import { VerificationResultPage } from './verification-result-page';
import { VerifyBankAccountPage } from './verify-bank-account-page';

// The page's fetch goes to the real server (test/real-api.ts); the server's client reaches the sandbox
// bank provider over HTTP with the fetch it was made with. The person at the bank uses Node's fetch.
const nodeFetch = globalThis.fetch;

/** The person on the provider's hosted page; answers the query the browser comes back with. */
async function atTheBank(link: string, account: string): Promise<Record<string, string>> {
  const res = await nodeFetch(link, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action: 'approve', account }).toString(),
  });
  return Object.fromEntries(new URL(String(res.headers.get('location'))).searchParams);
}

/** The code of the authenticator app at the server's clock. */
function codeAt(secret: string, at: Date): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return totp.generate({ timestamp: at.getTime() });
}

describe('the bank-verification pages', () => {
  const api = startRealApi();
  afterEach(() => act(() => i18next.changeLanguage('en-US')));

  /** Starts a verification at `bankId` and approves `account` there: the state the browser comes back with. */
  async function approvedAt(bankId: string, account: string): Promise<string> {
    const { redirectUrl } = await api.call<{ redirectUrl: string }>(
      'POST',
      '/api/limited/bank-verification/start',
      { bankId },
    );
    return String((await atTheBank(redirectUrl, account)).state);
  }

  /** The page the bank sends the browser back to. */
  function renderResult(state: string, onVerified: () => void = () => {}) {
    renderWithProviders(
      <VerificationResultPage
        query={{ state }}
        verifyHref="/verify-bank-account"
        homeHref="/"
        onVerified={onVerified}
      />,
    );
  }

  it('lists the banks with logos, says "failure to fetch banks" with a retry, and sends the browser to the bank', async () => {
    await api.signIn('demo-unverified');
    api.server.bankSandbox?.setFailures(['banks']);
    const goTo = vi.fn();
    renderWithProviders(
      <VerifyBankAccountPage companyName="Nystart Måleri AB" hasTwoFactor={false} goTo={goTo} />,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Failure to fetch banks.');
    api.server.bankSandbox?.setFailures([]);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    const norrbanken = await screen.findByRole('button', { name: 'Norrbanken' });
    expect(screen.getByRole('heading', { name: 'Banks in Sweden' })).toBeInTheDocument();
    expect(screen.getByText('Demo')).toBeInTheDocument();
    expect(norrbanken.querySelector('img')?.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);

    api.server.bankSandbox?.setFailures(['start']);
    await user.click(norrbanken);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failure to start the onboarding flow.');
    expect(goTo).not.toHaveBeenCalled();
    api.server.bankSandbox?.setFailures([]);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(goTo).toHaveBeenCalledTimes(1));
    expect(String(goTo.mock.calls[0]?.[0])).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/link\//);
  });

  it.each([
    ['en-US', 'The account you chose is not held by your company.', 'Try again'],
    ['sv-SE', 'Kontot du valde innehas inte av ert företag.', 'Försök igen'],
    ['fi-FI', 'Valitsemasi tilin haltija ei ole yrityksenne.', 'Yritä uudelleen'],
  ])('in %s says why an account was refused and offers to try again', async (language, reason, retry) => {
    await api.signIn('demo-unverified');
    const state = await approvedAt('se-norrbanken', 'nb-private');
    await act(() => i18next.changeLanguage(language));
    renderResult(state);
    expect(await screen.findByText(reason, { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: retry })).toHaveAttribute('href', '/verify-bank-account');
  });

  it('shows the verified account masked and tells the shell', async () => {
    await api.signIn('demo-unverified');
    const state = await approvedAt('se-sparbanken-vast', 'sv-nystart');
    const onVerified = vi.fn();
    renderResult(state, onVerified);
    expect(await screen.findByRole('heading', { name: 'Bank account verified' })).toBeInTheDocument();
    expect(screen.getByTestId('verified-account')).toHaveTextContent('BG •••-0158');
    expect(screen.getByTestId('verified-account')).not.toHaveTextContent('5050158');
    expect(onVerified).toHaveBeenCalledTimes(1);
    // One callback per visit: the page made it once.
    expect(api.calls.filter((c) => c.path === '/api/limited/bank-verification/callback')).toHaveLength(1);
  });

  it('asks for a two-factor code before a different account replaces the verified one; a wrong code is refused on the page', async () => {
    // Demo Bygg AB pays to Norrbanken 6123-••••6789 (the seed); `demo` turns two-factor on.
    await api.signIn('demo');
    const { secret } = await api.call<{ secret: string }>('GET', '/api/limited/2fa/enable');
    await api.call('POST', '/api/limited/2fa/verify', { code: codeAt(secret, api.server.clock.now()) });
    api.server.clock.advance(30_000);
    const state = await approvedAt('se-sparbanken-vast', 'sv-bygg');
    const onVerified = vi.fn();
    renderResult(state, onVerified);
    expect(await screen.findByRole('heading', { name: 'Confirm the new account' })).toBeInTheDocument();
    expect(screen.getByTestId('current-account')).toHaveTextContent('6123-••••6789');
    expect(screen.getByTestId('new-account')).toHaveTextContent('BG •••-0141');
    const user = userEvent.setup();
    const submit = screen.getByRole('button', { name: 'Confirm the change' });
    expect(submit).toBeDisabled();
    const right = codeAt(secret, api.server.clock.now());
    await user.type(
      screen.getByLabelText('Code from the authenticator app'),
      right === '000000' ? '111111' : '000000',
    );
    await user.click(submit);
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid verification code.');
    expect(onVerified).not.toHaveBeenCalled();
    await user.clear(screen.getByLabelText('Code from the authenticator app'));
    await user.type(screen.getByLabelText('Code from the authenticator app'), right);
    await user.click(screen.getByRole('button', { name: 'Confirm the change' }));
    expect(await screen.findByRole('heading', { name: 'Bank account verified' })).toBeInTheDocument();
    expect(screen.getByText('The change is confirmed.', { exact: false })).toBeInTheDocument();
    expect(screen.getByTestId('verified-account')).toHaveTextContent('BG •••-0141');
    expect(onVerified).toHaveBeenCalledTimes(1);
  });
});
