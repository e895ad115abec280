import {
  ASSIGNED_SERVICES,
  INVOICE_LIMITS,
  type InvoiceDetail,
  invoiceDetailSchema,
  type Language,
  MAX_INVOICE_TOTAL_MINOR,
  MAX_QUANTITY_MILLI,
  MAX_UNIT_PRICE_MINOR,
  type Recipient,
  recipientSchema,
  SERVICE_TYPES,
} from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { overlappingTexts, type PlacedText, pdfText, pdfTextItems } from '../../../test/support/pdf-text';
import { VALID_INVOICE_BODY, VALID_RECIPIENT_BODY } from '../../../test/support/route-samples';
import { bearer } from '../../../test/support/test-app';
import { useLogins, useTestApp } from '../../../test/support/use-test-app';
import { invoices, issuers } from '../../db/schema';
import { type InvoiceIssuer, renderInvoicePdf, renderPaymentSlipPdf } from '../../services/invoice-pdf';
import { TAX_RATES, toIssuer } from '../../services/users';

/** A text of exactly `length` characters: words of varying length, and one word longer than any column. */
function longText(seed: string, length: number): string {
  const words = [
    'Mycket',
    'långt',
    'ord',
    'Betongarbete',
    'och',
    'WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW',
    'i',
  ];
  let out = seed;
  for (let i = 0; out.length < length; i++) out += ` ${words[i % words.length]}`;
  return out.slice(0, length).trimEnd().padEnd(length, 'x');
}

/** Where the rendered documents are written, to be looked at as pictures (scripts/pdf-to-png). */
const OUT = process.env.PDF_OUT_DIR;

