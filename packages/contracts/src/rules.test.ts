import { describe, expect, it } from 'vitest';
import { changePasswordFormSchema, saveIssuerInfoBodySchema } from './account';
import { activeRegressQuerySchema } from './reports';
import {
  codePointLength,
  DATE_MAX_YEAR,
  DATE_MIN_YEAR,
  hasControlCharacters,
  isDigitsOnly,
  isEmpty,
  isIsoDate,
  isoDateSchema,
  isPresent,
  isStrongPassword,
  isValidEmail,
  isWithinMaxLength,
  multilineText,
  passwordPolicyFailures,
  plainText,
  requiredText,
  twoFactorCodeSchema,
} from './rules';

describe('empty (spec §5)', () => {
  it.each([null, undefined, '', []])('%j is empty', (v) => expect(isEmpty(v)).toBe(true));
  it.each([' ', 0, false, ['a']])('%j is not empty', (v) => expect(isEmpty(v)).toBe(false));
});

describe('email rule', () => {
  it.each([
    'anna@example.com',
    'ANNA.Svensson@Example.SE',
    'a+b@sub.domain.fi',
    "o'neil@example.co",
    'x@a-b.example.org',
  ])('accepts %s', (v) => expect(isValidEmail(v)).toBe(true));

  it.each([
    'anna',
    'anna@',
    '@example.com',
    'anna@example',
    'anna@example.c',
    '.anna@example.com',
    'an..na@example.com',
    'anna@exa mple.com',
    'anna@example.c0m',
    'anna@@example.com',
  ])('rejects %s', (v) => expect(isValidEmail(v)).toBe(false));

  it('passes empty values and checks every element of an array', () => {
    expect(isValidEmail('')).toBe(true);
    expect(isValidEmail(null)).toBe(true);
    expect(isValidEmail([])).toBe(true);
    expect(isValidEmail(['a@example.com', 'b@example.se'])).toBe(true);
    expect(isValidEmail(['a@example.com', 'broken'])).toBe(false);
  });
});

describe('max length rule counts code points', () => {
  it('counts astral characters once', () => {
    expect(codePointLength('😀😀')).toBe(2);
    expect('😀😀'.length).toBe(4);
    expect(isWithinMaxLength('😀😀', 2)).toBe(true);
    expect(isWithinMaxLength('😀😀😀', 2)).toBe(false);
  });

  it('counts å, ä and ö once each', () => {
    expect(isWithinMaxLength('Åsa Öberg', 9)).toBe(true);
    expect(isWithinMaxLength('Åsa Öberg', 8)).toBe(false);
  });

  it('passes empty values and checks array elements', () => {
    expect(isWithinMaxLength('', 0)).toBe(true);
    expect(isWithinMaxLength(null, 1)).toBe(true);
    expect(isWithinMaxLength(['ab', 'abc'], 3)).toBe(true);
    expect(isWithinMaxLength(['ab', 'abcd'], 3)).toBe(false);
  });
});

describe('digits rule', () => {
  it.each(['0123456789', '١٢٣', '٠', 42])('accepts %s', (v) => expect(isDigitsOnly(v)).toBe(true));
  it.each(['12a', '1 2', '-1', '1.5', '１２'])('rejects %s', (v) => expect(isDigitsOnly(v)).toBe(false));
  it('passes empty values', () => {
    expect(isDigitsOnly('')).toBe(true);
    expect(isDigitsOnly(null)).toBe(true);
  });
});

describe('required rule', () => {
  it.each([null, undefined, false, [], '', '   ', '\t\n'])('fails for %j', (v) =>
    expect(isPresent(v)).toBe(false),
  );
  it.each(['a', ' a ', 0, true, ['x']])('passes for %j', (v) => expect(isPresent(v)).toBe(true));
});

describe('password policy (spec §5)', () => {
  it('accepts the demo password', () => expect(isStrongPassword('Portal-demo-1')).toBe(true));

  it.each([
    ['Sh0rt-x', 'validation.password_too_short'],
    ['nouppercase-1', 'validation.password_uppercase'],
    ['NOLOWERCASE-1', 'validation.password_lowercase'],
    ['NoDigits-here', 'validation.password_digit'],
    ['NoSpecial123', 'validation.password_special'],
  ])('%s fails with %s', (password, code) => {
    expect(passwordPolicyFailures(password)).toEqual([code]);
  });

  it('counts the minimum in code points and accepts non-ASCII letters', () => {
    expect(isStrongPassword('Åäö-123x')).toBe(true);
    expect(isStrongPassword('Åäö-12x')).toBe(false);
  });

  it('does not count white space as the special character', () => {
    expect(passwordPolicyFailures('Abcdef 12')).toEqual(['validation.password_special']);
  });
});

describe('two-factor code', () => {
  it.each(['123456', '000000'])('accepts %s', (v) =>
    expect(twoFactorCodeSchema.safeParse(v).success).toBe(true),
  );
  it.each(['12345', '1234567', '12345a', ''])('rejects %s', (v) =>
    expect(twoFactorCodeSchema.safeParse(v).success).toBe(false),
  );
});

