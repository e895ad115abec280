import { describe, expect, it } from 'vitest';
import { isLuhnValid, luhnCheckDigit } from './luhn';
import {
  formatSwedishOrganisationNumber,
  isFinnishBusinessId,
  isSwedishOrganisationNumber,
} from './organisation-number';

// Examples from shared/domain/references-and-ids.md.
describe('luhn', () => {
  it.each([
    ['556036079', 3],
    ['212000014', 2],
    ['556273603', 2],
    ['717600458', 3],
  ])('check digit of %s is %i', (base, digit) => {
    expect(luhnCheckDigit(base)).toBe(digit);
  });

  it.each(['5402968', '297367', '1234567890'])(
    'appending the check digit to %s makes a valid number',
    (base) => {
      expect(isLuhnValid(base + String(luhnCheckDigit(base)))).toBe(true);
      expect(isLuhnValid(base + String((luhnCheckDigit(base) + 1) % 10))).toBe(false);
    },
  );

  it('throws on non-digits and rejects short values', () => {
    expect(() => luhnCheckDigit('12a')).toThrow(RangeError);
    expect(isLuhnValid('')).toBe(false);
    expect(isLuhnValid('7')).toBe(false);
  });
});

describe('Swedish organisation number', () => {
  it.each(['556036-0793', '212000-0142', '5562736032', '717600-4583', '165560360793'])('accepts %s', (v) => {
    expect(isSwedishOrganisationNumber(v)).toBe(true);
  });

  it.each(['556036-0794', '811228-9874', '55603607', 'abcdef-ghij', ''])('rejects %s', (v) => {
    expect(isSwedishOrganisationNumber(v)).toBe(false);
  });

  it('formats with a hyphen', () => {
    expect(formatSwedishOrganisationNumber('5560360793')).toBe('556036-0793');
    expect(() => formatSwedishOrganisationNumber('5560360794')).toThrow(RangeError);
  });
});

describe('Finnish Business ID (Y-tunnus)', () => {
  it.each(['0112038-9', '1927400-1', '2646674-9', '1572860-0', '1366959-8'])('accepts %s', (v) => {
    expect(isFinnishBusinessId(v)).toBe(true);
  });

  it.each(['0112038-8', '1000008-0', '1000008-1', '112038-9', '01120389'])('rejects %s', (v) => {
    expect(isFinnishBusinessId(v)).toBe(false);
  });
});
