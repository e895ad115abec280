import type { InvoiceDetail } from '@portal/contracts';

/** A pending factoring invoice as the API answers it: 5001 of 2026-03-02 to Kund AB, no rows, files or events. */
const PENDING_INVOICE: InvoiceDetail = {
  invoiceID: '7e0c1f5a-0d1e-4a57-9d33-2f0e6f0e9b10',
  invoiceNumber: '5001',
  recipientID: '0b6d6f1e-5c55-4b59-9d1a-6f1f2d7c9a01',
  recipientName: 'Kund AB',
  service: 'factoring',
  state: 1,
  currency: 'SEK',
  invoiceDate: '2026-03-02',
  dueDate: '2026-04-01',
  created: '2026-03-02T10:00:00.000Z',
  ocr: null,
  grossMinor: 100,
  toPayMinor: 100,
  remainingMinor: 100,
  overdue: false,
  orderReference: '',
  issuerContact: '',
  recipientContact: '',
  rows: [],
  vat: [],
  netMinor: 80,
  vatMinor: 20,
  deductionMinor: 0,
  rotRut: { type: 'none', personalNumber: '', propertyDesignation: '', housingCoopNumber: '' },
  decision: null,
  rejectionReason: null,
  files: [],
  events: [],
};

/** PENDING_INVOICE with `fields` laid over it. */
export const invoiceDetail = (fields: Partial<InvoiceDetail> = {}): InvoiceDetail => ({
  ...PENDING_INVOICE,
  ...fields,
});
