import { FILE_MAX_BYTES, type ImportPreview, importPreviewResponseSchema } from '@portal/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { formatLineRanges } from '../utils/import-preview';
import { InvoiceImportPage } from './invoice-import-page';

const PREVIEW = 'POST /api/limited/invoices/import/preview';
const IMPORT = 'POST /api/limited/invoices/import';
const TEMPLATE = 'GET /api/limited/invoices/import/template';

const csv = (name = 'fakturor.csv', text = 'invoiceNumber;…\r\n') =>
  new File([text], name, { type: 'text/csv' });

/** A preview in the contract shape: two good invoices in two currencies and one with three issues. */
const PREVIEW_BODY: ImportPreview = importPreviewResponseSchema.parse({
  invoices: [
    {
      invoiceNumber: 'IMP-1',
      recipientName: 'Import Kund AB',
      invoiceDate: '2026-03-01',
      currency: 'SEK',
      lines: [2, 3],
      rows: 2,
      grossMinor: 857_396,
      issues: [],
    },
    {
      invoiceNumber: 'IMP-2',
      recipientName: 'Import Kund AB',
      invoiceDate: '2026-03-02',
      currency: 'EUR',
      lines: [4],
      rows: 1,
      grossMinor: 500_000,
      issues: [],
    },
    {
      invoiceNumber: 'IMP-3',
      recipientName: '000000-0000',
      invoiceDate: '2026-02-30',
      currency: 'SEK',
      lines: [5],
      rows: 1,
      grossMinor: 0,
      issues: [
        { line: 5, column: 'recipientOrganizationNumber', code: 'import.unknown_recipient' },
        { line: 5, column: 'invoiceDate', code: 'import.invalid_date' },
        { line: 5, column: 'description', code: 'validation.max_length' },
      ],
    },
  ],
  fileIssues: [],
  valid: 2,
  invalid: 1,
});

const CREATED = {
  created: [
    { invoiceID: '0b7c2a9e-3f7d-4c51-a3a4-5b0f2d1e6c71', invoiceNumber: 'IMP-1' },
    { invoiceID: '0b7c2a9e-3f7d-4c51-a3a4-5b0f2d1e6c72', invoiceNumber: 'IMP-2' },
  ],
  skipped: 1,
};

function previewTable() {
  return within(screen.getByRole('table', { name: 'Invoices in the file' }));
}

describe('formatLineRanges', () => {
  it('writes runs of lines as ranges in file order', () => {
    expect(formatLineRanges([2, 3, 4, 7, 9, 10])).toBe('2–4, 7, 9–10');
    expect(formatLineRanges([5])).toBe('5');
    expect(formatLineRanges([])).toBe('');
  });
});

