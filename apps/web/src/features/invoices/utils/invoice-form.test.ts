import type { InvoiceDetail, Language } from '@portal/contracts';
import { computeInvoiceTotals } from '@portal/domain/invoice-totals';
import { resources } from '@portal/i18n';
import { describe, expect, it } from 'vitest';
import { invoiceDetail } from '../../../test/invoice-detail';
import {
  blankInvoiceForm,
  crossFieldIssues,
  duplicateNumberParams,
  formPathOf,
  type InvoiceFormValues,
  invoiceFormSchema,
  invoiceToForm,
  liveTotals,
} from './invoice-form';

const RECIPIENT = { recipientID: '0b6d6f1e-5c55-4b59-9d1a-6f1f2d7c9a01', name: 'Kund AB' };

/** The form's ROT/RUT section: a `type` deduction for the buyer `personalNumber`, with the property. */
function rotRutOf(
  type: 'rot' | 'rut',
  personalNumber: string,
  propertyDesignation = '',
  housingCoopNumber = '',
): InvoiceFormValues['rotRut'] {
  return { type, personalNumber, propertyDesignation, housingCoopNumber };
}

function form(overrides: Partial<InvoiceFormValues> = {}): InvoiceFormValues {
  return {
    ...blankInvoiceForm({
      today: '2026-03-02',
      currency: 'SEK',
      vatBasisPoints: 2500,
      invoiceNumber: '5001',
    }),
    recipient: RECIPIENT,
    rows: [
      {
        articleNumber: 'ARB-01',
        name: 'Arbetstimme',
        description: '',
        quantity: '8',
        unit: 'h',
        price: '650,00',
        vatBasisPoints: '2500',
        rotRut: true,
      },
      {
        articleNumber: '',
        name: 'Material',
        description: 'Skruv',
        quantity: '1,5',
        unit: 'st',
        price: '123,45',
        vatBasisPoints: '1200',
        rotRut: false,
      },
    ],
    ...overrides,
  };
}

const SV = { language: 'sv-SE', issuerCountry: 'SE' } as const;

describe('the invoice form schema (invoiceBodySchema over typed values)', () => {
  it('reads typed quantities and prices exactly and answers the request body', () => {
    const result = invoiceFormSchema(SV).safeParse(form());
    expect(result.success).toBe(true);
    expect(result.data).toMatchObject({
      recipientID: RECIPIENT.recipientID,
      invoiceNumber: '5001',
      invoiceDate: '2026-03-02',
      dueDate: '2026-04-01',
      rows: [
        {
          articleNumber: 'ARB-01',
          quantityMilli: 8000,
          unitPriceMinor: 65_000,
          vatBasisPoints: 2500,
          rotRut: true,
        },
        {
          name: 'Material',
          description: 'Skruv',
          quantityMilli: 1500,
          unitPriceMinor: 12_345,
          vatBasisPoints: 1200,
        },
      ],
      rotRut: { type: 'none' },
    });
  });

  it('reads en-US amounts with the comma as thousands separator', () => {
    const values = form();
    values.rows = values.rows.map((row) => ({ ...row, quantity: '1.5', price: '1,234.50' }));
    const result = invoiceFormSchema({ language: 'en-US', issuerCountry: 'SE' }).safeParse(values);
    expect(result.data?.rows.map((r) => [r.quantityMilli, r.unitPriceMinor])).toEqual([
      [1500, 123_450],
      [1500, 123_450],
    ]);
  });

  it('requires a recipient (spec §5) with the contract code', () => {
    const result = invoiceFormSchema(SV).safeParse(form({ recipient: null }));
    expect(result.error?.issues).toContainEqual(
      expect.objectContaining({ path: ['recipient'], message: 'validation.recipient_required' }),
    );
  });

  it.each([
    ['quantity', '', 'validation.required'],
    ['quantity', 'två', 'invoices:form.errors.quantity_invalid'],
    ['quantity', '1,2345', 'invoices:form.errors.quantity_decimals'],
    ['quantity', '0', 'validation.quantity_positive'],
    ['price', '', 'validation.required'],
    ['price', '12 34', 'invoices:form.errors.price_invalid'],
    ['price', '12,345', 'validation.whole_minor_units'],
    ['price', '99 999 999,00', 'validation.amount_range'],
    ['name', '  ', 'validation.required'],
  ] as const)('refuses row %s %j with %s', (field, text, code) => {
    const values = form();
    values.rows = [{ ...values.rows[1], [field]: text } as InvoiceFormValues['rows'][number]];
    const result = invoiceFormSchema(SV).safeParse(values);
    expect(result.error?.issues).toContainEqual(
      expect.objectContaining({ path: ['rows', 0, field], message: code }),
    );
  });

  it.each([
    // 1 000 000 × 9 000 000,00: each figure within its bound, the total far above the maximum.
    [[{ quantity: '1 000 000', price: '9 000 000,00' }], 'validation.invoice_total_range'],
    // 8 × 10 000 000,00 + 25 % = 100 000 000,00, plus one öre without VAT.
    [
      [
        { quantity: '8', price: '10 000 000,00', vatBasisPoints: '2500' },
        { quantity: '1', price: '0,01', vatBasisPoints: '0' },
      ],
      'validation.invoice_total_range',
    ],
    [[{ quantity: '1', price: '-125 000,00' }], 'validation.invoice_total_positive'],
    [
      [
        { quantity: '1', price: '100,00' },
        { quantity: '1', price: '-100,00' },
      ],
      'validation.invoice_total_positive',
    ],
  ] as const)('refuses rows %j on the rows with %s, a text in every language', (typed, code) => {
    const values = form();
    const base = values.rows[1] as InvoiceFormValues['rows'][number];
    values.rows = typed.map((r) => ({ ...base, ...r }));
    const result = invoiceFormSchema(SV).safeParse(values);
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['rows'], message: code })]);
    for (const locale of ['sv-SE', 'en-US', 'fi-FI'] as const)
      expect(resources[locale].validation[code.slice('validation.'.length)]).toEqual(expect.any(String));
  });

  it('takes rows of exactly the largest total', () => {
    const values = form();
    const base = values.rows[1] as InvoiceFormValues['rows'][number];
    values.rows = [{ ...base, quantity: '8', price: '10 000 000,00', vatBasisPoints: '2500' }];
    expect(invoiceFormSchema(SV).safeParse(values).success).toBe(true);
  });

  it('sends no ROT/RUT for an invoice in EUR, whatever the hidden section holds', () => {
    const values = form({
      currency: 'EUR',
      rotRut: rotRutOf('rut', '19811218-9876'),
    });
    expect(invoiceFormSchema(SV).parse(values).rotRut).toMatchObject({ type: 'none', personalNumber: '' });
  });
});

