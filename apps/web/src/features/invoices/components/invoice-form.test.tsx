import { computeInvoiceTotals } from '@portal/domain/invoice-totals';
import { formatMoney } from '@portal/domain/money';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import InvoiceRegisterRoute from '../../../app/routes/invoice-register';
import { dateField, dateValue } from '../../../test/date-field';
import { type FakeHandler, installFakeApi, makeSelf } from '../../../test/fake-api';
import { invoiceDetail } from '../../../test/invoice-detail';
import { pickRecipient, renderFormAt } from '../../../test/invoice-forms';

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
  documentLanguage: 'sv-SE',
  updated: '2026-03-01T10:00:00.000Z',
};

function renderRegister(handlers: Record<string, FakeHandler> = {}) {
  const api = installFakeApi({
    'GET /api/self': () => ({
      status: 200,
      body: makeSelf({
        abilities: ['limited_register_invoice', 'limited_invoices'],
        taxRates: [{ rateBasisPoints: 2500 }, { rateBasisPoints: 1200 }, { rateBasisPoints: 600 }],
        currencies: ['SEK', 'EUR'],
      }),
    }),
    'GET /api/limited/invoices/next-number': () => ({ status: 200, body: { invoiceNumber: '5001' } }),
    'GET /api/limited/recipients': () => ({
      status: 200,
      body: { items: [RECIPIENT], total: 1, page: 1, pageSize: 8 },
    }),
    'GET /api/limited/articles': () => ({ status: 200, body: { items: [], total: 0, page: 1, pageSize: 8 } }),
    ...handlers,
  });
  renderFormAt('/invoice/register', <InvoiceRegisterRoute />);
  return api;
}

async function fillRow(
  user: ReturnType<typeof userEvent.setup>,
  row: number,
  name: string,
  quantity: string,
  price: string,
  vat: string,
) {
  await user.type(screen.getByLabelText(`Item, row ${row}`), name);
  await user.type(screen.getByLabelText(`Quantity, row ${row}`), quantity);
  await user.type(screen.getByLabelText(`Unit price, row ${row}`), price);
  await user.selectOptions(screen.getByLabelText(`VAT rate, row ${row}`), vat);
}

