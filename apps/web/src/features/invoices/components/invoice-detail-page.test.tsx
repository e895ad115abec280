import type { InvoiceSummary } from '@portal/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getSession } from '../../../lib/session-store';
import { startRealApi } from '../../../test/real-api';
import { renderWithProviders } from '../../../test/render';
import { InvoiceDetailPage } from './invoice-detail-page';

// One real server for the whole file; each test starts from the demo seed.
const api = startRealApi();

beforeEach(async () => {
  await api.signIn('demo');
});

/**
 * Registers a pending RUT invoice on the server: one labour row of 8 h at SEK 650.00 with 25 % VAT
 * (gross SEK 6,500.00), of which the buyer's RUT deduction (50 % of labour incl. VAT) is SEK 3,250.00.
 */
async function registerRutInvoice(attachmentIDs: string[] = []): Promise<string> {
  // RUT is a private person's deduction: the buyer is a recipient without an organisation number.
  const buyer = await api.call<{ recipientID: string }>('POST', '/api/limited/recipients', {
    name: 'Kim Kund',
    zipcode: '114 35',
    city: 'Stockholm',
    email: 'kim.kund@example.com',
  });
  const created = await api.call<{ invoiceID: string }>('POST', '/api/limited/invoices', {
    recipientID: buyer.recipientID,
    invoiceNumber: '5001',
    service: 'factoring',
    currency: 'SEK',
    invoiceDate: '2026-03-02',
    dueDate: '2026-04-01',
    orderReference: 'PO-77',
    issuerContact: 'Dana',
    recipientContact: 'Kim',
    rows: [
      {
        articleNumber: 'ARB-01',
        name: 'Arbetstimme',
        quantityMilli: 8000,
        unit: 'h',
        unitPriceMinor: 65_000,
        vatBasisPoints: 2500,
        rotRut: true,
      },
    ],
    rotRut: { type: 'rut', personalNumber: '19811218-9876', propertyDesignation: '', housingCoopNumber: '' },
    attachmentIDs,
  });
  return created.invoiceID;
}

