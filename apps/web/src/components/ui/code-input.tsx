import { TWO_FACTOR_CODE_LENGTH } from '@portal/contracts';
import { TextInput, type TextInputProps } from './text-input';

/**
 * The field of an authenticator app's code (sign-in, two-factor settings, a bank account change):
 * numeric keyboard, one-time-code autofill, and only digits kept up to the code's length, so a pasted
 * "123 456" becomes a usable code.
 */
export function CodeInput({
  onChange,
  ...props
}: Omit<TextInputProps, 'onChange' | 'inputMode' | 'autoComplete' | 'pattern' | 'maxLength'> & {
  onChange: (code: string) => void;
}) {
  return (
    <TextInput
      {...props}
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      maxLength={TWO_FACTOR_CODE_LENGTH}
      onChange={(value) => onChange(value.replace(/\D/g, '').slice(0, TWO_FACTOR_CODE_LENGTH))}
    />
  );
}
