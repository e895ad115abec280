import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { InvoiceDetailPage } from './invoice-detail-page';

const ID = '7e0c1f5a-0d1e-4a57-9d33-2f0e6f0e9b10';

function detail(overrides: object = {}) {
  return {
    invoiceID: ID,
    invoiceNumber: '5001',
    recipientID: 'r1',
    recipientName: 'Kund AB',
    service: 'factoring',
    state: 1,
    currency: 'SEK',
    invoiceDate: '2026-03-02',
    dueDate: '2026-04-01',
    created: '2026-03-02T09:15:00.000Z',
    ocr: null,
    grossMinor: 663_826,
    toPayMinor: 338_826,
    remainingMinor: 338_826,
    overdue: false,
    orderReference: 'PO-77',
    issuerContact: 'Dana',
    recipientContact: 'Kim',
    rows: [
      {
        articleNumber: 'ARB-01',
        name: 'Arbetstimme',
        description: '',
        quantityMilli: 8000,
        unit: 'h',
        unitPriceMinor: 65_000,
        vatBasisPoints: 2500,
        rotRut: true,
        netMinor: 520_000,
      },
    ],
    vat: [{ vatBasisPoints: 2500, netMinor: 520_000, vatMinor: 130_000 }],
    netMinor: 532_345,
    vatMinor: 131_481,
    deductionMinor: 325_000,
    rotRut: { type: 'rut', personalNumber: '19811218-9876', propertyDesignation: '', housingCoopNumber: '' },
    decision: null,
    files: [],
    events: [
      { eventID: 'e1', event: 1, date: '2026-03-02T09:15:00.000Z', text: '' },
      { eventID: 'e2', event: 18, date: '2026-03-03T14:30:00.000Z', text: '' },
    ],
    ...overrides,
  };
}

describe('the invoice detail (/invoices/:id)', () => {
  it('shows the fields, the rows, the deduction, the amount to pay and the translated timeline', async () => {
    installFakeApi({ [`GET /api/limited/invoices/${ID}`]: () => ({ status: 200, body: detail() }) });
    renderWithProviders(
      <InvoiceDetailPage invoiceID={ID} abilities={['limited_invoices']} notice="registered" />,
    );
    expect(await screen.findByRole('heading', { name: 'Invoice 5001' })).toBeInTheDocument();
    expect(screen.getByText('The invoice has been registered.')).toBeInTheDocument();
    expect(screen.getAllByText('Not sent').length).toBeGreaterThan(0);
    expect(screen.getByText('Assigned when the invoice is sent')).toBeInTheDocument();
    expect(screen.getByText('PO-77')).toBeInTheDocument();
    const timeline = within(screen.getByRole('list'));
    expect(timeline.getByText('Registered')).toBeInTheDocument();
    expect(timeline.getByText('Edited')).toBeInTheDocument();
    expect(timeline.getByText(/Mar 3, 2026/)).toBeInTheDocument();
    const deduction = screen.getAllByText('RUT deduction').at(-1);
    expect(deduction?.nextSibling?.textContent?.replace(/\s/g, ' ')).toBe('-SEK 3,250.00');
    expect(screen.getByTestId('invoice-to-pay').textContent?.replace(/\s/g, ' ')).toBe('SEK 3,388.26');
    // Reading only: no edit, delete or send without those abilities.
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
  });

  it('offers edit, duplicate, delete (asked first) and send for a pending invoice', async () => {
    const api = installFakeApi({
      [`GET /api/limited/invoices/${ID}`]: () => ({ status: 200, body: detail() }),
      [`DELETE /api/limited/invoices/${ID}`]: () => ({ status: 200, body: { ok: true } }),
    });
    renderWithProviders(
      <InvoiceDetailPage
        invoiceID={ID}
        abilities={['limited_invoices', 'limited_register_invoice', 'limited_send_invoice']}
      />,
    );
    expect(await screen.findByRole('link', { name: 'Edit' })).toHaveAttribute('href', `/invoice/edit/${ID}`);
    expect(screen.getByRole('link', { name: 'Duplicate' })).toHaveAttribute(
      'href',
      `/invoices/duplicate/${ID}`,
    );
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete the invoice?' });
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Invoice 5001 has been deleted.')).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(true);
  });

  it('offers no edit, delete or send once the invoice is sent', async () => {
    installFakeApi({
      [`GET /api/limited/invoices/${ID}`]: () => ({
        status: 200,
        body: detail({ state: 9, ocr: '1000018' }),
      }),
    });
    renderWithProviders(
      <InvoiceDetailPage
        invoiceID={ID}
        abilities={['limited_invoices', 'limited_register_invoice', 'limited_send_invoice']}
      />,
    );
    expect(await screen.findByText('1000018')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Duplicate' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
  });

  describe('documents', () => {
    afterEach(() => vi.unstubAllGlobals());

    function stubObjectUrls() {
      const saved: Blob[] = [];
      const createObjectURL = vi.fn((blob: Blob) => {
        saved.push(blob);
        return 'blob:test';
      });
      vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
      const names: string[] = [];
      const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
        this: HTMLAnchorElement,
      ) {
        names.push(this.download);
      });
      return { saved, names, click };
    }

    it("downloads our PDF in the current language under the server's name, and each attached file", async () => {
      const FILE = '0b7c2a9e-3f7d-4c51-a3a4-5b0f2d1e6c77';
      const api = installFakeApi({
        [`GET /api/limited/invoices/${ID}`]: () => ({
          status: 200,
          body: detail({
            files: [{ fileID: FILE, role: 'attachment', filename: 'contract.pdf', size: 2048, sha256: 'x' }],
          }),
        }),
        [`GET /api/limited/invoices/${ID}/pdf`]: () => ({
          status: 200,
          body: '%PDF-1.7',
          headers: {
            'Content-Type': 'application/pdf',
            'Content-Disposition': 'attachment; filename="faktura-5001.pdf"',
          },
        }),
        [`GET /api/limited/files/${FILE}`]: () => ({
          status: 200,
          body: '%PDF-1.4',
          headers: {
            'Content-Type': 'application/pdf',
            'Content-Disposition': 'attachment; filename="contract.pdf"',
          },
        }),
      });
      const urls = stubObjectUrls();
      renderWithProviders(<InvoiceDetailPage invoiceID={ID} abilities={['limited_invoices']} />);
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: 'Download invoice PDF' }));
      await vi.waitFor(() => expect(urls.names).toEqual(['faktura-5001.pdf']));
      const pdfCall = api.calls.find((c) => c.path.endsWith('/pdf'));
      expect(pdfCall?.query.get('language')).toBe('en-US');
      expect(screen.getByText('2 kB')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'contract.pdf' }));
      await vi.waitFor(() => expect(urls.names).toEqual(['faktura-5001.pdf', 'contract.pdf']));
      urls.click.mockRestore();
    });

    it('says the document could not be downloaded when the download fails', async () => {
      installFakeApi({
        [`GET /api/limited/invoices/${ID}`]: () => ({ status: 200, body: detail() }),
        [`GET /api/limited/invoices/${ID}/pdf`]: () => ({
          status: 404,
          body: { code: 'invoices.not_found' },
        }),
      });
      renderWithProviders(<InvoiceDetailPage invoiceID={ID} abilities={['limited_invoices']} />);
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: 'Download invoice PDF' }));
      expect(await screen.findByText('Unable to download the document.')).toBeInTheDocument();
      expect(screen.getByText('No files are attached.')).toBeInTheDocument();
    });
  });
});
