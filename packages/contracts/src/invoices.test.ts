import { describe, expect, it } from 'vitest';
import {
  INVOICE_STATE_NUMBERS,
  invoiceStatus,
  isCompanyRecipient,
  listInvoicesQuerySchema,
  ownOcrReferenceSchema,
  SEND_MIN_DAYS_TO_DUE,
  sendDueDateCode,
  uploadInvoiceBodySchema,
} from './invoices';
import { issueCodes } from './test-support/issue-codes';

const FILE_ID = '3c1f8e2a-6b7d-4e59-8a21-9f0d4c3b2a10';
const RECIPIENT_ID = '0b6d6f1e-5c55-4b59-9d1a-6f1f2d7c9a01';

const VALID = {
  invoiceFileID: FILE_ID,
  recipientID: RECIPIENT_ID,
  invoiceNumber: 'F-2026-17',
  service: 'factoring',
  currency: 'SEK',
  invoiceDate: '2026-03-02',
  dueDate: '2026-04-01',
  amounts: [
    { vatBasisPoints: 2500, netMinor: 1_000_000 },
    { vatBasisPoints: 1200, netMinor: 12_345 },
  ],
};

const codes = (input: unknown) => issueCodes(uploadInvoiceBodySchema, input);

describe('the own OCR reference of an uploaded invoice', () => {
  it.each([
    ['', null],
    ['   ', null],
    ['1234574', '1234574'],
    ['123455', '123455'],
    // Printed in groups or with hyphens: stored as its digits.
    ['18108 40134 5678 778', '18108401345678778'],
    ['1018-9664-92531', '1018966492531'],
    // Passes the check digit but not the length digit: the customer's agreement may not use it.
    ['657775', '657775'],
  ])('accepts %j as %j', (typed, stored) => {
    expect(ownOcrReferenceSchema.parse(typed)).toBe(stored);
  });

  it('is optional', () => {
    expect(ownOcrReferenceSchema.parse(undefined)).toBeNull();
  });

  it.each([
    '1234575', // wrong Luhn check digit
    '8988777', // from the BGMAX samples: fails Luhn
    '5', // shorter than 2 digits
    '12345678901234567890123455', // 26 digits: longer than Bankgirot allows
    'ABC123', // not digits
    'RF18539007547034', // an RF reference is not a Swedish OCR reference
  ])('refuses %j with validation.ocr_reference', (typed) => {
    const result = ownOcrReferenceSchema.safeParse(typed);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('validation.ocr_reference');
  });
});

describe('the body of a register-by-upload (spec §5: a file must be attached)', () => {
  it('accepts the PDF, the facts and the net per VAT rate; OCR defaults to none', () => {
    const parsed = uploadInvoiceBodySchema.parse(VALID);
    expect(parsed).toMatchObject({ ...VALID, ocr: null, attachmentIDs: [], orderReference: '' });
    expect(uploadInvoiceBodySchema.parse({ ...VALID, ocr: '1234 574' }).ocr).toBe('1234574');
  });

  it.each([
    ['missing', undefined],
    ['null', null],
    ['empty', ''],
  ])('refuses a %s invoiceFileID with files.required', (_what, invoiceFileID) => {
    expect(codes({ ...VALID, invoiceFileID })).toEqual({ invoiceFileID: ['files.required'] });
  });

  it('refuses a bad OCR reference on its field', () => {
    expect(codes({ ...VALID, ocr: '1234575' })).toEqual({ ocr: ['validation.ocr_reference'] });
  });

  it('needs at least one amount, each above zero in whole minor units, each rate once', () => {
    expect(codes({ ...VALID, amounts: [] })).toEqual({ amounts: ['validation.rows_required'] });
    expect(codes({ ...VALID, amounts: [{ vatBasisPoints: 2500, netMinor: 0 }] })).toEqual({
      'amounts.0.netMinor': ['validation.amount_positive'],
    });
    expect(codes({ ...VALID, amounts: [{ vatBasisPoints: 2500, netMinor: 10.5 }] })).toEqual({
      'amounts.0.netMinor': ['validation.whole_minor_units'],
    });
    expect(
      codes({
        ...VALID,
        amounts: [
          { vatBasisPoints: 2500, netMinor: 100 },
          { vatBasisPoints: 600, netMinor: 100 },
          { vatBasisPoints: 2500, netMinor: 200 },
        ],
      }),
    ).toEqual({ 'amounts.2.vatBasisPoints': ['validation.vat_rate_repeated'] });
  });

  it('keeps the rules of the register form for the facts', () => {
    expect(codes({ ...VALID, recipientID: '', invoiceNumber: ' ' })).toEqual({
      recipientID: ['validation.recipient_required'],
      invoiceNumber: ['validation.required'],
    });
  });
});

