import type { Recipient } from '@portal/contracts';
import { computeInvoiceTotals } from '@portal/domain/invoice-totals';
import { formatMoney } from '@portal/domain/money';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import InvoiceUploadRoute from '../../../app/routes/invoice-upload';
import { pickRecipient, renderFormAt } from '../../../test/invoice-forms';
import { startRealApi } from '../../../test/real-api';

// One real server for the whole file; each test starts from the demo seed.
const api = startRealApi();
let recipient: Recipient;
/** A real PDF (the server checks that it opens and has pages): the server's own PDF of demo invoice 10042. */
let demoPdfBytes: Uint8Array;

beforeEach(async () => {
  await api.signIn('demo');
  const all = (
    await api.call<{ items: Recipient[] }>('GET', '/api/limited/recipients?sort=name&order=asc&pageSize=100')
  ).items;
  recipient = all.find((r) => all.filter((o) => o.name === r.name).length === 1) as Recipient;
  demoPdfBytes ??= await api.demoPdf();
});

function renderUpload() {
  renderFormAt('/invoice/upload', <InvoiceUploadRoute />);
  return api;
}

const pdf = (name: string) => new File([demoPdfBytes as BlobPart], name, { type: 'application/pdf' });
const money = (minor: number) => formatMoney(minor, 'SEK', 'en-US').replace(/\s/g, ' ');
const text = (element: Node | null | undefined) => element?.textContent?.replace(/\s/g, ' ');

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
    const { invoiceNumber } = await api.call<{ invoiceNumber: string }>(
      'GET',
      '/api/limited/invoices/next-number',
    );
    renderUpload();
    const user = userEvent.setup();
    const number = await screen.findByLabelText(/Invoice number/);
    await waitFor(() => expect(number).toHaveValue(invoiceNumber));
    await user.upload(screen.getByLabelText('Choose the invoice PDF'), pdf('faktura-eget.pdf'));
    expect(await screen.findByText('faktura-eget.pdf')).toBeInTheDocument();
    // One file only: the picker is full until it is removed.
    expect(screen.getByLabelText('Choose the invoice PDF', { selector: 'input' })).toBeDisabled();
    await pickRecipient(user, recipient.name);
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
    expect(await screen.findByText(/At \/invoices\//)).toHaveTextContent('"notice":"registered"');
    const upload = api.calls.find((c) => c.path === '/api/limited/files');
    expect(upload?.query.get('role')).toBe('invoice');
    const post = api.calls.find((c) => c.path === '/api/limited/invoices/upload');
    expect(post?.headers['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
    const invoiceID = /At \/invoices\/([0-9a-f-]{36})/.exec(
      screen.getByText(/At \/invoices\//).textContent ?? '',
    )?.[1];
    const stored = await api.call<{
      ocr: string;
      toPayMinor: number;
      files: { fileID: string; filename: string; size: number }[];
    }>('GET', `/api/limited/invoices/${invoiceID}`);
    expect(stored.ocr).toBe('1234574');
    expect(stored.toPayMinor).toBe(expected.toPayMinor);
    expect(stored.files).toEqual([
      expect.objectContaining({ filename: 'faktura-eget.pdf', size: demoPdfBytes.length }),
    ]);
    expect(post?.body).toEqual({
      invoiceFileID: stored.files[0]?.fileID,
      recipientID: recipient.recipientID,
      invoiceNumber,
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
  });

  it('shows a duplicate own OCR reference on its field', async () => {
    // Demo invoice 10005 already carries OCR reference 10000586.
    renderUpload();
    const user = userEvent.setup();
    await screen.findByLabelText('Choose the invoice PDF');
    await user.upload(screen.getByLabelText('Choose the invoice PDF'), pdf('faktura.pdf'));
    await screen.findByText('faktura.pdf');
    await pickRecipient(user, recipient.name);
    const ocr = screen.getByLabelText(/Own OCR reference/);
    await user.type(ocr, '10000586');
    await user.type(screen.getByLabelText('Amount excl. VAT, line 1'), '500');
    await user.click(screen.getByRole('button', { name: 'Register invoice' }));
    const message = 'This OCR reference is already used on another of your invoices.';
    await waitFor(() => expect(ocr).toHaveAccessibleDescription(new RegExp(message)));
    expect(screen.getByText(message, { selector: '.notice' })).toBeInTheDocument();
  });
});
