import type { InvoiceDetail, Issuer, Language, Recipient } from '@portal/contracts';
import { formatAmount, formatMoney } from '@portal/domain/money';
import { translate } from '@portal/i18n';
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';

/** Our collection bankgiro printed on every invoice we finance (a Bankgirot example number in the demo). */
export const PAYMENT_BANKGIRO = '5050-1055';

/** The issuer as its invoices show it: with the bankgiro its recipients pay to (docs/MONEY.md). */
export type InvoiceIssuer = Issuer & { collectionBankgiro?: string | null };

/** A bankgiro number as people write it: 123-4567 or 1234-5678; our demo number when the issuer has none. */
export function bankgiroText(digits: string | null | undefined): string {
  if (!digits || !/^[0-9]{7,8}$/.test(digits)) return PAYMENT_BANKGIRO;
  return `${digits.slice(0, -4)}-${digits.slice(-4)}`;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const INK = rgb(0.1, 0.12, 0.16);
const MUTED = rgb(0.38, 0.42, 0.48);
const RULE = rgb(0.8, 0.82, 0.86);

/** The standard PDF fonts encode WinAnsi only: anything else becomes a close ASCII stand-in or "?". */
export function winAnsi(text: string): string {
  return text
    .replace(/[\u2212\u2012\u2013\u2014]/g, '-')
    .replace(/[\u00a0\u202f\u2009]/g, ' ')
    .replace(/[^\u0020-\u007e\u00a0-\u00ff€–—‘’“”•…]/g, '?');
}

interface Doc {
  page: PDFPage;
  y: number;
  font: PDFFont;
  bold: PDFFont;
}

/** One invoice of a document and the recipient it is addressed to. */
export interface InvoiceToDraw {
  invoice: InvoiceDetail;
  recipient: Recipient;
}

/**
 * Renders our invoice PDF with a PDF library (no headless browser): issuer, recipient, rows, VAT per
 * rate, the ROT/RUT block, amount to pay, OCR reference, bankgiro and due date, in `language`.
 */
export function renderInvoicePdf(
  invoice: InvoiceDetail,
  issuer: InvoiceIssuer,
  recipient: Recipient,
  language: Language,
): Promise<Uint8Array> {
  return renderInvoicesPdf([{ invoice, recipient }], issuer, language);
}

/**
 * Renders several invoices of one issuer into one PDF, in the given order: each starts on a new page
 * and numbers its own pages ("page 1 of 2"), exactly as its own PDF would look. The fonts are embedded
 * once for the whole document. Dated by the latest invoice date, so the same invoices give the same
 * bytes. Throws on an empty list (the route never asks for one).
 */
export async function renderInvoicesPdf(
  items: readonly InvoiceToDraw[],
  issuer: InvoiceIssuer,
  language: Language,
): Promise<Uint8Array> {
  const [first] = items;
  if (!first) throw new Error('renderInvoicesPdf: no invoices');
  const t = (key: string, values: Record<string, string | number> = {}) =>
    winAnsi(translate(language, 'documents', `invoicePdf.${key}`, values));
  const pdf = await PDFDocument.create();
  pdf.setTitle(
    items.length === 1
      ? `${t('title')} ${first.invoice.invoiceNumber}`
      : t('titleMany', { count: items.length }),
  );
  pdf.setAuthor(winAnsi(issuer.name));
  const latest = items.reduce(
    (date, { invoice }) => (invoice.invoiceDate > date ? invoice.invoiceDate : date),
    first.invoice.invoiceDate,
  );
  pdf.setCreationDate(new Date(`${latest}T12:00:00Z`));
  pdf.setModificationDate(new Date(`${latest}T12:00:00Z`));
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  for (const item of items) drawInvoice(pdf, { font, bold }, item, issuer, language);
  return pdf.save();
}

/** Draws one invoice on new pages at the end of `pdf`. */
function drawInvoice(
  pdf: PDFDocument,
  { font, bold }: { font: PDFFont; bold: PDFFont },
  { invoice, recipient }: InvoiceToDraw,
  issuer: InvoiceIssuer,
  language: Language,
): void {
  const t = (key: string, values: Record<string, string | number> = {}) =>
    winAnsi(translate(language, 'documents', `invoicePdf.${key}`, values));
  const currency = invoice.currency === 'EUR' ? 'EUR' : 'SEK';
  const money = (minor: number) => winAnsi(formatMoney(minor, currency, language));
  const amount = (minor: number) => winAnsi(formatAmount(minor, language));
  const quantity = (milli: number) =>
    winAnsi(new Intl.NumberFormat(language, { maximumFractionDigits: 3 }).format(milli / 1000));
  const rate = (bp: number) => new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(bp / 100);

  const doc: Doc = { page: pdf.addPage(A4), y: A4[1] - MARGIN, font, bold };
  // This invoice's pages only: the footer numbers them apart from the other invoices of the document.
  const pages = [doc.page];

  const text = (value: string, x: number, y: number, size = 10, f = font, color = INK) =>
    doc.page.drawText(winAnsi(value), { x, y, size, font: f, color });
  const right = (value: string, xRight: number, y: number, size = 10, f = font) =>
    text(value, xRight - f.widthOfTextAtSize(winAnsi(value), size), y, size, f);
  const newPageIfNeeded = (needed: number) => {
    if (doc.y - needed > MARGIN + 40) return;
    doc.page = pdf.addPage(A4);
    pages.push(doc.page);
    doc.y = A4[1] - MARGIN;
  };

  // Header: issuer and the invoice's key facts.
  text(issuer.name, MARGIN, doc.y, 16, bold);
  right(t('title'), A4[0] - MARGIN, doc.y, 20, bold);
  doc.y -= 18;
  for (const line of [
    issuer.address.address1,
    `${issuer.address.zipcode} ${issuer.address.city}`,
    issuer.email,
    issuer.telephone,
  ]) {
    text(line, MARGIN, doc.y, 9, font, MUTED);
    doc.y -= 12;
  }
  let factsY = A4[1] - MARGIN - 30;
  const facts: [string, string][] = [
    [t('invoiceNumber'), invoice.invoiceNumber],
    [t('invoiceDate'), invoice.invoiceDate],
    [t('dueDate'), invoice.dueDate],
    ...(invoice.ocr ? ([[t('ocr'), invoice.ocr]] as [string, string][]) : []),
    ...(invoice.orderReference
      ? ([[t('orderReference'), invoice.orderReference]] as [string, string][])
      : []),
    ...(invoice.issuerContact ? ([[t('ourReference'), invoice.issuerContact]] as [string, string][]) : []),
    ...(invoice.recipientContact
      ? ([[t('yourReference'), invoice.recipientContact]] as [string, string][])
      : []),
  ];
  for (const [label, value] of facts) {
    text(label, 340, factsY, 9, font, MUTED);
    right(value, A4[0] - MARGIN, factsY, 10, bold);
    factsY -= 14;
  }

  // Recipient.
  doc.y = Math.min(doc.y, factsY) - 16;
  text(t('recipient'), MARGIN, doc.y, 9, font, MUTED);
  doc.y -= 14;
  const address = [
    recipient.name,
    recipient.address,
    recipient.address2,
    `${recipient.zipcode} ${recipient.city}`,
  ].filter((l) => l.trim().length > 0);
  for (const [i, line] of address.entries()) {
    text(line, MARGIN, doc.y, 11, i === 0 ? bold : font);
    doc.y -= 14;
  }
  doc.y -= 14;

  // Rows.
  const cols = {
    article: MARGIN,
    description: MARGIN + 60,
    quantity: 360,
    unit: 368,
    unitPrice: 460,
    vat: 495,
    amount: A4[0] - MARGIN,
  };
  const header = () => {
    text(t('columns.article'), cols.article, doc.y, 8, bold, MUTED);
    text(t('columns.description'), cols.description, doc.y, 8, bold, MUTED);
    right(t('columns.quantity'), cols.quantity, doc.y, 8, bold);
    text(t('columns.unit'), cols.unit, doc.y, 8, bold, MUTED);
    right(t('columns.unitPrice'), cols.unitPrice, doc.y, 8, bold);
    right(t('columns.vat'), cols.vat + 20, doc.y, 8, bold);
    right(t('columns.amount'), cols.amount, doc.y, 8, bold);
    doc.y -= 6;
    doc.page.drawLine({
      start: { x: MARGIN, y: doc.y },
      end: { x: A4[0] - MARGIN, y: doc.y },
      thickness: 0.6,
      color: RULE,
    });
    doc.y -= 14;
  };
  header();
  for (const row of invoice.rows) {
    newPageIfNeeded(30);
    if (doc.y > A4[1] - MARGIN - 5) header();
    text(row.articleNumber, cols.article, doc.y, 9);
    text(fit(row.name, font, 9, cols.quantity - cols.description - 40), cols.description, doc.y, 9);
    right(quantity(row.quantityMilli), cols.quantity, doc.y, 9);
    text(t(`units.${row.unit}`), cols.unit, doc.y, 9);
    right(amount(row.unitPriceMinor), cols.unitPrice, doc.y, 9);
    right(`${rate(row.vatBasisPoints)} %`, cols.vat + 20, doc.y, 9);
    right(amount(row.netMinor), cols.amount, doc.y, 9);
    doc.y -= 13;
    if (row.description) {
      text(
        fit(row.description, font, 8, cols.quantity - cols.description),
        cols.description,
        doc.y,
        8,
        font,
        MUTED,
      );
      doc.y -= 12;
    }
  }
  doc.page.drawLine({
    start: { x: MARGIN, y: doc.y + 4 },
    end: { x: A4[0] - MARGIN, y: doc.y + 4 },
    thickness: 0.6,
    color: RULE,
  });
  doc.y -= 14;

  // Totals: net, VAT per rate, total, ROT/RUT, to pay.
  newPageIfNeeded(120);
  const total = (label: string, value: string, strong = false) => {
    text(label, 330, doc.y, strong ? 11 : 10, strong ? bold : font);
    right(value, A4[0] - MARGIN, doc.y, strong ? 11 : 10, strong ? bold : font);
    doc.y -= strong ? 18 : 14;
  };
  total(t('net'), money(invoice.netMinor));
  for (const line of invoice.vat)
    total(t('vatAt', { rate: rate(line.vatBasisPoints) }), money(line.vatMinor));
  total(t('total'), money(invoice.grossMinor), true);
  if (invoice.deductionMinor !== 0)
    total(t(invoice.rotRut.type === 'rot' ? 'rotDeduction' : 'rutDeduction'), money(-invoice.deductionMinor));
  total(t('toPay'), money(invoice.toPayMinor), true);

  if (invoice.rotRut.type !== 'none') {
    doc.y -= 6;
    text(
      t('taxReductionNote', { personalNumber: invoice.rotRut.personalNumber }),
      MARGIN,
      doc.y,
      9,
      font,
      MUTED,
    );
    doc.y -= 12;
    if (invoice.rotRut.propertyDesignation) {
      text(t('property', { value: invoice.rotRut.propertyDesignation }), MARGIN, doc.y, 9, font, MUTED);
      doc.y -= 12;
    }
    if (invoice.rotRut.housingCoopNumber) {
      text(t('housingCoop', { value: invoice.rotRut.housingCoopNumber }), MARGIN, doc.y, 9, font, MUTED);
      doc.y -= 12;
    }
  }

  // Payment slip line: bankgiro, OCR, amount, due date.
  const last = doc.page;
  const slipY = MARGIN + 40;
  last.drawRectangle({
    x: MARGIN,
    y: slipY - 12,
    width: A4[0] - 2 * MARGIN,
    height: 44,
    borderColor: RULE,
    borderWidth: 0.8,
  });
  last.drawText(t('payTo'), { x: MARGIN + 10, y: slipY + 16, size: 8, font, color: MUTED });
  last.drawText(bankgiroText(issuer.collectionBankgiro), {
    x: MARGIN + 10,
    y: slipY,
    size: 12,
    font: bold,
    color: INK,
  });
  last.drawText(t('ocr'), { x: MARGIN + 140, y: slipY + 16, size: 8, font, color: MUTED });
  last.drawText(winAnsi(invoice.ocr ?? '-'), { x: MARGIN + 140, y: slipY, size: 12, font: bold, color: INK });
  last.drawText(t('dueDate'), { x: MARGIN + 290, y: slipY + 16, size: 8, font, color: MUTED });
  last.drawText(invoice.dueDate, { x: MARGIN + 290, y: slipY, size: 12, font: bold, color: INK });
  const toPay = money(invoice.toPayMinor);
  last.drawText(t('toPay'), {
    x: A4[0] - MARGIN - 10 - font.widthOfTextAtSize(t('toPay'), 8),
    y: slipY + 16,
    size: 8,
    font,
    color: MUTED,
  });
  last.drawText(toPay, {
    x: A4[0] - MARGIN - 10 - bold.widthOfTextAtSize(toPay, 12),
    y: slipY,
    size: 12,
    font: bold,
    color: INK,
  });
  last.drawText(t('assignment', { bankgiro: bankgiroText(issuer.collectionBankgiro) }), {
    x: MARGIN,
    y: slipY - 26,
    size: 7,
    font,
    color: MUTED,
  });

  // Footer on every page: issuer identity and page numbers.
  pages.forEach((page, i) => {
    const footer = [
      issuer.name,
      t('orgNumber', { value: issuer.organizationNo }),
      t('vatNumber', { value: issuer.vat }),
    ].join('  ·  ');
    page.drawText(winAnsi(footer), { x: MARGIN, y: 24, size: 7, font, color: MUTED });
    const label = t('page', { page: i + 1, pages: pages.length });
    page.drawText(label, {
      x: A4[0] - MARGIN - font.widthOfTextAtSize(label, 7),
      y: 24,
      size: 7,
      font,
      color: MUTED,
    });
  });
}

/** Cuts a text to fit a width, with an ellipsis. */
function fit(value: string, font: PDFFont, size: number, width: number): string {
  let s = winAnsi(value);
  if (font.widthOfTextAtSize(s, size) <= width) return s;
  while (s.length > 1 && font.widthOfTextAtSize(`${s}…`, size) > width) s = s.slice(0, -1);
  return `${s}…`;
}