describe('invoice documents: layout, payment slip, assignment clause (issue #11)', () => {
  const t = useTestApp();
  const user = useLogins(t, { demo: 'demo' });

  /** Creates a recipient and an invoice through the API; answers what the renderer is given. */
  const created = async (
    invoiceBody: Record<string, unknown>,
    recipientBody: Record<string, unknown> = {},
    send = false,
  ): Promise<{ invoice: InvoiceDetail; recipient: Recipient; issuer: InvoiceIssuer }> => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/limited/recipients',
      headers: bearer(user.demo),
      payload: { ...VALID_RECIPIENT_BODY, ...recipientBody },
    });
    expect(r.statusCode, r.body).toBe(200);
    const recipient = recipientSchema.parse(r.json());
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/limited/invoices',
      headers: bearer(user.demo),
      payload: { ...VALID_INVOICE_BODY, ...invoiceBody, recipientID: recipient.recipientID },
    });
    expect(res.statusCode, res.body).toBe(200);
    let invoice = invoiceDetailSchema.parse(res.json());
    if (send) {
      // Sent, the invoice has its OCR reference (and the slip shows it).
      const sent = await t.app.inject({
        method: 'POST',
        url: '/api/limited/invoices/send',
        headers: bearer(user.demo),
        payload: { invoiceIDs: [invoice.invoiceID] },
      });
      expect(sent.json().results[0], sent.body).toMatchObject({ ok: true });
      const got = await t.app.inject({
        url: `/api/limited/invoices/${invoice.invoiceID}`,
        headers: bearer(user.demo),
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

  /**
   * The widest content the bounds allow: unit prices at ±MAX_UNIT_PRICE_MINOR, row nets at ±the
   * invoice maximum, the largest quantity with three decimals, every Swedish VAT rate, names and
   * article numbers at their length limits, 200- and 300-character descriptions (one with its own line
   * breaks), 60 rows, references at their limits and the total near the maximum; ROT with property and
   * housing cooperative.
   */
  const extremeRows = () => {
    const rates = TAX_RATES.SE.map((r) => r.rateBasisPoints);
    const rows: Record<string, unknown>[] = [
      // Net +100 000 000,00 and -100 000 000,00: the widest amounts a row may have.
      { quantityMilli: 10_000, unitPriceMinor: MAX_UNIT_PRICE_MINOR, vatBasisPoints: 0 },
      { quantityMilli: 10_000, unitPriceMinor: -MAX_UNIT_PRICE_MINOR, vatBasisPoints: 0 },
      // The widest quantity: 999 999,999 (a thousandth below the maximum) at one öre.
      { quantityMilli: MAX_QUANTITY_MILLI - 1, unitPriceMinor: 1, vatBasisPoints: 2500 },
    ];
    // Seven rows of 10 000 000,00 + 25 %: a total of 87 500 000,00 and more, near the maximum.
    for (let i = 0; i < 7; i++)
      rows.push({ quantityMilli: 1000, unitPriceMinor: MAX_UNIT_PRICE_MINOR, vatBasisPoints: 2500 });
    for (let i = rows.length; i < 60; i++)
      rows.push({
        quantityMilli: 1000 + i * 1111,
        unitPriceMinor: 123_456 + i,
        vatBasisPoints: rates[i % rates.length],
      });
    return rows.map((row, i) => ({
      articleNumber:
        i % 3 === 0
          ? `ART-${'W'.repeat(INVOICE_LIMITS.articleNumber - 6)}${String(i).padStart(2, '0')}`.slice(0, 25)
          : `A${i}`,
      name: i % 2 === 0 ? longText(`Rad ${i + 1}`, INVOICE_LIMITS.rowName) : `Rad ${i + 1} kort`,
      description:
        i % 4 === 0
          ? longText(`Beskrivning ${i + 1}`, 200)
          : i === 5
            ? `Rad ${i + 1} rad ett\nrad två\n\nrad fyra ${longText('och', 260)}`.slice(
                0,
                INVOICE_LIMITS.rowDescription,
              )
            : '',
      unit: ['st', 'h', 'km', 'pack', 'utl'][i % 5],
      rotRut: i >= 10 && i % 5 === 1,
      ...row,
    }));
  };
  const extremeInvoice = (invoiceNumber: string, extra: Record<string, unknown> = {}) => ({
    invoiceNumber,
    service: 'factoring',
    dueDate: '2026-12-30',
    orderReference: longText('Order', INVOICE_LIMITS.orderReference),
    issuerContact: longText('Anna', INVOICE_LIMITS.contact),
    recipientContact: longText('Bertil', INVOICE_LIMITS.contact),
    rows: extremeRows(),
    rotRut: {
      type: 'rot',
      personalNumber: '19811218-9876',
      propertyDesignation: longText('Stockholm Bryggaren', 100),
      housingCoopNumber: '556036-0793',
    },
    ...extra,
  });

  /** The description column's items of one page in drawing order: those at the heading's x. */
  const columnOf = (items: PlacedText[], page: number, heading: PlacedText) =>
    items.filter((i) => i.page === page && Math.abs(i.x - heading.x) < 0.01 && i.y < heading.y);

  // English with RUT, Swedish and Finnish with ROT.
  const LABELS: Record<
    Language,
    {
      description: string;
      amount: string;
      page: RegExp;
      net: string;
      total: string;
      deduction: [string, string];
    }
  > = {
    'sv-SE': {
      description: 'Benämning',
      amount: 'Belopp',
      page: /^Sida (\d+) av (\d+)$/,
      net: '100 000 000,00',
      total: 'Att betala',
      deduction: ['rot', 'Avgår ROT-avdrag'],
    },
    'en-US': {
      description: 'Description',
      amount: 'Amount',
      page: /^Page (\d+) of (\d+)$/,
      net: '100,000,000.00',
      total: 'Amount due',
      deduction: ['rut', 'Less RUT deduction'],
    },
    'fi-FI': {
      description: 'Nimike',
      amount: 'Summa',
      page: /^Sivu (\d+)\/(\d+)$/,
      net: '100 000 000,00',
      total: 'Maksettava',
      deduction: ['rot', 'Vähennetään ROT-vähennys'],
    },
  };

  for (const language of ['sv-SE', 'en-US', 'fi-FI'] as const) {
    it(`lays out extreme content with no overlap, every row, pages x of y and the heading on each page (${language})`, async () => {
      const labels = LABELS[language];
      const body = extremeInvoice(`${'9'.repeat(INVOICE_LIMITS.invoiceNumber - 3)}-${language.slice(0, 2)}`);
      body.rotRut.type = labels.deduction[0];
      const { invoice, recipient, issuer } = await created(
        body,
        { name: longText('Kund', 45), documentLanguage: language },
        true,
      );
      expect(invoice.grossMinor).toBeGreaterThan(MAX_INVOICE_TOTAL_MINOR * 0.85);
      expect(invoice.rows).toHaveLength(60);
      expect(new Set(invoice.rows.map((r) => r.vatBasisPoints))).toEqual(
        new Set(TAX_RATES.SE.map((r) => r.rateBasisPoints)),
      );
      expect(recipient.documentLanguage).toBe(language);
      const pdf = await renderInvoicePdf(invoice, issuer, recipient);
      if (OUT)
        await import('node:fs/promises').then((fs) => fs.writeFile(`${OUT}/extreme-${language}.pdf`, pdf));
      const { pages, items } = await pdfTextItems(pdf);
      expect(invoice.deductionMinor).toBeGreaterThan(0);
      expect(items.filter((i) => i.str === labels.deduction[1])).toHaveLength(1);
      // The property is ROT's particular: on the ROT invoices, not on the RUT one.
      const property = {
        'sv-SE': 'Fastighetsbeteckning',
        'en-US': 'Property designation',
        'fi-FI': 'Kiinteistötunnus',
      }[language];
      expect(items.some((i) => i.str.startsWith(property))).toBe(labels.deduction[0] === 'rot');
      expect(pages).toBeGreaterThanOrEqual(4);

      // No two texts overlap anywhere, and nothing is cut with an ellipsis.
      expect(overlappingTexts(items).map(([a, b]) => `${a.page}: "${a.str}" / "${b.str}"`)).toEqual([]);
      expect(items.filter((i) => i.str.includes('…'))).toEqual([]);
      // Within the margins (pdf.js measures the standard fonts with its own metrics: up to 2 pt apart).
      for (const item of items) {
        expect(item.x, item.str).toBeGreaterThanOrEqual(48);
        expect(item.x + item.width, item.str).toBeLessThanOrEqual(595.28 - 48);
      }

      // "Page x of y" once on every page, numbered in order.
      const numbers = items.filter((i) => labels.page.test(i.str));
      expect(numbers.map((i) => [i.page, i.str.match(labels.page)?.slice(1).map(Number)])).toEqual(
        Array.from({ length: pages }, (_, i) => [i + 1, [i + 1, pages]]),
      );

      // Each row's name and description, whole and in order, in the description column; its amount on
      // the line of its name. The heading is repeated on every page that has rows.
      const headings = items.filter((i) => i.str === labels.description);
      const rowPages = [...new Set(headings.map((h) => h.page))];
      expect(rowPages).toEqual(Array.from({ length: rowPages.length }, (_, i) => i + 1));
      expect(rowPages.length).toBeGreaterThanOrEqual(3);
      const column = rowPages.flatMap((p) => {
        const heading = headings.find((h) => h.page === p) as PlacedText;
        expect(
          items.some((i) => i.page === p && i.str === labels.amount && Math.abs(i.y - heading.y) < 0.01),
        ).toBe(true);
        return columnOf(items, p, heading);
      });
      const squeeze = (s: string) => s.replace(/\s+/g, '');
      let at = 0;
      for (const row of invoice.rows) {
        const first = column[at] as PlacedText;
        let seen = '';
        const want = squeeze(row.name + row.description);
        while (seen.length < want.length && at < column.length)
          seen += squeeze((column[at++] as PlacedText).str);
        expect(seen).toBe(want);
        const sameLine = items.filter((i) => i.page === first.page && Math.abs(i.y - first.y) < 0.01);
        const article = items.filter((i) => i.page === first.page && i.x < first.x && i.y <= first.y + 0.01);
        expect(sameLine.length, row.name).toBeGreaterThanOrEqual(6);
        if (row.articleNumber) expect(article.length).toBeGreaterThan(0);
      }
      // The widest amounts are there whole, each once as a positive and a negative row.
      expect(items.filter((i) => i.str === labels.net)).toHaveLength(1);
      expect(items.filter((i) => i.str === `-${labels.net}`)).toHaveLength(1);
      // The totals come after the last row, on its page or a later one, and the slip after them.
      const toPay = items.filter((i) => i.str === labels.total);
      const lastRow = column[column.length - 1] as PlacedText;
      for (const item of toPay)
        expect(item.page > lastRow.page || (item.page === lastRow.page && item.y < lastRow.y)).toBe(true);
      expect(at).toBe(column.length);
    });
  }

  it('fits a usual invoice on one page with its slip, in each language, with no overlap', async () => {
    for (const language of ['sv-SE', 'en-US', 'fi-FI'] as const) {
      const { invoice, recipient, issuer } = await created(
        {
          invoiceNumber: `VANLIG-${language}`,
          orderReference: 'PO-2231',
          issuerContact: 'Anna Andersson',
          recipientContact: 'Bertil Berg',
          rows: [
            ...VALID_INVOICE_BODY.rows,
            {
              articleNumber: 'T-100',
              name: 'Resa',
              description: 'Stockholm–Uppsala t/r',
              quantityMilli: 140_000,
              unit: 'km',
              unitPriceMinor: 2_500,
              vatBasisPoints: 600,
            },
          ],
        },
        { name: `Kund ${language} AB`, documentLanguage: language },
        true,
      );
      const pdf = await renderInvoicePdf(invoice, issuer, recipient);
      if (OUT)
        await import('node:fs/promises').then((fs) => fs.writeFile(`${OUT}/usual-${language}.pdf`, pdf));
      const { pages, items } = await pdfTextItems(pdf);
      expect(pages, language).toBe(1);
      expect(overlappingTexts(items)).toEqual([]);
    }
  });
});
