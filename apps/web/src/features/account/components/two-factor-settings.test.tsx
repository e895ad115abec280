import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Secret, TOTP } from 'otpauth';
import { beforeEach, describe, expect, it } from 'vitest';
import { startRealApi } from '../../../test/real-api';
import { renderWithProviders } from '../../../test/render';
import { TwoFactorSettings } from './two-factor-settings';

/** The code of the authenticator app at the server's clock. */
function codeAt(secret: string, at: Date): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return totp.generate({ timestamp: at.getTime() });
}

describe('TwoFactorSettings: turning two-factor off (spec §4)', () => {
  const api = startRealApi();
  let secret = '';

  beforeEach(async () => {
    await api.signIn('demo');
    ({ secret } = await api.call<{ secret: string }>('GET', '/api/limited/2fa/enable'));
    await api.call('POST', '/api/limited/2fa/verify', { code: codeAt(secret, api.server.clock.now()) });
    // The setup's code is spent: the next period's code is the one that may turn it off.
    api.server.clock.advance(30_000);
  });

  const isOn = async () =>
    (await api.call<{ twoFactorEnabled: boolean }>('GET', '/api/self')).twoFactorEnabled;

  async function openConfirmation() {
    const user = userEvent.setup();
    renderWithProviders(<TwoFactorSettings enabled />);
    await user.click(screen.getByRole('button', { name: 'Turn off two-factor authentication' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Turn off two-factor authentication?' });
    return { user, dialog };
  }

  it('warns, asks for a code and keeps the button disabled until it has six digits', async () => {
    const { user, dialog } = await openConfirmation();
    expect(dialog).toHaveTextContent('protected by the password alone');
    const submit = within(dialog).getByRole('button', { name: 'Turn off two-factor authentication' });
    expect(submit).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Verification code'), '12a34');
    expect(within(dialog).getByLabelText('Verification code')).toHaveValue('1234');
    expect(submit).toBeDisabled();
    expect(api.calls).toHaveLength(0);
  });

  it('shows the wrong-code error in the dialog and leaves two-factor on', async () => {
    const { user, dialog } = await openConfirmation();
    const right = codeAt(secret, api.server.clock.now());
    const wrong = right === '000000' ? '111111' : '000000';
    await user.type(within(dialog).getByLabelText('Verification code'), wrong);
    await user.click(within(dialog).getByRole('button', { name: 'Turn off two-factor authentication' }));
    expect(await within(dialog).findByText('Invalid verification code.')).toBeInTheDocument();
    expect(api.calls.at(-1)).toMatchObject({
      method: 'POST',
      path: '/api/limited/2fa/disable',
      body: { code: wrong },
    });
    expect(await isOn()).toBe(true);

    // Another try in the same dialog with the app's code turns it off.
    await user.type(within(dialog).getByLabelText('Verification code'), right);
    await user.click(within(dialog).getByRole('button', { name: 'Turn off two-factor authentication' }));
    expect(await screen.findByRole('dialog', { name: 'Two-factor authentication' })).toHaveTextContent(
      'Two-factor authentication is off.',
    );
    await waitFor(async () => expect(await isOn()).toBe(false));
  });

  it('shows the throttle with its wait after too many wrong codes', async () => {
    api.server.throttle.perUsername = 1;
    const { user, dialog } = await openConfirmation();
    const right = codeAt(secret, api.server.clock.now());
    const wrong = right === '000000' ? '111111' : '000000';
    const field = within(dialog).getByLabelText('Verification code');
    await user.type(field, wrong);
    await user.click(within(dialog).getByRole('button', { name: 'Turn off two-factor authentication' }));
    await within(dialog).findByText('Invalid verification code.');
    await user.type(field, right);
    await user.click(within(dialog).getByRole('button', { name: 'Turn off two-factor authentication' }));
    expect(
      await within(dialog).findByText('Too many wrong attempts. Try again in 15 min.'),
    ).toBeInTheDocument();
    expect(await isOn()).toBe(true);
  });
});
