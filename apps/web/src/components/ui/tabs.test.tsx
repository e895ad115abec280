import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Tabs } from './tabs';

const TABS = [
  { key: 'a', label: 'Alpha', content: <p>Panel A</p> },
  { key: 'b', label: 'Beta', content: <p>Panel B</p> },
  { key: 'c', label: 'Gamma', content: <p>Panel C</p> },
];

describe('Tabs', () => {
  it('activates the first tab by default and shows one panel', () => {
    render(<Tabs tabs={TABS} aria-label="Sections" />);
    expect(screen.getByRole('tablist', { name: 'Sections' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Alpha' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getAllByRole('tabpanel')).toHaveLength(1);
    expect(screen.getByRole('tabpanel', { name: 'Alpha' })).toHaveTextContent('Panel A');
  });

  it('switches on click and emits the key', async () => {
    const onChange = vi.fn();
    render(<Tabs tabs={TABS} onChange={onChange} />);
    await userEvent.click(screen.getByRole('tab', { name: 'Beta' }));
    expect(onChange).toHaveBeenCalledWith('b');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Panel B');
  });

  it('moves with arrow keys, Home and End, wrapping around', async () => {
    const user = userEvent.setup();
    render(<Tabs tabs={TABS} />);
    screen.getByRole('tab', { name: 'Alpha' }).focus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Gamma' })).toHaveFocus();
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Panel C');
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Alpha' })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Gamma' })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('tab', { name: 'Alpha' })).toHaveFocus();
    expect(screen.getByRole('tab', { name: 'Beta' })).toHaveAttribute('tabindex', '-1');
  });

  it('follows a controlled active key', () => {
    render(<Tabs tabs={TABS} activeKey="c" />);
    expect(screen.getByRole('tab', { name: 'Gamma' })).toHaveAttribute('aria-selected', 'true');
  });
});
