import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { startRealApi } from '../../../test/real-api';
import { renderWithProviders } from '../../../test/render';
import { PasswordForm, passwordResolver } from './password-form';

async function fill(current: string, next: string, confirm: string) {
  const user = userEvent.setup();
  if (current) await user.type(screen.getByLabelText('Current password'), current);
  if (next) await user.type(screen.getByLabelText('New password'), next);
  if (confirm) await user.type(screen.getByLabelText('Confirm new password'), confirm);
  return user;
}

describe('PasswordForm (spec §5)', () => {
  const api = startRealApi();

  beforeEach(async () => {
    await api.signIn('demo');
  });

  it('keeps the button disabled until all three fields are filled', async () => {
    renderWithProviders(<PasswordForm />);
    const button = screen.getByRole('button', { name: 'Change password' });
    expect(button).toBeDisabled();
    await fill('old', 'Portal-demo-2', '');
    expect(button).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Confirm new password'), 'P');
    expect(button).toBeEnabled();
  });

  it.each([
    ['short', 'Sh0rt-x', 'The password must be at least 8 characters long.'],
    ['no digit', 'NoDigits-here', 'The password must contain at least one digit.'],
    ['no uppercase', 'nouppercase-1', 'The password must contain at least one uppercase letter.'],
    ['no lowercase', 'NOLOWERCASE-1', 'The password must contain at least one lowercase letter.'],
    ['no special', 'NoSpecial123', 'The password must contain at least one special character.'],
  ])('refuses a new password that is %s', async (_name, password, message) => {
    renderWithProviders(<PasswordForm />);
    const user = await fill('old', password, password);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('refuses a confirmation that does not match', async () => {
    renderWithProviders(<PasswordForm />);
    const user = await fill('old', 'Portal-demo-2', 'Portal-demo-3');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The passwords do not match.')).toBeInTheDocument();
  });

  it('sends old/new and shows the real wrong-old-password error', async () => {
    renderWithProviders(<PasswordForm />);
    const user = await fill('Wrong-old-1', 'Portal-demo-2', 'Portal-demo-2');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('The current password is wrong.');
    expect(api.calls[0]?.body).toEqual({ old: 'Wrong-old-1', new: 'Portal-demo-2' });
    // The demo password still signs in: the server changed nothing.
    await expect(api.server.login('demo')).resolves.toEqual(expect.any(String));
  });

  it('shows the throttle with its wait after too many wrong old passwords', async () => {
    api.server.throttle.perUsername = 1;
    await expect(
      api.call('POST', '/api/limited/account', { old: 'Wrong-old-1', new: 'Portal-demo-2' }),
    ).rejects.toThrow(/412/);
    renderWithProviders(<PasswordForm />);
    const user = await fill('Portal-demo-1', 'Portal-demo-2', 'Portal-demo-2');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent(
      'Too many wrong attempts. Try again in 15 min.',
    );
    // Even the right old password was not taken.
    await expect(api.server.login('demo', 'Portal-demo-2')).rejects.toThrow(/login of demo failed/);
  });

  it('shows success, empties the form and the new password signs in', async () => {
    renderWithProviders(<PasswordForm />);
    const user = await fill('Portal-demo-1', 'Portal-demo-2', 'Portal-demo-2');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('dialog', { name: 'Password changed' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Current password')).toHaveValue(''));
    await expect(api.server.login('demo', 'Portal-demo-2')).resolves.toEqual(expect.any(String));
    await expect(api.server.login('demo', 'Portal-demo-1')).rejects.toThrow(/login of demo failed/);
  });

  it('the resolver maps the contract field names to the form names', async () => {
    const result = await passwordResolver(
      { currentPassword: '', newPassword: 'Portal-demo-2', confirmPassword: 'x' },
      undefined,
      { fields: {}, shouldUseNativeValidation: false },
    );
    expect(result.errors.currentPassword?.message).toBe('validation.required');
    expect(result.errors.confirmPassword?.message).toBe('validation.password_mismatch');
  });
});
