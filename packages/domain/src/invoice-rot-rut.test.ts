import { describe, expect, it } from 'vitest';
import {
  type InvoiceRotRut,
  type InvoiceRotRutIssue,
  invoiceRotRutIssues,
  isRotRutAvailable,
} from './rot-rut';

describe('isRotRutAvailable: a Swedish issuer invoicing in SEK', () => {
  it.each([
    ['SE', 'SEK', true],
    ['SE', 'EUR', false],
    ['FI', 'EUR', false],
    ['FI', 'SEK', false],
    ['SE', 'sek', false],
  ])('%s issuer, %s → %s', (country, currency, available) => {
    expect(isRotRutAvailable(country, currency)).toBe(available);
  });
});

const NONE: InvoiceRotRut = {
  type: 'none',
  personalNumber: '',
  propertyDesignation: '',
  housingCoopNumber: '',
};
const LABOUR = [{ rotRut: true }, { rotRut: false }];
const NO_LABOUR = [{ rotRut: false }];

/** A buyer whose personal number checks out, and the invoice date of most cases. */
const BUYER = '19811218-9876';
const ON = '2026-03-01';
const rut = (personalNumber: string, more: Partial<InvoiceRotRut> = {}): Partial<InvoiceRotRut> => ({
  type: 'rut',
  personalNumber,
  ...more,
});
const rot = (more: Partial<InvoiceRotRut>): Partial<InvoiceRotRut> => ({
  type: 'rot',
  personalNumber: BUYER,
  ...more,
});
const BUYER_REQUIRED: InvoiceRotRutIssue = { path: 'rotRut.personalNumber', code: 'validation.required' };
const BAD_BUYER: InvoiceRotRutIssue = { path: 'rotRut.personalNumber', code: 'validation.personal_number' };
const PROPERTY_REQUIRED: InvoiceRotRutIssue = {
  path: 'rotRut.propertyDesignation',
  code: 'validation.required',
};
const BAD_COOP: InvoiceRotRutIssue = {
  path: 'rotRut.housingCoopNumber',
  code: 'validation.organization_number',
};
const NO_LABOUR_ROW: InvoiceRotRutIssue = { path: 'rows', code: 'validation.rot_rut_labour_row' };

describe('invoiceRotRutIssues: the ROT/RUT rules of the invoice form and the server', () => {
  it.each<[string, Partial<InvoiceRotRut>, readonly { rotRut: boolean }[], string, InvoiceRotRutIssue[]]>([
    ['none: no rules at all', {}, NO_LABOUR, ON, []],
    ['RUT, valid buyer, a labour row', rut(BUYER), LABOUR, ON, []],
    ['RUT, buyer typed with spaces', rut(' 811218-9876 '), LABOUR, ON, []],
    ['RUT, blank buyer: required (spec §5)', rut('   '), LABOUR, ON, [BUYER_REQUIRED]],
    ['RUT, wrong check digit', rut('19811218-9875'), LABOUR, ON, [BAD_BUYER]],
    ['RUT, an organisation number is no buyer', rut('556036-0793'), LABOUR, ON, [BAD_BUYER]],
    ['RUT, an invalid invoice date still checks the number', rut(BUYER), LABOUR, '2026-02-30', []],
    ['RUT, no labour row', rut(BUYER), NO_LABOUR, ON, [NO_LABOUR_ROW]],
    ['RUT ignores the property', rut(BUYER, { housingCoopNumber: '123' }), LABOUR, ON, []],
    ['ROT on a property', rot({ propertyDesignation: 'Sjöbo 1:23' }), LABOUR, ON, []],
    ['ROT in a co-op flat', rot({ housingCoopNumber: '556036-0793' }), LABOUR, ON, []],
    [
      'ROT without property or co-op',
      rot({ propertyDesignation: ' ', housingCoopNumber: '' }),
      LABOUR,
      ON,
      [PROPERTY_REQUIRED],
    ],
    [
      'ROT, every rule broken, in field order',
      rot({ personalNumber: '19811218-9875', housingCoopNumber: '123' }),
      NO_LABOUR,
      ON,
      [BAD_BUYER, BAD_COOP, NO_LABOUR_ROW],
    ],
  ])('%s', (_name, rotRut, rows, invoiceDate, issues) => {
    expect(invoiceRotRutIssues({ invoiceDate, rotRut: { ...NONE, ...rotRut }, rows })).toEqual(issues);
  });
});
