import { describe, expect, it } from 'vitest';
import {
  finnishVatNumberFrom,
  isValidFinnishVatNumber,
  isValidSwedishVatNumber,
  isValidVatNumber,
  normalizeVatNumber,
  swedishVatNumberFrom,
  vatNumberCountry,
} from './vat-number';

// Examples from shared/domain/references-and-ids.md §3 and §4.

describe('Swedish VAT number', () => {
  it.each([
    'SE556036079301',
    'se 556036-0793 01',
    'SE 5560360793 01',
    'SE212000014201',
    'SE717600458301',
    'SE811228987401', // sole trader: personnummer
    'SE701063239101', // samordningsnummer
  ])('accepts %j', (v) => {
    expect(isValidSwedishVatNumber(v)).toBe(true);
    expect(vatNumberCountry(v)).toBe('SE');
  });

  it.each([
    'SE556036079401', // check digit
    'SE556036079302', // suffix must be 01
    'SE55603607930', // 13 characters
    'SE5560360793011',
    'SE000000000001',
    'SE811328987401', // month 13
    'FI556036079301',
    '556036079301',
    'SE16556036079301',
    '',
  ])('refuses %j', (v) => {
    expect(isValidSwedishVatNumber(v)).toBe(false);
  });
});

describe('Finnish VAT number', () => {
  it.each([
    'FI01120389',
    'FI19274001',
    'FI26466749',
    'FI15728600',
    'FI13669598',
    'fi 0112 0389',
    'FI0112038-9',
  ])('accepts %j', (v) => {
    expect(isValidFinnishVatNumber(v)).toBe(true);
    expect(vatNumberCountry(v)).toBe('FI');
  });

  it.each(['FI01120388', 'FI10000080', 'FI10000081', 'FI0112038', 'FI011203899', 'SE01120389', 'FI0112038A'])(
    'refuses %j',
    (v) => {
      expect(isValidFinnishVatNumber(v)).toBe(false);
    },
  );
});

describe('any supported VAT number', () => {
  it('accepts SE and FI only', () => {
    expect(isValidVatNumber('SE556036079301')).toBe(true);
    expect(isValidVatNumber('FI01120389')).toBe(true);
    expect(isValidVatNumber('DE123456789')).toBe(false);
    expect(vatNumberCountry('DE123456789')).toBeNull();
  });

  it('normalises spaces, hyphens and case', () => {
    expect(normalizeVatNumber(' se 556036-0793 01 ')).toBe('SE556036079301');
    expect(normalizeVatNumber('fi\u00a00112 038-9')).toBe('FI01120389');
  });
});

describe('VAT number from an organisation number', () => {
  it.each([
    ['556036-0793', 'SE556036079301'],
    ['5560360793', 'SE556036079301'],
    ['165560360793', 'SE556036079301'],
    ['811228-9874', 'SE811228987401'],
    ['19811228-9874', 'SE811228987401'],
    ['121212+1212', 'SE121212121201'],
  ])('Swedish %s → %s', (value, vat) => {
    expect(swedishVatNumberFrom(value)).toBe(vat);
    expect(isValidSwedishVatNumber(vat)).toBe(true);
  });

  it.each(['556036-0794', '168112289874', '1234', ''])('refuses Swedish %j', (value) => {
    expect(() => swedishVatNumberFrom(value)).toThrow(RangeError);
  });

  it('Finnish 0112038-9 → FI01120389', () => {
    expect(finnishVatNumberFrom('0112038-9')).toBe('FI01120389');
    expect(finnishVatNumberFrom(' 1572860-0 ')).toBe('FI15728600');
    expect(() => finnishVatNumberFrom('0112038-8')).toThrow(RangeError);
    expect(() => finnishVatNumberFrom('01120389')).toThrow(RangeError);
  });
});
