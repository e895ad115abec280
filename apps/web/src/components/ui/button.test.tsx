import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import * as analytics from '../../lib/analytics';
import { Button } from './button';
import { CheckIcon } from './icons';

describe('Button', () => {
  it('renders the variant and emits click', async () => {
    const onClick = vi.fn();
    render(<Button variant="danger" label="Delete" leadingIcon={CheckIcon} onClick={onClick} />);
    const button = screen.getByRole('button', { name: 'Delete' });
    expect(button).toHaveClass('btn--danger');
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('while loading shows a spinner, dims the label and blocks clicks', async () => {
    const onClick = vi.fn();
    render(<Button label="Save" loading fullWidth onClick={onClick} />);
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button).toHaveClass('btn--loading', 'btn--full');
    expect(button.querySelector('.btn__spinner')).not.toBeNull();
    await userEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('sends button_clicked only when given a tracking name', async () => {
    const track = vi.spyOn(analytics, 'trackButtonClick');
    render(
      <>
        <Button label="Tracked" trackingName="login_submit" />
        <Button label="Plain" />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Tracked' }));
    await userEvent.click(screen.getByRole('button', { name: 'Plain' }));
    expect(track).toHaveBeenCalledTimes(1);
    expect(track).toHaveBeenCalledWith('login_submit');
  });
});