const INVOICE = invoiceDetail({ recipientID: RECIPIENT.recipientID });
// Typing a whole invoice takes a while in jsdom, more so while the other suites run in parallel.
describe('the invoice form (/invoice/register)', { timeout: 20_000 }, () => {
  it('shows live totals equal to computeInvoiceTotals for the typed rows', async () => {
    renderRegister();
    const user = userEvent.setup();
    await screen.findByLabelText('Item, row 1');
    await fillRow(user, 1, 'Arbetstimme', '8', '650', '25%');
    await user.click(screen.getByRole('button', { name: 'Add row' }));
    await fillRow(user, 2, 'Material', '1.5', '123.45', '12%');

    const expected = computeInvoiceTotals([
      { quantity: 8000, unitPriceMinor: 65_000, vatBasisPoints: 2500 },
      { quantity: 1500, unitPriceMinor: 12_345, vatBasisPoints: 1200 },
    ]);
    expect(screen.getByTestId('invoice-to-pay').textContent?.replace(/\s/g, ' ')).toBe(
      formatMoney(expected.toPayMinor, 'SEK', 'en-US').replace(/\s/g, ' '),
    );
    expect(screen.getByText('VAT 12%').nextSibling?.textContent?.replace(/\s/g, ' ')).toBe(
      formatMoney(expected.vatByRate[1]?.vatMinor ?? 0, 'SEK', 'en-US').replace(/\s/g, ' '),
    );
    expect(screen.getByText('VAT 25%').nextSibling?.textContent?.replace(/\s/g, ' ')).toBe('SEK 1,300.00');
  });

  it('refuses to register without a recipient and keeps what was typed', async () => {
    const api = renderRegister();
    const user = userEvent.setup();
    await screen.findByLabelText('Item, row 1');
    await fillRow(user, 1, 'Arbetstimme', '2', '100', '25%');
    await user.click(screen.getByRole('button', { name: 'Register invoice' }));
    expect(await screen.findByText('Select a recipient.')).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
    expect(screen.getByLabelText('Item, row 1')).toHaveValue('Arbetstimme');
  });

  it('shows a duplicate number on the number field with the existing invoice, then registers once with one key', async () => {
    let attempts = 0;
    const api = renderRegister({
      'POST /api/limited/invoices': (request) => {
        attempts += 1;
        const body = request.body as { invoiceNumber: string };
        if (body.invoiceNumber === '5001') {
          return {
            status: 409,
            body: {
              code: 'invoices.duplicate_number',
              issues: [{ path: 'invoiceNumber', code: 'invoices.duplicate_number' }],
              details: {
                grossMinor: 663_826,
                currency: 'SEK',
                recipientName: 'Bygg AB',
                invoiceDate: '2026-03-02',
              },
            },
          };
        }
        return { status: 200, body: { ...INVOICE, invoiceNumber: body.invoiceNumber } };
      },
    });
    const user = userEvent.setup();
    const number = await screen.findByLabelText(/Invoice number/);
    await waitFor(() => expect(number).toHaveValue('5001'));
    await pickRecipient(user, 'Kund AB');
    await fillRow(user, 1, 'Arbetstimme', '8', '650', '25%');
    await user.click(screen.getByRole('button', { name: 'Register invoice' }));

    const message = /already used by an invoice of SEK\s6,638\.26 to Bygg AB dated Mar 2, 2026/;
    await waitFor(() => expect(number).toHaveAccessibleDescription(message));
    expect(number).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Item, row 1')).toHaveValue('Arbetstimme');
    expect(screen.getByLabelText('Unit price, row 1')).toHaveValue('650');

    await user.clear(number);
    await user.type(number, '5002');
    await user.click(screen.getByRole('button', { name: 'Register invoice' }));
    expect(await screen.findByText(/At \/invoices\/7e0c1f5a/)).toHaveTextContent('"notice":"registered"');
    expect(attempts).toBe(2);
    const posts = api.calls.filter((c) => c.method === 'POST');
    const keys = posts.map((c) => c.headers['Idempotency-Key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(posts[1]?.body).toMatchObject({
      recipientID: RECIPIENT.recipientID,
      invoiceNumber: '5002',
      rows: [{ name: 'Arbetstimme', quantityMilli: 8000, unitPriceMinor: 65_000, vatBasisPoints: 2500 }],
    });
  });

  it('takes the RUT deduction off labour rows, by the same function the server uses', async () => {
    const api = renderRegister({
      'POST /api/limited/invoices': () => ({ status: 200, body: INVOICE }),
    });
    const user = userEvent.setup();
    await screen.findByLabelText('Item, row 1');
    await pickRecipient(user, 'Kund AB');
    await fillRow(user, 1, 'Städning', '4', '450', '25%');
    await user.click(screen.getByRole('radio', { name: 'RUT deduction' }));
    await user.click(screen.getByRole('button', { name: 'Register invoice' }));
    expect(
      await screen.findByText('Mark at least one row as labour for the ROT/RUT deduction.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText(/personal identity number/)).toHaveAccessibleDescription(
      /This field is required/,
    );

    await user.click(screen.getByRole('checkbox', { name: 'Labour for ROT/RUT, row 1' }));
    await user.type(screen.getByLabelText(/personal identity number/), '19811218-9876');
    const dueDate = dateValue(dateField(/Due date/));
    const expected = computeInvoiceTotals(
      [{ quantity: 4000, unitPriceMinor: 45_000, vatBasisPoints: 2500, kind: 'labour' }],
      { type: 'rut', paymentDate: dueDate },
    );
    expect(screen.getByText(/^RUT deduction \(/).nextSibling?.textContent?.replace(/\s/g, ' ')).toBe(
      formatMoney(-expected.taxReductionMinor, 'SEK', 'en-US').replace(/\s/g, ' '),
    );
    expect(screen.getByTestId('invoice-to-pay').textContent?.replace(/\s/g, ' ')).toBe(
      formatMoney(expected.toPayMinor, 'SEK', 'en-US').replace(/\s/g, ' '),
    );
    await user.click(screen.getByRole('button', { name: 'Register invoice' }));
    await screen.findByText(/At \/invoices\//);
    expect(api.calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      rows: [{ rotRut: true }],
      rotRut: { type: 'rut', personalNumber: '19811218-9876' },
    });
  });

  it("shows the server's field issues on the fields", async () => {
    renderRegister({
      'POST /api/limited/invoices': () => ({
        status: 400,
        body: {
          code: 'invoices.invalid_vat_rate',
          issues: [{ path: 'rows.0.vatBasisPoints', code: 'invoices.invalid_vat_rate' }],
        },
      }),
    });
    const user = userEvent.setup();
    await screen.findByLabelText('Item, row 1');
    await pickRecipient(user, 'Kund AB');
    await fillRow(user, 1, 'Arbetstimme', '1', '100', '6%');
    await user.click(screen.getByRole('button', { name: 'Register invoice' }));
    await waitFor(() =>
      expect(screen.getByLabelText('VAT rate, row 1')).toHaveAccessibleDescription(
        'That VAT rate does not apply to your company.',
      ),
    );
  });
});
