import { computeInvoiceTotals } from '@portal/domain/invoice-totals';
import { formatMoney } from '@portal/domain/money';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import InvoiceUploadRoute from '../../../app/routes/invoice-upload';
import { type FakeHandler, installFakeApi, makeSelf } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';

const FILE_ID = '3c1f8e2a-6b7d-4e59-8a21-9f0d4c3b2a10';
const RECIPIENT = {
  recipientID: '0b6d6f1e-5c55-4b59-9d1a-6f1f2d7c9a01',
  name: 'Kund AB',
  address: 'Gatan 1',
  address2: '',
  zipcode: '111 22',
  city: 'Stockholm',
  country: 'SE',
  email: 'kund@example.com',
  phone: '',
  organizationNumber: '556036-0793',
  vat: '',
  updated: '2026-03-01T10:00:00.000Z',
};
const INVOICE = {
  invoiceID: '7e0c1f5a-0d1e-4a57-9d33-2f0e6f0e9b10',
  invoiceNumber: '5001',
  recipientID: RECIPIENT.recipientID,
  recipientName: 'Kund AB',
  service: 'factoring',
  state: 1,
  currency: 'SEK',
  invoiceDate: '2026-03-02',
  dueDate: '2026-04-01',
  created: '2026-03-02T10:00:00.000Z',
  ocr: '1234574',
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
  files: [],
  events: [],
};

function DetailProbe() {
  const location = useLocation();
  return (
    <p>
      At {location.pathname} with {JSON.stringify(location.state)}
    </p>
  );
}

function renderUpload(handlers: Record<string, FakeHandler> = {}) {
  const api = installFakeApi({
    'GET /api/self': () => ({
      status: 200,
      body: makeSelf({
        abilities: ['limited_register_invoice_upload'],
        taxRates: [{ rateBasisPoints: 2500 }, { rateBasisPoints: 1200 }, { rateBasisPoints: 600 }],
        currencies: ['SEK', 'EUR'],
      }),
    }),
    'GET /api/limited/invoices/next-number': () => ({ status: 200, body: { invoiceNumber: '5001' } }),
    'GET /api/limited/recipients': () => ({
      status: 200,
      body: { items: [RECIPIENT], total: 1, page: 1, pageSize: 8 },
    }),
    'POST /api/limited/files': (request) => ({
      status: 200,
      body: {
        fileID: FILE_ID,
        role: request.query.get('role'),
        filename: request.query.get('filename'),
        size: 2048,
        sha256: 'abc',
      },
    }),
    ...handlers,
  });
  renderWithProviders(
    <Routes>
      <Route path="/invoice/upload" element={<InvoiceUploadRoute />} />
      <Route path="/invoices/:id" element={<DetailProbe />} />
    </Routes>,
    { path: '/invoice/upload' },
  );
  return api;
}

const pdf = (name: string) => new File(['%PDF-1.7\n1 0 obj\n'], name, { type: 'application/pdf' });
const money = (minor: number) => formatMoney(minor, 'SEK', 'en-US').replace(/\s/g, ' ');
const text = (element: Node | null | undefined) => element?.textContent?.replace(/\s/g, ' ');

async function pickRecipient(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByRole('combobox', { name: /Recipient/ }), 'Kund');
  await user.click(await screen.findByRole('option', { name: /Kund AB/ }));
}

