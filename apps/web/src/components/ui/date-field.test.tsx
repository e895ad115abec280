import { zodResolver } from '@hookform/resolvers/zod';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { i18next } from '../../lib/i18n';
import { DateField } from './date-field';
import { FormDateField } from './form-date-field';

function Host({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <DateField label="Day" name="day" value={value} onChange={setValue} />
      <output aria-label="value">{value}</output>
    </>
  );
}

/** The visible text of the segments and separators, in order: what a person sees in the field. */
function shownText(name: string): string {
  return screen.getByRole('group', { name }).textContent?.replace(/[\u2066-\u2069\u200e\u200f]/g, '') ?? '';
}

const schema = z.object({ day: z.string().min(1, 'validation.required') });

function RequiredForm() {
  const { control, handleSubmit } = useForm({ defaultValues: { day: '' }, resolver: zodResolver(schema) });
  return (
    <form onSubmit={handleSubmit(() => undefined)}>
      <FormDateField control={control} name="day" label="Day" required />
      <button type="submit">Save</button>
    </form>
  );
}

describe('DateField', () => {
  it('takes a date typed in sv-SE order and gives it as an ISO string', async () => {
    await act(() => i18next.changeLanguage('sv-SE'));
    const user = userEvent.setup();
    render(<Host />);
    expect(shownText('Day')).toBe('åååå-mm-dd');
    await user.click(screen.getByRole('spinbutton', { name: /år/i }));
    await user.keyboard('20260305');
    expect(screen.getByRole('status', { name: 'value' })).toHaveTextContent('2026-03-05');
    expect(shownText('Day')).toBe('2026-03-05');
    // The form value goes with the field's name as ISO, whatever the language.
    expect(document.querySelector('input[name="day"]')).toHaveValue('2026-03-05');
  });

  it('shows the segments in the order of the UI language, not the browser', async () => {
    const { rerender } = render(<DateField label="Day" name="day" value="2026-03-05" />);
    expect(shownText('Day')).toBe('3/5/2026');
    await act(() => i18next.changeLanguage('fi-FI'));
    rerender(<DateField label="Day" name="day" value="2026-03-05" />);
    expect(shownText('Day')).toBe('5.3.2026');
    await act(() => i18next.changeLanguage('sv-SE'));
    rerender(<DateField label="Day" name="day" value="2026-03-05" />);
    expect(shownText('Day')).toBe('2026-03-05');
  });

  it('gives an empty string when a complete date is cleared', async () => {
    const user = userEvent.setup();
    render(<Host initial="2026-03-05" />);
    const day = within(screen.getByRole('group', { name: 'Day' })).getAllByRole(
      'spinbutton',
    )[1] as HTMLElement;
    await user.click(day);
    await user.keyboard('{Backspace}{Backspace}');
    // The field no longer shows a date, so the form has none; the other segments stay as typed.
    expect(screen.getByRole('status', { name: 'value' }).textContent).toBe('');
    expect(shownText('Day')).toBe('3/dd/2026');
    await user.click(day);
    await user.keyboard('07');
    expect(screen.getByRole('status', { name: 'value' })).toHaveTextContent('2026-03-07');
  });

  it('shows a value set from outside', async () => {
    const { rerender } = render(<DateField label="Day" name="day" value="2026-03-05" />);
    rerender(<DateField label="Day" name="day" value="2026-04-04" />);
    expect(shownText('Day')).toBe('4/4/2026');
    rerender(<DateField label="Day" name="day" value="" />);
    expect(shownText('Day')).toBe('mm/dd/yyyy');
  });

  it('shows a required empty field as invalid with the translated error', async () => {
    const user = userEvent.setup();
    render(<RequiredForm />);
    const group = screen.getByRole('group', { name: /Day/ });
    expect(within(group).getAllByRole('spinbutton')[0]).toHaveAttribute('aria-required', 'true');
    expect(screen.getByText('*')).toHaveAttribute('aria-hidden', 'true');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This field is required.');
    for (const segment of within(group).getAllByRole('spinbutton')) {
      expect(segment).toHaveAttribute('aria-invalid', 'true');
      expect(segment.getAttribute('aria-describedby')).toContain(alert.id);
    }
    // react-hook-form focuses the field with the error: its first segment.
    expect(within(group).getAllByRole('spinbutton')[0]).toHaveFocus();
  });
});
