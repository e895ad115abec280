import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DateField } from './date-field';
import { Modal, type ModalProps } from './modal';

function setup(props: Partial<ModalProps> = {}) {
  const onHide = vi.fn();
  const onSubmit = vi.fn();
  render(
    <Modal title="Edit" subtitle="Sub" onHide={onHide} onSubmit={onSubmit} {...props}>
      <label htmlFor="f">Field</label>
      <input id="f" />
    </Modal>,
  );
  return { onHide, onSubmit, user: userEvent.setup() };
}

function FocusHost() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open && (
        <Modal title="T" onHide={() => setOpen(false)} onSubmit={() => undefined}>
          <label htmlFor="g">G</label>
          <input id="g" />
        </Modal>
      )}
    </>
  );
}

describe('Modal', () => {
  it('is a labelled modal dialog with default cancel and save texts', () => {
    setup();
    const dialog = screen.getByRole('dialog', { name: 'Edit' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('closes on Escape always', async () => {
    const { onHide, user } = setup({ disableSubmit: true });
    await user.keyboard('{Escape}');
    expect(onHide).toHaveBeenCalledTimes(1);
  });

  it('submits on Enter only with submitOnEnter', async () => {
    const first = setup();
    await first.user.keyboard('{Enter}');
    expect(first.onSubmit).not.toHaveBeenCalled();
    first.user.keyboard('{Escape}');
  });

  it('submits on Enter with submitOnEnter and an enabled submit', async () => {
    const { onSubmit, user } = setup({ submitOnEnter: true });
    await user.type(screen.getByLabelText('Field'), 'x{Enter}');
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('does not submit on Enter when submit is disabled', async () => {
    const { onSubmit, user } = setup({ submitOnEnter: true, disableSubmit: true });
    await user.type(screen.getByLabelText('Field'), '{Enter}');
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('ignores a click on the static backdrop', async () => {
    const { onHide, user } = setup();
    await user.click(screen.getByTestId('modal-backdrop'));
    expect(onHide).not.toHaveBeenCalled();
  });

  it('emits hide from cancel and the close icon and submit from the submit button', async () => {
    const { onHide, onSubmit, user } = setup({ submitLabel: 'Send', cancelLabel: 'Back' });
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onHide).toHaveBeenCalledTimes(2);
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('hides submit or the whole footer when asked', () => {
    setup({ hideSubmit: true });
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });

  it('shows a loading overlay with a spinner', () => {
    setup({ loading: true });
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
  });

  it('moves focus in, traps Tab and returns focus to the opener', async () => {
    const user = userEvent.setup();
    render(<FocusHost />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(screen.getByLabelText('G')).toHaveFocus();
    // Close icon, input, cancel, save: Tab from the last wraps to the first.
    screen.getByRole('button', { name: 'Save' }).focus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Save' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Open' })).toHaveFocus();
  });

  it('puts the focus on the first segment of an autoFocus date field, not on its hidden inputs', () => {
    render(
      <Modal title="Range" onHide={() => undefined}>
        <DateField autoFocus label="From" name="from" value="2026-03-05" />
      </Modal>,
    );
    expect(screen.getAllByRole('spinbutton')[0]).toHaveFocus();
  });
});
