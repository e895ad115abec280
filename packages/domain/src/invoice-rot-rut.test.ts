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

describe('invoiceRotRutIssues: the ROT/RUT rules of the invoice form and the server', () => {
  it.each<[string, Partial<InvoiceRotRut>, readonly { rotRut: boolean }[], string, InvoiceRotRutIssue[]]>([
    ['none: no rules at all', {}, NO_LABOUR, '2026-03-01', []],
    [
      'RUT, valid buyer, a labour row',
      { type: 'rut', personalNumber: '19811218-9876' },
      LABOUR,
      '2026-03-01',
      [],
    ],
    [
      'RUT, buyer typed with spaces',
      { type: 'rut', personalNumber: ' 811218-9876 ' },
      LABOUR,
      '2026-03-01',
      [],
    ],
    [
      'RUT, blank buyer: required (spec §5)',
      { type: 'rut', personalNumber: '   ' },
      LABOUR,
      '2026-03-01',
      [{ path: 'rotRut.personalNumber', code: 'validation.required' }],
    ],
    [
      'RUT, wrong check digit',
      { type: 'rut', personalNumber: '19811218-9875' },
      LABOUR,
      '2026-03-01',
      [{ path: 'rotRut.personalNumber', code: 'validation.personal_number' }],
    ],
    [
      'RUT, an organisation number is no buyer',
      { type: 'rut', personalNumber: '556036-0793' },
      LABOUR,
      '2026-03-01',
      [{ path: 'rotRut.personalNumber', code: 'validation.personal_number' }],
    ],
    [
      'RUT, an invalid invoice date still checks the number',
      { type: 'rut', personalNumber: '19811218-9876' },
      LABOUR,
      '2026-02-30',
      [],
    ],
    [
      'RUT, no labour row',
      { type: 'rut', personalNumber: '19811218-9876' },
      NO_LABOUR,
      '2026-03-01',
      [{ path: 'rows', code: 'validation.rot_rut_labour_row' }],
    ],
    [
      'RUT ignores the property',
      { type: 'rut', personalNumber: '19811218-9876', housingCoopNumber: '123' },
      LABOUR,
      '2026-03-01',
      [],
    ],
    [
      'ROT on a property',
      { type: 'rot', personalNumber: '19811218-9876', propertyDesignation: 'Sjöbo 1:23' },
      LABOUR,
      '2026-03-01',
      [],
    ],
    [
      'ROT in a co-op flat',
      { type: 'rot', personalNumber: '19811218-9876', housingCoopNumber: '556036-0793' },
      LABOUR,
      '2026-03-01',
      [],
    ],
    [
      'ROT without property or co-op',
      { type: 'rot', personalNumber: '19811218-9876', propertyDesignation: ' ', housingCoopNumber: '' },
      LABOUR,
      '2026-03-01',
      [{ path: 'rotRut.propertyDesignation', code: 'validation.required' }],
    ],
    [
      'ROT, every rule broken, in field order',
      { type: 'rot', personalNumber: '19811218-9875', housingCoopNumber: '123' },
      NO_LABOUR,
      '2026-03-01',
      [
        { path: 'rotRut.personalNumber', code: 'validation.personal_number' },
        { path: 'rotRut.housingCoopNumber', code: 'validation.organization_number' },
        { path: 'rows', code: 'validation.rot_rut_labour_row' },
      ],
    ],
  ])('%s', (_name, rotRut, rows, invoiceDate, issues) => {
    expect(invoiceRotRutIssues({ invoiceDate, rotRut: { ...NONE, ...rotRut }, rows })).toEqual(issues);
  });
});
