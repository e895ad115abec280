import { describe, expect, it } from 'vitest';
import { isValidPartyNumber, normalizePartyNumber, partyNumberKey } from './party-number';

// Examples from shared/domain/references-and-ids.md §3.1, §3.2 and §4.3.
describe('isValidPartyNumber', () => {
  it.each([
    // Organisationsnummer.
    '556036-0793',
    '212000-0142',
    '556273-6032',
    '717600-4583',
    '5560360793',
    '165560360793',
    // Personnummer, samordningsnummer.
    '811228-9874',
    '001219-3421',
    '121212-1212',
    '701063-2391',
    '19811228-9874',
    '811228+9874',
    // Y-tunnus.
    '0112038-9',
    '1927400-1',
    '2646674-9',
    '1572860-0',
    '1366959-8',
  ])('accepts %s', (value) => {
    expect(isValidPartyNumber(value)).toBe(true);
  });

  it.each([
    ['556036-0794', 'organisationsnummer with a wrong check digit'],
    ['811228-9875', 'personnummer with a wrong check digit'],
    ['811328-9873', 'month 13, though its check digit is right'],
    ['811232-9874', 'day 32'],
    ['0112038-8', 'Y-tunnus with a wrong check digit'],
    ['1000008-0', 'Y-tunnus base with remainder 1, never issued'],
    ['123', 'too short'],
    ['abc', 'no digits'],
  ])('refuses %s (%s)', (value) => {
    expect(isValidPartyNumber(value)).toBe(false);
  });
});

describe('normalizePartyNumber', () => {
  it.each([
    ['5560360793', '556036-0793'],
    [' 556036-0793 ', '556036-0793'],
    ['165560360793', '556036-0793'],
    ['556036 0793', '556036-0793'],
    ['0112038-9', '0112038-9'],
    ['811228 +9874', '811228+9874'],
    ['19811228-9874', '19811228-9874'],
    ['not a number', 'not a number'],
  ])('%s is stored as %s', (value, stored) => {
    expect(normalizePartyNumber(value)).toBe(stored);
  });
});

describe('partyNumberKey', () => {
  it('gives the ways of writing one number the same key', () => {
    const keys = ['556036-0793', '5560360793', '165560360793', '556036 0793'].map(partyNumberKey);
    expect(new Set(keys)).toEqual(new Set(['5560360793']));
    expect(partyNumberKey('19811228-9874')).toBe(partyNumberKey('811228-9874'));
  });

  it('keeps different numbers apart', () => {
    expect(partyNumberKey('556036-0793')).not.toBe(partyNumberKey('556273-6032'));
    expect(partyNumberKey('0112038-9')).toBe('01120389');
  });
});
