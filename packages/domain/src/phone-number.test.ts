import { describe, expect, it } from 'vitest';
import { isValidPhoneNumber, toE164PhoneNumber } from './phone-number';

describe('toE164PhoneNumber', () => {
  it.each([
    // Swedish national forms: the trunk 0 goes, +46 comes.
    ['08-123 456 78', 'SE', '+46812345678'],
    ['070-123 45 67', 'SE', '+46701234567'],
    ['031-98 76 54', 'SE', '+4631987654'],
    ['0911-12 34 56', 'SE', '+46911123456'],
    // Finnish national forms.
    ['040 123 4567', 'FI', '+358401234567'],
    ['09 123 4567', 'FI', '+35891234567'],
    ['045-1234567', 'FI', '+358451234567'],
    // International forms, whatever the recipient's country.
    ['+46 8 123 456 78', 'FI', '+46812345678'],
    ['0046 70 123 45 67', 'SE', '+46701234567'],
    ['+46 (0)8-123 456 78', 'SE', '+46812345678'],
    ['+46 08 123 456 78', 'SE', '+46812345678'],
    ['+358 9 123 4567', 'SE', '+35891234567'],
    ['+41 44 668 18 00', 'SE', '+41446681800'],
    // Already E.164: unchanged.
    ['+46812345678', 'SE', '+46812345678'],
    // The other recipient countries.
    ['22 33 44 55', 'NO', '+4722334455'],
    ['030 1234567', 'DE', '+49301234567'],
    ['020 7946 0018', 'GB', '+442079460018'],
    ['(212) 555-0123', 'US', '+12125550123'],
    ['', 'SE', ''],
    ['  ', 'FI', ''],
  ])('%s in %s is %s', (text, country, e164) => {
    expect(toE164PhoneNumber(text, country)).toBe(e164);
  });

  it.each([
    ['phone me', 'SE'],
    ['123', 'SE'],
    // A Swedish national number always starts with the trunk 0.
    ['8123456', 'SE'],
    ['0', 'SE'],
    // Too long for a Swedish number (NSN at most 9 digits).
    ['08-123 456 789 0', 'SE'],
    ['040 123 4567 8901', 'FI'],
    // Too short.
    ['+46 8 12', 'SE'],
    ['+12 34', 'SE'],
    // E.164 has at most 15 digits.
    ['+99 1234 5678 9012 34', 'SE'],
    ['+0 46 8 123', 'SE'],
    ['08-123 456 78 ext 12', 'SE'],
    ['+46-8-123+456', 'SE'],
    // A national form of a country without a plan.
    ['08-123 456 78', 'XX'],
  ])('refuses %s in %s', (text, country) => {
    expect(toE164PhoneNumber(text, country)).toBeNull();
    expect(isValidPhoneNumber(text, country)).toBe(false);
  });

  it('uses the recipient country for a national form', () => {
    // The same digits are Swedish for a Swedish recipient and Finnish for a Finnish one.
    expect(toE164PhoneNumber('08 123 4567', 'SE')).toBe('+4681234567');
    expect(toE164PhoneNumber('08 123 4567', 'FI')).toBe('+35881234567');
  });
});