describe('issuer form (spec §5 limits)', () => {
  const valid = {
    name: 'Demo Bygg AB',
    email: 'ekonomi@example.com',
    VAT: 'SE556036079301',
    telephone: '08-123 456 78',
    address: 'Storgatan 1',
    city: 'Stockholm',
    zipcode: '111 22',
  };

  it('accepts a valid form', () => expect(saveIssuerInfoBodySchema.safeParse(valid).success).toBe(true));

  it.each([
    ['name', 'x'.repeat(21), 'validation.max_length'],
    ['name', '  ', 'validation.required'],
    ['email', 'not-an-email', 'validation.email'],
    ['email', `${'a'.repeat(34)}@example.com`, 'validation.max_length'],
    ['VAT', 'x'.repeat(26), 'validation.max_length'],
    ['telephone', 'x'.repeat(21), 'validation.max_length'],
    ['address', 'x'.repeat(46), 'validation.max_length'],
    ['city', 'x'.repeat(46), 'validation.max_length'],
    ['zipcode', 'x'.repeat(11), 'validation.max_length'],
  ])('%s = %j fails with %s', (field, value, code) => {
    const result = saveIssuerInfoBodySchema.safeParse({ ...valid, [field]: value });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toContainEqual([field, code]);
  });
});

/** The messages of the issues `schema` finds in `value` (undefined when it passes). */
const messagesOf = (
  schema: { safeParse(value: unknown): { error?: { issues: { message: string }[] } } },
  value: unknown,
) => schema.safeParse(value).error?.issues.map((i) => i.message);

describe('password change form', () => {
  it('requires the confirmation to match', () => {
    const value = { old: 'x', new: 'Portal-demo-2', confirm: 'Portal-demo-3' };
    expect(messagesOf(changePasswordFormSchema, value)).toEqual(['validation.password_mismatch']);
  });
});

describe('regress report range (spec §5)', () => {
  it('refuses to before from with wrong_date_range', () => {
    const query = { from: '2026-11-02', to: '2026-11-01', fileType: 'pdf' };
    expect(messagesOf(activeRegressQuerySchema, query)).toEqual(['reports.wrong_date_range']);
  });

  it('accepts a one-day range and refuses impossible dates', () => {
    expect(
      activeRegressQuerySchema.safeParse({ from: '2026-11-01', to: '2026-11-01', fileType: 'excel' }).success,
    ).toBe(true);
    expect(
      activeRegressQuerySchema.safeParse({ from: '2026-02-30', to: '2026-03-01', fileType: 'pdf' }).success,
    ).toBe(false);
  });
});

describe('control characters (issue #10)', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['bell', '\u0007'],
    ['escape', 'x\u001b[31m'],
    ['DEL', '\u007f'],
    ['C1 next line', 'a\u0085b'],
    ['C1 CSI', '\u009b'],
    ['lone high surrogate', 'a\ud800'],
    ['lone low surrogate', '\udc00b'],
    ['swapped surrogates', '\udc00\ud800'],
  ])('refuses %s in any text', (_, v) => {
    expect(hasControlCharacters(v)).toBe(true);
    expect(hasControlCharacters(v, true)).toBe(true);
    expect(plainText().safeParse(v).error?.issues[0]?.message).toBe('validation.control_characters');
    expect(multilineText().safeParse(v).success).toBe(false);
  });

  it.each([
    ['tab', 'a\tb'],
    ['newline', 'a\nb'],
    ['CR LF', 'a\r\nb'],
  ])('allows %s in multi-line text only', (_, v) => {
    expect(hasControlCharacters(v)).toBe(true);
    expect(hasControlCharacters(v, true)).toBe(false);
    expect(requiredText(100, { multiline: true }).safeParse(v).success).toBe(true);
    expect(requiredText(100).safeParse(v).success).toBe(false);
  });

  it.each(['Åsa Öberg', 'Zoë & Co', '😀 emoji pair', '中文', 'NBSP\u00a0ok', '\u200b zero width'])(
    'accepts %s',
    (v) => expect(hasControlCharacters(v)).toBe(false),
  );
});

describe('the one date type', () => {
  it.each(['1900-01-01', '2026-03-02', '2024-02-29', '2199-12-31'])('accepts %s', (v) => {
    expect(isIsoDate(v)).toBe(true);
    expect(isoDateSchema.safeParse(v).success).toBe(true);
  });

  it.each([
    '0000-01-01',
    '1899-12-31',
    '2200-01-01',
    '9999-12-31',
    '2025-02-29',
    '2026-13-01',
    '2026-3-2',
    '+02026-03-02',
    '2026-03-02T00:00:00Z',
    ' 2026-03-02',
    '',
  ])('refuses %j with validation.date', (v) => {
    expect(isIsoDate(v)).toBe(false);
    expect(isoDateSchema.safeParse(v).error?.issues[0]?.message).toBe('validation.date');
  });

  it('refuses a non-string with validation.date', () => {
    expect(isoDateSchema.safeParse(20260302).error?.issues[0]?.message).toBe('validation.date');
  });

  it('spans 1900-2199', () => expect([DATE_MIN_YEAR, DATE_MAX_YEAR]).toEqual([1900, 2199]));
});