describe('the invoice detail (/invoices/:id)', () => {
  it('shows the fields, the rows, the deduction, the amount to pay and the translated timeline', async () => {
    const id = await registerRutInvoice();
    renderWithProviders(
      <InvoiceDetailPage invoiceID={id} abilities={['limited_invoices']} notice="registered" />,
    );
    expect(await screen.findByRole('heading', { name: 'Invoice 5001' })).toBeInTheDocument();
    expect(screen.getByText('The invoice has been registered.')).toBeInTheDocument();
    expect(screen.getAllByText('Not sent').length).toBeGreaterThan(0);
    expect(screen.getByText('Assigned when the invoice is sent')).toBeInTheDocument();
    expect(screen.getByText('PO-77')).toBeInTheDocument();
    const timeline = within(screen.getByRole('list'));
    expect(timeline.getByText('Registered')).toBeInTheDocument();
    // The server's clock stands at the test start, Monday 2 March 2026.
    expect(timeline.getByText(/Mar 2, 2026/)).toBeInTheDocument();
    const deduction = screen.getAllByText('RUT deduction').at(-1);
    expect(deduction?.nextSibling?.textContent?.replace(/\s/g, ' ')).toBe('-SEK 3,250.00');
    expect(screen.getByTestId('invoice-to-pay').textContent?.replace(/\s/g, ' ')).toBe('SEK 3,250.00');
    // Reading only: no edit, delete or send without those abilities.
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
  });

  it('shows a rejected invoice as Rejected, in the badge and the state, with the reason (issue #11)', async () => {
    const rejected = await api.call<{ items: InvoiceSummary[] }>(
      'GET',
      '/api/limited/invoices?filter=rejected&pageSize=1',
    );
    const one = rejected.items[0];
    if (!one?.rejectionReason) throw new Error('the demo history has a rejected invoice with a reason');
    renderWithProviders(
      <InvoiceDetailPage
        invoiceID={one.invoiceID}
        abilities={['limited_invoices', 'limited_register_invoice', 'limited_send_invoice']}
      />,
    );
    expect(await screen.findByRole('heading', { name: `Invoice ${one.invoiceNumber}` })).toBeInTheDocument();
    const badge = screen.getAllByText('Rejected').find((el) => el.classList.contains('state-badge'));
    expect(badge).toHaveClass('state-badge--danger');
    expect(screen.getByText('Status').nextSibling?.textContent).toBe('Rejected');
    expect(screen.queryByText('Not sent')).not.toBeInTheDocument();
    expect(screen.getByText(`Reason: ${one.rejectionReason}`)).toBeInTheDocument();
    // Back with the customer: it can be changed and sent again.
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
  });

  it('offers edit, duplicate, delete (asked first) and send for a pending invoice', async () => {
    const id = await registerRutInvoice();
    renderWithProviders(
      <InvoiceDetailPage
        invoiceID={id}
        abilities={['limited_invoices', 'limited_register_invoice', 'limited_send_invoice']}
      />,
    );
    expect(await screen.findByRole('link', { name: 'Edit' })).toHaveAttribute('href', `/invoice/edit/${id}`);
    expect(screen.getByRole('link', { name: 'Duplicate' })).toHaveAttribute(
      'href',
      `/invoices/duplicate/${id}`,
    );
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete the invoice?' });
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Invoice 5001 has been deleted.')).toBeInTheDocument();
    // Deleting keeps the invoice for the history, in state 11 (deleted).
    expect(await api.call('GET', `/api/limited/invoices/${id}`)).toMatchObject({ state: 11 });
  });

  it('offers no edit, delete or send once the invoice is sent', async () => {
    // 10042 of the demo history is sent and financed: its OCR reference is shown.
    const id = await api.invoiceID('10042');
    const sent = await api.call<{ ocr: string }>('GET', `/api/limited/invoices/${id}`);
    renderWithProviders(
      <InvoiceDetailPage
        invoiceID={id}
        abilities={['limited_invoices', 'limited_register_invoice', 'limited_send_invoice']}
      />,
    );
    expect(await screen.findByText(sent.ocr)).toBeInTheDocument();
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

    it("downloads the invoice's document (its recipient's language, not the UI's) under the server's name, and each attached file", async () => {
      // A real PDF to attach: the server's own PDF of a demo invoice.
      const demoPdf = await api.server.app.inject({
        method: 'GET',
        url: `/api/limited/invoices/${await api.invoiceID('10042')}/pdf`,
        headers: { authorization: `Bearer ${getSession().token}` },
      });
      const upload = await api.server.app.inject({
        method: 'POST',
        url: '/api/limited/files?role=attachment&filename=contract.pdf',
        headers: { authorization: `Bearer ${getSession().token}`, 'content-type': 'application/pdf' },
        payload: demoPdf.rawPayload,
      });
      expect(demoPdf.statusCode).toBe(200);
      expect(upload.statusCode, upload.body).toBe(200);
      const file = upload.json() as { fileID: string; size: number };
      const id = await registerRutInvoice([file.fileID]);
      const urls = stubObjectUrls();
      renderWithProviders(<InvoiceDetailPage invoiceID={id} abilities={['limited_invoices']} />);
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: 'Download invoice PDF' }));
      await vi.waitFor(() => expect(urls.names).toHaveLength(1), { timeout: 10_000 });
      expect(urls.names[0]).toMatch(/5001.*\.pdf$/);
      // The document's language is the recipient's (issue #11): the page asks for no language.
      const pdfCall = api.calls.find((c) => c.path.endsWith('/pdf'));
      expect(pdfCall?.query.has('language')).toBe(false);
      expect(
        new TextDecoder().decode(new Uint8Array(await (urls.saved[0] as Blob).arrayBuffer()).slice(0, 5)),
      ).toBe('%PDF-');
      expect(screen.getByText(`${Math.round(file.size / 1024)} kB`)).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'contract.pdf' }));
      await vi.waitFor(() => expect(urls.names).toHaveLength(2));
      expect(urls.names[1]).toBe('contract.pdf');
      expect((urls.saved[1] as Blob).size).toBe(file.size);
      urls.click.mockRestore();
    });

    it('says the document could not be downloaded when the download fails', async () => {
      const id = await registerRutInvoice();
      // A dropped connection is a condition the real server cannot produce: this one call is faked.
      api.failNext(`GET /api/limited/invoices/${id}/pdf`, 'network');
      renderWithProviders(<InvoiceDetailPage invoiceID={id} abilities={['limited_invoices']} />);
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: 'Download invoice PDF' }));
      expect(await screen.findByText('Unable to download the document.')).toBeInTheDocument();
      expect(screen.getByText('No files are attached.')).toBeInTheDocument();
    });
  });
});
