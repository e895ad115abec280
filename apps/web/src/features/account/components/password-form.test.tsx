import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { installFakeApi } from '../../../test/fake-api';
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
  it('keeps the button disabled until all three fields are filled', async () => {
    installFakeApi({});
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
    const api = installFakeApi({});
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

  it('sends old/new and shows the wrong-old-password error on 412', async () => {
    const api = installFakeApi({
      'POST /api/limited/account': () => ({ status: 412, body: { code: 'account.wrong_old_password' } }),
    });
    renderWithProviders(<PasswordForm />);
    const user = await fill('Wrong-old-1', 'Portal-demo-2', 'Portal-demo-2');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('The current password is wrong.');
    expect(api.calls[0]?.body).toEqual({ old: 'Wrong-old-1', new: 'Portal-demo-2' });
  });

  it('shows success and empties the form', async () => {
    installFakeApi({ 'POST /api/limited/account': () => ({ status: 200, body: { ok: true } }) });
    renderWithProviders(<PasswordForm />);
    const user = await fill('Portal-demo-1', 'Portal-demo-2', 'Portal-demo-2');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('dialog', { name: 'Password changed' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Current password')).toHaveValue(''));
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