describe('the upload form (/invoice/upload)', { timeout: 20_000 }, () => {
  it('says a file must be attached before sending anything, and keeps what was typed', async () => {
    const api = renderUpload();
    const user = userEvent.setup();
    const net = await screen.findByLabelText('Amount excl. VAT, line 1');
    await user.type(net, '1000');
    await user.click(screen.getByRole('button', { name: 'Register invoice' }));
    expect(await screen.findByText('A file must be attached.')).toBeInTheDocument();
    expect(screen.getByText('Select a recipient.')).toBeInTheDocument();
    expect(api.calls.some((c) => c.path === '/api/limited/invoices/upload')).toBe(false);
    expect(net).toHaveValue('1000');
  });

  it('refuses an OCR reference with a wrong check digit in the browser', async () => {
    const api = renderUpload();
    const user = userEvent.setup();
    const ocr = await screen.findByLabelText(/Own OCR reference/);
    await user.type(ocr, '1234575');
    await user.click(screen.getByRole('button', { name: 'Register invoice' }));
    await waitFor(() =>
      expect(ocr).toHaveAccessibleDescription(
        /Enter a valid OCR reference: 2–25 digits, the last one a check digit/,
      ),
    );
    expect(api.calls.some((c) => c.path === '/api/limited/invoices/upload')).toBe(false);
  });

  it('registers the PDF with the amounts per VAT rate and the own OCR, then opens the invoice', async () => {
    const api = renderUpload({
      'POST /api/limited/invoices/upload': () => ({ status: 200, body: INVOICE }),
    });
    const user = userEvent.setup();
    const number = await screen.findByLabelText(/Invoice number/);
    await waitFor(() => expect(number).toHaveValue('5001'));
    await user.upload(screen.getByLabelText('Choose the invoice PDF'), pdf('faktura-5001.pdf'));
    expect(await screen.findByText('faktura-5001.pdf')).toBeInTheDocument();
    // One file only: the picker is full until it is removed.
    expect(screen.getByLabelText('Choose the invoice PDF', { selector: 'input' })).toBeDisabled();
    await pickRecipient(user);
    await user.type(screen.getByLabelText(/Own OCR reference/), '1234 574');
    await user.type(screen.getByLabelText('Amount excl. VAT, line 1'), '12,345.67');
    await user.click(screen.getByRole('button', { name: 'Add VAT rate' }));
    // The new line takes a rate not used yet.
    expect(screen.getByLabelText('VAT rate, line 2')).toHaveValue('1200');
    await user.selectOptions(screen.getByLabelText('VAT rate, line 2'), '6%');
    await user.type(screen.getByLabelText('Amount excl. VAT, line 2'), '99.99');

    const expected = computeInvoiceTotals([
      { quantity: 1000, unitPriceMinor: 1_234_567, vatBasisPoints: 2500 },
      { quantity: 1000, unitPriceMinor: 9_999, vatBasisPoints: 600 },
    ]);
    expect(text(screen.getByTestId('invoice-to-pay'))).toBe(money(expected.toPayMinor));
    expect(text(screen.getByText('VAT 25%').nextSibling)).toBe(money(308_642));
    expect(text(screen.getByText('VAT 6%').nextSibling)).toBe(money(600));

    await user.click(screen.getByRole('button', { name: 'Register invoice' }));
    expect(await screen.findByText(/At \/invoices\/7e0c1f5a/)).toHaveTextContent('"notice":"registered"');
    const post = api.calls.find((c) => c.path === '/api/limited/invoices/upload');
    expect(post?.headers['Idempotency-Key']).toMatch(/^[0-9a-f]{32}$/);
    expect(post?.body).toEqual({
      invoiceFileID: FILE_ID,
      recipientID: RECIPIENT.recipientID,
      invoiceNumber: '5001',
      service: 'factoring',
      currency: 'SEK',
      invoiceDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      dueDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      orderReference: '',
      issuerContact: '',
      recipientContact: '',
      ocr: '1234574',
      amounts: [
        { vatBasisPoints: 2500, netMinor: 1_234_567 },
        { vatBasisPoints: 600, netMinor: 9_999 },
      ],
      attachmentIDs: [],
    });
    const upload = api.calls.find((c) => c.path === '/api/limited/files');
    expect(upload?.query.get('role')).toBe('invoice');
  });

  it('shows a duplicate own OCR reference on its field', async () => {
    renderUpload({
      'POST /api/limited/invoices/upload': () => ({
        status: 409,
        body: { code: 'invoices.duplicate_ocr', issues: [{ path: 'ocr', code: 'invoices.duplicate_ocr' }] },
      }),
    });
    const user = userEvent.setup();
    await screen.findByLabelText('Choose the invoice PDF');
    await user.upload(screen.getByLabelText('Choose the invoice PDF'), pdf('faktura.pdf'));
    await screen.findByText('faktura.pdf');
    await pickRecipient(user);
    const ocr = screen.getByLabelText(/Own OCR reference/);
    await user.type(ocr, '1234574');
    await user.type(screen.getByLabelText('Amount excl. VAT, line 1'), '500');
    await user.click(screen.getByRole('button', { name: 'Register invoice' }));
    const message = 'This OCR reference is already used on another of your invoices.';
    await waitFor(() => expect(ocr).toHaveAccessibleDescription(new RegExp(message)));
    expect(screen.getByText(message, { selector: '.notice' })).toBeInTheDocument();
  });
});
