import { describe, expect, it } from 'vitest';
import { holderIsIssuer, isPayableTo, isValidIban, maskAccount } from './bank-account';

const BYGG = { name: 'Demo Bygg AB', organizationNo: '556036-0793', country: 'SE' as const };
const ANNAN = { name: 'Annan Firma Oy', organizationNo: '0737546-2', country: 'FI' as const };
const SOLE = { name: 'Anna Berg Konsult', organizationNo: '19800101-0019', country: 'SE' as const };

describe('account rules', () => {
  it.each([
    ['FI21 1234 5600 0007 85', 'FI', true],
    ['FI2112345600000785', 'FI', true],
    ['FI21 1234 5600 0007 86', 'FI', false],
    ['SE45 5000 0000 0583 9825 7466', 'SE', true],
    ['SE45 5000 0000 0583 9825 7466', 'FI', false],
    ['FI21 1234', 'FI', false],
  ])('IBAN %s in %s: %s', (iban, country, valid) => {
    expect(isValidIban(iban, country)).toBe(valid);
  });

  it.each([
    ['SE', { kind: 'se-bban', clearing: '6123', account: '987654321' }, true],
    ['SE', { kind: 'se-bban', clearing: '81234', account: '1234567' }, true],
    ['SE', { kind: 'se-bban', clearing: '123', account: '1234567' }, false],
    ['SE', { kind: 'se-bban', clearing: '6123', account: '123' }, false],
    ['SE', { kind: 'bankgiro', number: '5050141' }, true],
    ['SE', { kind: 'bankgiro', number: '5050142' }, false],
    ['SE', { kind: 'iban', iban: 'SE45 5000 0000 0583 9825 7466' }, false],
    ['FI', { kind: 'iban', iban: 'FI21 1234 5600 0007 85' }, true],
    ['FI', { kind: 'bankgiro', number: '5050141' }, false],
  ] as const)('%s pays to %j: %s', (country, identifier, payable) => {
    expect(isPayableTo(country, identifier)).toBe(payable);
  });

  it('masks all but the last four digits', () => {
    expect(maskAccount({ kind: 'iban', iban: 'FI21 1234 5600 0007 85' })).toBe('FI•• •••• •••• 0785');
    expect(maskAccount({ kind: 'bankgiro', number: '505-0141' })).toBe('BG •••-0141');
    expect(maskAccount({ kind: 'se-bban', clearing: '6123', account: '987654321' })).toBe('6123-••••4321');
  });
});

describe('the holder is the issuer', () => {
  it('by organisation number, in any of its written forms', () => {
    for (const identifier of ['556036-0793', '5560360793', '165560360793'])
      expect(holderIsIssuer([{ name: 'Vem som helst', identifier }], BYGG)).toBe(true);
    expect(holderIsIssuer([{ name: 'Annan Firma Oy', identifier: '07375462' }], ANNAN)).toBe(true);
  });

  it('not a company by its name alone, nor by another number', () => {
    expect(holderIsIssuer([{ name: 'Demo Bygg AB' }], BYGG)).toBe(false);
    expect(holderIsIssuer([{ name: 'Demo Bygg AB', identifier: '559123-4561' }], BYGG)).toBe(false);
    expect(holderIsIssuer([{ name: 'Annan Firma Oy' }], ANNAN)).toBe(false);
  });

  it('a sole trader by the owner’s name when the bank gives no number', () => {
    expect(holderIsIssuer([{ name: 'Anna Berg' }], SOLE)).toBe(true);
    expect(holderIsIssuer([{ name: 'ANNA  BERG' }], SOLE)).toBe(true);
    expect(holderIsIssuer([{ name: 'Anna Bergström' }], SOLE)).toBe(false);
    expect(holderIsIssuer([{ name: 'Anna Berg', identifier: '19900101-0017' }], SOLE)).toBe(false);
    expect(holderIsIssuer([{ name: 'X', identifier: '198001010019' }], SOLE)).toBe(true);
  });
});
