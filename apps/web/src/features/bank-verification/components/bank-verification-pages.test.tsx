import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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

describe('the bank-verification pages', () => {
  const api = startRealApi();
  afterEach(() => act(() => i18next.changeLanguage('en-US')));

  it('lists the banks with logos, says "failure to fetch banks" with a retry, and sends the browser to the bank', async () => {
    await api.signIn('demo-unverified');
    api.server.bankSandbox?.setFailures(['banks']);
    const goTo = vi.fn();
    renderWithProviders(<VerifyBankAccountPage companyName="Nystart Måleri AB" goTo={goTo} />);
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
    const { redirectUrl } = await api.call<{ redirectUrl: string }>(
      'POST',
      '/api/limited/bank-verification/start',
      { bankId: 'se-norrbanken' },
    );
    const query = await atTheBank(redirectUrl, 'nb-private');
    await act(() => i18next.changeLanguage(language));
    renderWithProviders(
      <VerificationResultPage
        query={{ state: String(query.state) }}
        verifyHref="/verify-bank-account"
        homeHref="/"
        onVerified={() => {}}
      />,
    );
    expect(await screen.findByText(reason, { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: retry })).toHaveAttribute('href', '/verify-bank-account');
  });

  it('shows the verified account masked and tells the shell', async () => {
    await api.signIn('demo-unverified');
    const { redirectUrl } = await api.call<{ redirectUrl: string }>(
      'POST',
      '/api/limited/bank-verification/start',
      { bankId: 'se-sparbanken-vast' },
    );
    const query = await atTheBank(redirectUrl, 'sv-nystart');
    const onVerified = vi.fn();
    renderWithProviders(
      <VerificationResultPage
        query={{ state: String(query.state) }}
        verifyHref="/verify-bank-account"
        homeHref="/"
        onVerified={onVerified}
      />,
    );
    expect(await screen.findByRole('heading', { name: 'Bank account verified' })).toBeInTheDocument();
    expect(screen.getByTestId('verified-account')).toHaveTextContent('BG •••-0158');
    expect(screen.getByTestId('verified-account')).not.toHaveTextContent('5050158');
    expect(onVerified).toHaveBeenCalledTimes(1);
    // One callback per visit: the page made it once.
    expect(api.calls.filter((c) => c.path === '/api/limited/bank-verification/callback')).toHaveLength(1);
  });
});
