import {
  ASSIGNED_SERVICES,
  type InvoiceDetail,
  invoiceDetailSchema,
  type Language,
  type Recipient,
  recipientSchema,
  SERVICE_TYPES,
} from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices, issuers } from '../src/db/schema';
import { type InvoiceIssuer, renderPaymentSlipPdf } from '../src/services/invoice-pdf';
import { toIssuer } from '../src/services/users';
import { overlappingTexts, pdfText, pdfTextItems } from './support/pdf-text';
import { VALID_INVOICE_BODY, VALID_RECIPIENT_BODY } from './support/route-samples';
import { bearer, createTestApp, type TestApp } from './support/test-app';

/** Where the rendered documents are written, to be looked at as pictures (scripts/pdf-to-png). */
const OUT = process.env.PDF_OUT_DIR;

describe('invoice documents: layout, payment slip, assignment clause (issue #11)', () => {
  let t: TestApp;
  let demo: string;

  /** Creates a recipient and an invoice through the API; answers what the renderer is given. */
  const created = async (
    invoiceBody: Record<string, unknown>,
    recipientBody: Record<string, unknown> = {},
    send = false,
  ): Promise<{ invoice: InvoiceDetail; recipient: Recipient; issuer: InvoiceIssuer }> => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/limited/recipients',
      headers: bearer(demo),
      payload: { ...VALID_RECIPIENT_BODY, ...recipientBody },
    });
    expect(r.statusCode, r.body).toBe(200);
    const recipient = recipientSchema.parse(r.json());
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/limited/invoices',
      headers: bearer(demo),
      payload: { ...VALID_INVOICE_BODY, ...invoiceBody, recipientID: recipient.recipientID },
    });
    expect(res.statusCode, res.body).toBe(200);
    let invoice = invoiceDetailSchema.parse(res.json());
    if (send) {
      // Sent, the invoice has its OCR reference (and the slip shows it).
      const sent = await t.app.inject({
        method: 'POST',
        url: '/api/limited/invoices/send',
        headers: bearer(demo),
        payload: { invoiceIDs: [invoice.invoiceID] },
      });
      expect(sent.json().results[0], sent.body).toMatchObject({ ok: true });
      const got = await t.app.inject({
        url: `/api/limited/invoices/${invoice.invoiceID}`,
        headers: bearer(demo),
      });
      invoice = invoiceDetailSchema.parse(got.json());
      expect(invoice.ocr).toMatch(/^[0-9]+$/);
    }
    const [row] = await t.db
      .select({ issuer: issuers })
      .from(invoices)
      .innerJoin(issuers, eq(issuers.id, invoices.issuerId))
      .where(eq(invoices.id, invoice.invoiceID));
    if (!row) throw new Error('no issuer');
    return {
      invoice,
      recipient,
      issuer: { ...toIssuer(row.issuer), collectionBankgiro: row.issuer.collectionBankgiro },
    };
  };

  beforeAll(async () => {
    t = await createTestApp();
    demo = await t.login('demo');
  });
  afterAll(() => t.close());

  it('draws the payment slip page: payee, payer, invoice, dates, amount, OCR and bankgiro', async () => {
    const { invoice, recipient, issuer } = await created(
      { invoiceNumber: 'SLIP-1', service: 'factoring', dueDate: '2026-12-30' },
      {},
      true,
    );
    const languages: [Language, string[]][] = [
      [
        'sv-SE',
        [
          'Inbetalning',
          'Betalningsmottagare',
          'Att betala',
          '2026-03-02',
          '2026-12-30',
          'Fordran är överlåten',
        ],
      ],
      [
        'en-US',
        [
          'Payment slip',
          'Payee',
          'Amount due',
          'Mar 2, 2026',
          'Dec 30, 2026',
          'This claim has been assigned',
        ],
      ],
      ['fi-FI', ['Maksutiedot', 'Saaja', 'Maksettava', '2.3.2026', '30.12.2026', 'Saatava on siirretty']],
    ];
    for (const [language, words] of languages) {
      const pdf = await renderPaymentSlipPdf(invoice, issuer, recipient, language);
      const { pages, text } = await pdfText(pdf);
      expect(pages).toBe(1);
      for (const word of words) expect(text, language).toContain(word);
      for (const value of [issuer.name, recipient.name, recipient.address, 'SLIP-1', invoice.ocr ?? 'no ocr'])
        expect(text, language).toContain(value);
      expect(text).toContain('505-0109');
      const { items } = await pdfTextItems(pdf);
      expect(overlappingTexts(items)).toEqual([]);
      if (OUT)
        await import('node:fs/promises').then((fs) => fs.writeFile(`${OUT}/slip-${language}.pdf`, pdf));
    }
    // 5 200,00 + 25 % and 123,45 + 12 %: 6 638,26 to pay.
    const { text } = await pdfText(await renderPaymentSlipPdf(invoice, issuer, recipient, 'sv-SE'));
    expect(text).toContain('6 638,26 kr');
  });

  it('has the assignment clause only where the service assigns the claim', async () => {
    expect([...ASSIGNED_SERVICES].sort()).toEqual([
      'factoring',
      'nonRecourceService',
      'nonRecourseFactoring',
    ]);
    for (const service of SERVICE_TYPES) {
      const { invoice, recipient, issuer } = await created({
        invoiceNumber: `CL-${service}`.slice(0, 30),
        service,
      });
      const { text } = await pdfText(await renderPaymentSlipPdf(invoice, issuer, recipient, 'en-US'));
      expect(text.includes('This claim has been assigned'), service).toBe(
        ASSIGNED_SERVICES.includes(service),
      );
    }
  });
});
