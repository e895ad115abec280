import { isPresent } from '@portal/contracts';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { generateFieldId, type Rule, TextInput } from './text-input';

const required: Rule = (v) => isPresent(v) || 'validation.required';
const maxThree: Rule = (v) => v.length <= 3 || 'validation.max_length';
const RULES = [required, maxThree];

function Host({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <TextInput label="Name" name="name" value={value} onChange={setValue} rules={RULES} limit={3} />
      <button type="button" onClick={() => setValue('toolong')}>
        Set from outside
      </button>
      <button type="button" onClick={() => setValue('ok')}>
        Fix from outside
      </button>
    </>
  );
}

describe('TextInput', () => {
  it('binds the label and shows no error before any change', () => {
    render(<Host />);
    const input = screen.getByLabelText('Name');
    expect(input).toHaveAttribute('name', 'name');
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('runs the rules on input and shows the translated error with aria wiring', async () => {
    const user = userEvent.setup();
    render(<Host />);
    const input = screen.getByLabelText('Name');
    await user.type(input, 'abcd');
    expect(screen.getByRole('alert')).toHaveTextContent('At most 3 characters.');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input.getAttribute('aria-describedby')).toBe(screen.getByRole('alert').id);
    await user.clear(input);
    expect(screen.getByRole('alert')).toHaveTextContent('This field is required.');
  });

  it('validates again when the bound value changes from outside', async () => {
    const user = userEvent.setup();
    render(<Host initial="ab" />);
    await user.click(screen.getByRole('button', { name: 'Set from outside' }));
    expect(screen.getByRole('alert')).toHaveTextContent('At most 3 characters.');
    await user.click(screen.getByRole('button', { name: 'Fix from outside' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows an error code given from outside', () => {
    render(<TextInput label="Mail" name="mail" value="x" error="validation.email" />);
    expect(screen.getByRole('alert')).toHaveTextContent('Enter a valid email address.');
  });

  it('formats a date value and generates ids from time and a random number', () => {
    render(<TextInput label="Day" name="day" type="date" value={new Date('2026-03-04T00:00:00Z')} />);
    expect(screen.getByLabelText('Day')).toHaveValue('2026-03-04');
    expect(screen.getByLabelText('Day').id).toMatch(/^field-\d+-\d+$/);
    expect(generateFieldId()).not.toBe(generateFieldId());
  });
});
