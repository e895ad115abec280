import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { i18next } from '../../../lib/i18n';
import { FileInput } from './file-input';

function Host() {
  const [names, setNames] = useState<string[]>([]);
  return (
    <>
      <label htmlFor="pick">Invoice file</label>
      <FileInput
        id="pick"
        accept=".csv"
        multiple
        fileNames={names}
        onFiles={(files) => setNames(files.map((f) => f.name))}
      />
    </>
  );
}

describe('FileInput', () => {
  it('shows its button and the chosen names in the UI language, the label naming the input', async () => {
    await act(() => i18next.changeLanguage('sv-SE'));
    const user = userEvent.setup();
    render(<Host />);
    const input = screen.getByLabelText('Invoice file');
    expect(input).toHaveAttribute('type', 'file');
    expect(input).toHaveClass('visually-hidden');
    expect(screen.getByText('Välj filer')).toHaveAttribute('aria-hidden', 'true');
    expect(input).toHaveAccessibleDescription('Ingen fil vald');
    await user.upload(input, [new File(['a'], 'mars.csv'), new File(['b'], 'april.csv')]);
    expect(input).toHaveAccessibleDescription('mars.csv, april.csv');
    await act(() => i18next.changeLanguage('fi-FI'));
    expect(screen.getByText('Valitse tiedostot')).toBeInTheDocument();
  });

  it('is reached with the keyboard: the focus lands on the input itself', async () => {
    const user = userEvent.setup();
    render(<Host />);
    await user.tab();
    expect(screen.getByLabelText('Invoice file')).toHaveFocus();
    expect(screen.getByText('No file chosen')).toBeInTheDocument();
  });
});