describe('the rules across fields, as the server checks them', () => {
  it('refuses a due date before the invoice date', () => {
    expect(crossFieldIssues(form({ dueDate: '2026-03-01' }), SV).get('dueDate')).toBe(
      'validation.due_before_invoice_date',
    );
  });

  it('refuses a ROT/RUT deduction that leaves nothing to pay, as the server does', () => {
    const values = form({
      rotRut: rotRutOf('rut', '19811218-9876'),
    });
    const [labour, other] = values.rows as [
      InvoiceFormValues['rows'][number],
      InvoiceFormValues['rows'][number],
    ];
    // Labour 1 000,00 + VAT, RUT 625,00; a discount takes the total to 125,00.
    values.rows = [
      { ...labour, quantity: '1', price: '1 000,00', vatBasisPoints: '2500', rotRut: true },
      { ...other, quantity: '1', price: '-900,00', vatBasisPoints: '2500' },
    ];
    expect(crossFieldIssues(values, SV).get('rows')).toBe('validation.invoice_total_positive');
    expect(crossFieldIssues(form(), SV).get('rows')).toBeUndefined();
  });

  it('checks the ROT buyer, the property and a labour row', () => {
    const values = form({
      rotRut: rotRutOf('rot', '19811218-9875', '', '123'),
    });
    values.rows = values.rows.map((row) => ({ ...row, rotRut: false }));
    expect(Object.fromEntries(crossFieldIssues(values, SV))).toEqual({
      'rotRut.personalNumber': 'validation.personal_number',
      'rotRut.housingCoopNumber': 'validation.organization_number',
      rows: 'validation.rot_rut_labour_row',
    });
    const good = form({
      rotRut: rotRutOf('rot', '19811218-9876', 'Sjöbo 1:23'),
    });
    expect(crossFieldIssues(good, SV).size).toBe(0);
  });
});