describe('the file upload page (/invoice/fileupload)', () => {
  afterEach(() => vi.restoreAllMocks());

  it("downloads the CSV and the Excel template under the server's file name", async () => {
    const api = installFakeApi({
      [TEMPLATE]: (request) => ({
        status: 200,
        body: 'invoiceNumber;recipientOrganizationNumber',
        headers: {
          'Content-Type': 'text/csv',
          'Content-Disposition': `attachment; filename="fakturaimport-mall.${request.query.get('format')}"`,
        },
      }),
    });
    const names: string[] = [];
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:test');
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    renderWithProviders(<InvoiceImportPage />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Download template (CSV)' }));
    await user.click(screen.getByRole('button', { name: 'Download template (Excel)' }));
    await waitFor(() => expect(names).toEqual(['fakturaimport-mall.csv', 'fakturaimport-mall.xlsx']));
    expect(api.calls.map((c) => c.query.get('format'))).toEqual(['csv', 'xlsx']);
    // The column names and number format follow the UI's language.
    expect(api.calls.map((c) => c.query.get('language'))).toEqual(['en-US', 'en-US']);
  });

  it('says so when the template cannot be downloaded', async () => {
    installFakeApi({ [TEMPLATE]: () => ({ status: 500, body: { code: 'server.internal' } }) });
    renderWithProviders(<InvoiceImportPage />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Download template (Excel)' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Unable to download the template. Please try again.',
    );
  });

  it('previews the file with each bad line and its reasons, then imports the valid invoices once', async () => {
    let release: () => void = () => {};
    const api = installFakeApi({
      [PREVIEW]: () => ({ status: 200, body: PREVIEW_BODY }),
      // The import answers only when the test lets it, so that the double click lands while it runs.
      [IMPORT]: () =>
        new Promise((resolve) => {
          release = () => resolve({ status: 200, body: CREATED });
        }),
    });
    renderWithProviders(<InvoiceImportPage />);
    const user = userEvent.setup();
    const file = csv();
    await user.upload(screen.getByLabelText('CSV or Excel file'), file);

    const heading = await screen.findByRole('heading', { name: '3. Check the invoices in fakturor.csv' });
    expect(heading).toHaveFocus();
    const preview = api.calls.find((c) => c.path === '/api/limited/invoices/import/preview');
    expect(preview?.query.get('format')).toBe('csv');
    expect(preview?.headers['Content-Type']).toBe('text/csv');
    expect(api.fetchMock.mock.calls[0]?.[1]?.body).toBe(file);

    expect(screen.getByText('Invoices ready to import: 2')).toBeInTheDocument();
    expect(screen.getByText('Invoices with errors: 1')).toBeInTheDocument();
    const totals = within(screen.getByRole('table', { name: 'To import, per currency' }));
    expect(totals.getByRole('row', { name: /SEK 1 SEK\s8,573\.96/ })).toBeInTheDocument();
    expect(totals.getByRole('row', { name: /EUR 1 €5,000\.00/ })).toBeInTheDocument();

    const headers = previewTable()
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual([
      'Status',
      'Invoice no.',
      'Recipient',
      'Invoice date',
      'Lines in the file',
      'Rows',
      'Amount',
      'Errors',
    ]);
    const good = previewTable().getByRole('row', { name: /IMP-1/ });
    expect(
      within(good)
        .getAllByRole('cell')
        // Intl writes a no-break space between the currency and the amount.
        .map((c) => c.textContent?.replace(/\u00a0/g, ' ')),
    ).toEqual(['Ready', 'Import Kund AB', 'Mar 1, 2026', '2–3', '2', 'SEK 8,573.96', '']);
    const bad = previewTable().getByRole('row', { name: /IMP-3/ });
    expect(bad).toHaveClass('import-table__invalid');
    expect(within(bad).getByText('Has errors')).toBeInTheDocument();
    // A date that does not exist is shown as the file has it, not rolled over to 2 March.
    expect(within(bad).getByText('2026-02-30')).toBeInTheDocument();
    expect(
      within(bad)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Line 5, Recipient’s organization number: The recipient is not in your recipient register.',
      'Line 5, Invoice date: Invalid date, use YYYY-MM-DD.',
      'Line 5, Description: At most 100 characters.',
    ]);
    expect(screen.getByText(/Invoices with errors are not imported/)).toBeInTheDocument();

    const confirm = screen.getByRole('button', { name: 'Import 2 invoices' });
    await user.dblClick(confirm);
    await user.click(confirm);
    release();
    const done = await screen.findByRole('heading', { name: 'Import complete' });
    expect(done).toHaveFocus();
    const imports = api.calls.filter((c) => c.path === '/api/limited/invoices/import');
    expect(imports).toHaveLength(1);
    expect(imports[0]?.query.get('format')).toBe('csv');
    expect(imports[0]?.headers['Idempotency-Key']).toMatch(/^[0-9a-f]{32}$/);
    expect(api.fetchMock.mock.calls.at(-1)?.[1]?.body).toBe(file);

    expect(screen.getByText('2 invoices have been imported and are waiting to be sent.')).toBeInTheDocument();
    expect(screen.getByText('1 invoice with errors was not imported.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Invoice IMP-1' })).toHaveAttribute(
      'href',
      `/invoices/${CREATED.created[0]?.invoiceID}`,
    );
    expect(screen.getByRole('link', { name: 'Go to pending invoices' })).toHaveAttribute(
      'href',
      '/invoice/send',
    );
    expect(screen.queryByRole('table', { name: 'Invoices in the file' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Import another file' }));
    expect(screen.queryByRole('heading', { name: 'Import complete' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('CSV or Excel file')).toHaveFocus();
  });

  it('a failed import keeps the preview and retries with the same key; a new preview gets a new key', async () => {
    let fail = true;
    const api = installFakeApi({
      [PREVIEW]: () => ({ status: 200, body: PREVIEW_BODY }),
      [IMPORT]: () =>
        fail ? { status: 503, body: { code: 'server.unavailable' } } : { status: 200, body: CREATED },
    });
    renderWithProviders(<InvoiceImportPage />);
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('CSV or Excel file'), csv());
    await user.click(await screen.findByRole('button', { name: 'Import 2 invoices' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The invoices were not imported. The service is unavailable right now. Please try again shortly.',
    );
    expect(previewTable().getByRole('row', { name: /IMP-3/ })).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Import 2 invoices' }));
    await screen.findByRole('heading', { name: 'Import complete' });
    const keys = () =>
      api.calls
        .filter((c) => c.path === '/api/limited/invoices/import')
        .map((c) => c.headers['Idempotency-Key']);
    expect(new Set(keys()).size).toBe(1);

    await user.click(screen.getByRole('button', { name: 'Import another file' }));
    await user.upload(screen.getByLabelText('CSV or Excel file'), csv('mars.csv'));
    await user.click(await screen.findByRole('button', { name: 'Import 2 invoices' }));
    await screen.findByRole('heading', { name: 'Import complete' });
    expect(keys()).toHaveLength(3);
    expect(new Set(keys()).size).toBe(2);
  });

  it('refuses a file it cannot import before sending it', async () => {
    const api = installFakeApi({});
    renderWithProviders(<InvoiceImportPage />);
    // The picker offers only .csv and .xlsx; a file dropped past that filter is still refused.
    const user = userEvent.setup({ applyAccept: false });
    const input = screen.getByLabelText('CSV or Excel file');
    expect(input).toHaveAttribute('accept', expect.stringContaining('.xlsx'));

    await user.upload(input, new File(['x'], 'gamla.xls'));
    expect(screen.getByRole('alert')).toHaveTextContent('Choose a CSV file (.csv) or an Excel file (.xlsx).');
    await user.upload(input, new File([], 'tom.csv'));
    expect(screen.getByRole('alert')).toHaveTextContent('The file is empty.');
    const huge = new File(['x'], 'stor.xlsx');
    Object.defineProperty(huge, 'size', { value: FILE_MAX_BYTES + 1 });
    await user.upload(input, huge);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The file is too large. The largest allowed size is 10 MB.',
    );
    expect(api.calls).toHaveLength(0);
  });

  it('shows "unable to upload file" with the reason when the server refuses the file', async () => {
    let answer = { status: 400, body: { code: 'import.unreadable' } };
    installFakeApi({ [PREVIEW]: () => answer });
    renderWithProviders(<InvoiceImportPage />);
    const user = userEvent.setup();
    const input = screen.getByLabelText('CSV or Excel file');
    await user.upload(input, new File(['PK'], 'fakturor.xlsx'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Unable to upload the file. The file could not be read. Use the template and save it as CSV or Excel.',
    );
    answer = { status: 500, body: { code: 'server.internal' } };
    await user.upload(input, csv());
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Unable to upload the file. Something went wrong. Please try again.',
      ),
    );
    expect(screen.queryByRole('heading', { name: /Check the invoices/ })).not.toBeInTheDocument();
  });

  it('lists the problems of the file as a whole and offers no import', async () => {
    installFakeApi({
      [PREVIEW]: () => ({
        status: 200,
        body: {
          invoices: [],
          fileIssues: [
            { line: 1, column: 'invoiceDate', code: 'import.missing_column' },
            { line: 5002, column: '', code: 'import.too_many_lines' },
          ],
          valid: 0,
          invalid: 0,
        },
      }),
    });
    renderWithProviders(<InvoiceImportPage />);
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('CSV or Excel file'), csv());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The file cannot be imported:');
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Line 1, Invoice date (invoiceDate): The column is missing from the file.',
      'Line 5002: The file has too many lines (at most 5,000).',
    ]);
    expect(screen.queryByRole('button', { name: /^Import \d/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Invoices in the file' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Choose another file' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByLabelText('CSV or Excel file')).toHaveFocus();
  });

  it('a file with only bad invoices says that nothing can be imported', async () => {
    installFakeApi({
      [PREVIEW]: () => ({
        status: 200,
        body: { ...PREVIEW_BODY, invoices: PREVIEW_BODY.invoices.slice(2), valid: 0, invalid: 1 },
      }),
    });
    renderWithProviders(<InvoiceImportPage />);
    await userEvent.setup().upload(screen.getByLabelText('CSV or Excel file'), csv());
    expect(
      await screen.findByText(
        'No invoice in the file can be imported. Correct the file and choose it again.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Import \d/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'To import, per currency' })).not.toBeInTheDocument();
  });
});