describe('the status an invoice shows (issue #11)', () => {
  it('is rejected for a rejected invoice back with the customer, not "not sent"', () => {
    expect(invoiceStatus({ state: 1, decision: 'rejected' })).toBe('rejected');
  });

  it('is rejected for every invoice the rejected list filter names: a rejection not deleted', () => {
    for (const state of INVOICE_STATE_NUMBERS)
      expect(invoiceStatus({ state, decision: 'rejected' }) === 'rejected', String(state)).toBe(state !== 11);
  });

  it('is the state otherwise: never rejected, approved, sent again, or deleted', () => {
    expect(invoiceStatus({ state: 1, decision: null })).toBe(1);
    expect(invoiceStatus({ state: 2, decision: 'approved' })).toBe(2);
    expect(invoiceStatus({ state: 9, decision: null })).toBe(9);
    expect(invoiceStatus({ state: 11, decision: 'rejected' })).toBe(11);
  });

  it('is null for a state number the contracts do not know', () => {
    expect(invoiceStatus({ state: 10, decision: null })).toBeNull();
  });
});

describe('the invoice history query', () => {
  it('opens newest first', () => {
    expect(listInvoicesQuerySchema.parse({})).toMatchObject({ sort: 'invoiceDate', order: 'desc' });
  });
});

describe('sendDueDateCode', () => {
  const today = '2026-03-02';
  it('a financed invoice due before today has passed', () => {
    expect(sendDueDateCode('factoring', '2026-03-01', today)).toBe('invoices.due_date_passed');
    expect(sendDueDateCode('nonRecourseFactoring', '2025-12-31', today)).toBe('invoices.due_date_passed');
  });

  it('a financed invoice due today or in fewer than the minimum days is too soon, the minimum itself is fine', () => {
    expect(SEND_MIN_DAYS_TO_DUE).toBe(10);
    expect(sendDueDateCode('factoring', today, today)).toBe('invoices.due_date_too_soon');
    // 2026-03-11 is 9 days after the 2nd, 2026-03-12 is 10: across a month end as well.
    expect(sendDueDateCode('invoiceLoans', '2026-03-11', today)).toBe('invoices.due_date_too_soon');
    expect(sendDueDateCode('invoiceLoans', '2026-03-12', today)).toBeNull();
    expect(sendDueDateCode('factoring', '2026-03-09', '2026-02-28')).toBe('invoices.due_date_too_soon');
    expect(sendDueDateCode('factoring', '2026-03-10', '2026-02-28')).toBeNull();
  });

  it('services we do not finance are sent whatever the due date', () => {
    expect(sendDueDateCode('invoicingService', '2026-01-01', today)).toBeNull();
    expect(sendDueDateCode('debtCollectionService', '2026-01-01', today)).toBeNull();
  });
});

describe('isCompanyRecipient (ROT and RUT only for a private buyer)', () => {
  it('is a company with an organisation number, a Finnish business ID or a VAT number', () => {
    expect(isCompanyRecipient({ organizationNumber: '556036-0793', vat: '' })).toBe(true);
    expect(isCompanyRecipient({ organizationNumber: '0737546-2', vat: '' })).toBe(true);
    expect(isCompanyRecipient({ organizationNumber: '', vat: 'SE556036079301' })).toBe(true);
  });
  it('may be a private person with a personal identity number or no number', () => {
    expect(isCompanyRecipient({ organizationNumber: '811218-9876', vat: '' })).toBe(false);
    expect(isCompanyRecipient({ organizationNumber: '', vat: '' })).toBe(false);
    expect(isCompanyRecipient({ organizationNumber: '  ', vat: ' ' })).toBe(false);
  });
});