describe('live totals', () => {
  it('equal computeInvoiceTotals over the same rows, the function the server stores totals with', () => {
    const live = liveTotals(form(), SV);
    const expected = computeInvoiceTotals([
      { quantity: 8000, unitPriceMinor: 65_000, vatBasisPoints: 2500, kind: 'labour' },
      { quantity: 1500, unitPriceMinor: 12_345, vatBasisPoints: 1200, kind: 'other' },
    ]);
    expect(live?.totals).toEqual(expected);
    // 1,5 × 123,45 = 185,175 → 185,18 (half away from zero, once per row).
    expect(live?.rowNetsMinor).toEqual([520_000, 18_518]);
  });

  it('take the RUT deduction by the due date, as the server does', () => {
    const values = form({
      rotRut: rotRutOf('rut', '19811218-9876'),
    });
    const live = liveTotals(values, SV);
    const expected = computeInvoiceTotals(
      [
        { quantity: 8000, unitPriceMinor: 65_000, vatBasisPoints: 2500, kind: 'labour' },
        { quantity: 1500, unitPriceMinor: 12_345, vatBasisPoints: 1200, kind: 'other' },
      ],
      { type: 'rut', paymentDate: '2026-04-01' },
    );
    expect(live?.totals).toEqual(expected);
    expect(live?.totals.taxReductionMinor).toBe(325_000);
  });

  it('leave out a row that cannot be read yet', () => {
    const values = form();
    const [first, second] = values.rows;
    if (!first || !second) throw new Error('two rows expected');
    values.rows = [{ ...first, price: '6x' }, second];
    const live = liveTotals(values, SV);
    expect(live?.rowNetsMinor).toEqual([null, 18_518]);
    expect(live?.totals.netMinor).toBe(18_518);
  });
});

describe('server answers in the form', () => {
  it.each([
    ['recipientID', 'recipient'],
    ['invoiceNumber', 'invoiceNumber'],
    ['rows.0.vatBasisPoints', 'rows.0.vatBasisPoints'],
    ['rows.3.unitPriceMinor', 'rows.3.price'],
    ['rows.1.quantityMilli', 'rows.1.quantity'],
    ['rotRut.personalNumber', 'rotRut.personalNumber'],
    ['rows', 'rows'],
    ['attachmentIDs', null],
  ])('issue path %s shows on %s', (path, field) => {
    expect(formPathOf(path)).toBe(field);
  });

  it('the duplicate-number error shows the existing invoice in the user language', () => {
    const details = {
      grossMinor: 663_826,
      currency: 'SEK',
      recipientName: 'Kund AB',
      invoiceDate: '2026-03-02',
    };
    const en = duplicateNumberParams(details, 'en-US');
    expect(en?.amount.replace(/\s/g, ' ')).toBe('SEK 6,638.26');
    expect(en).toMatchObject({ recipient: 'Kund AB', date: 'Mar 2, 2026' });
    const sv = duplicateNumberParams(details, 'sv-SE');
    // Intl separates groups and the currency with no-break spaces.
    expect(sv?.amount.replace(/\s/g, ' ')).toBe('6 638,26 kr');
    expect(sv?.date).toBe('2 mars 2026');
    expect(duplicateNumberParams({}, 'en-US')).toBeNull();
  });
});

describe('an existing invoice in the form', () => {
  const invoice = invoiceDetail({
    invoiceID: 'i1',
    dueDate: '2026-03-17',
    orderReference: 'PO-7',
    issuerContact: 'Dana',
    recipientContact: 'Kim',
    rows: [
      {
        articleNumber: 'A',
        name: 'Arbete',
        description: '',
        quantityMilli: 1500,
        unit: 'h',
        unitPriceMinor: 123_450,
        vatBasisPoints: 2500,
        rotRut: false,
        netMinor: 185_175,
      },
    ] as unknown as InvoiceDetail['rows'],
  });
  /** The invoice in the form on 2026-05-01, with `invoiceNumber` as the next free number. */
  const formOf = (mode: 'edit' | 'duplicate', language: Language, invoiceNumber: string) =>
    invoiceToForm(invoice, mode, { language, today: '2026-05-01', invoiceNumber });

  it('keeps everything for an edit, typed in the user language', () => {
    const values = formOf('edit', 'sv-SE', 'x');
    expect(values).toMatchObject({
      invoiceNumber: '5001',
      invoiceDate: '2026-03-02',
      dueDate: '2026-03-17',
      paymentTermsDays: '15',
      rows: [{ quantity: '1,5', vatBasisPoints: '2500' }],
    });
    expect(values.rows[0]?.price.replace(/\s/g, ' ')).toBe('1 234,50');
    expect(invoiceFormSchema(SV).parse(values).rows[0]).toMatchObject({
      quantityMilli: 1500,
      unitPriceMinor: 123_450,
    });
  });

  it('dates a duplicate today with the same terms and the new number', () => {
    const values = formOf('duplicate', 'en-US', '5002');
    expect(values).toMatchObject({
      invoiceNumber: '5002',
      invoiceDate: '2026-05-01',
      dueDate: '2026-05-16',
      recipient: { recipientID: RECIPIENT.recipientID, name: 'Kund AB' },
      orderReference: 'PO-7',
      rows: [{ quantity: '1.5', price: '1,234.50' }],
    });
  });
});
