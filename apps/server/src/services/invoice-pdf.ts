import {
  ASSIGNED_SERVICES,
  type InvoiceDetail,
  type Issuer,
  type Language,
  type Recipient,
} from '@portal/contracts';
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
  for (const line of issuerContactLines(issuer)) {
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

  // Payment slip at the foot of the last page, below the totals (a page of its own when they leave no room).
  const fonts = { font, bold };
  const slip = slipContent(invoice, issuer, recipient);
  const slipHeight = drawPaymentSlip(null, fonts, language, slip, 0);
  if (doc.y - 16 < MARGIN + slipHeight) {
    doc.page = pdf.addPage(A4);
    pages.push(doc.page);
  }
  drawPaymentSlip(doc.page, fonts, language, slip, MARGIN + slipHeight);

  // Footer on every page: issuer identity and page numbers.
  pages.forEach((page, i) => {
    drawIssuerFooter(page, font, issuer, language);
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

/** What the payment slip shows: who is paid, who pays, for which invoice, how much, where and by when. */
interface SlipContent {
  issuerName: string;
  bankgiro: string;
  payer: string[];
  invoiceNumber: string;
  invoiceDate: string;
  dueDate: string;
  ocr: string | null;
  toPayMinor: number;
  currency: 'SEK' | 'EUR';
  assigned: boolean;
}

function slipContent(invoice: InvoiceDetail, issuer: InvoiceIssuer, recipient: Recipient): SlipContent {
  return {
    issuerName: issuer.name,
    bankgiro: bankgiroText(issuer.collectionBankgiro),
    payer: [
      recipient.name,
      recipient.address,
      recipient.address2,
      `${recipient.zipcode} ${recipient.city}`,
    ].filter((line) => line.trim().length > 0),
    invoiceNumber: invoice.invoiceNumber,
    invoiceDate: invoice.invoiceDate,
    dueDate: invoice.dueDate,
    ocr: invoice.ocr,
    toPayMinor: invoice.toPayMinor,
    currency: invoice.currency === 'EUR' ? 'EUR' : 'SEK',
    assigned: ASSIGNED_SERVICES.includes(invoice.service),
  };
}

/**
 * Draws the payment slip (the one drawing of it: the foot of our invoice and the page added to a
 * customer's own uploaded PDF) with its top edge at `top`, and answers its height. With no page it
 * only measures. Every text wraps within its column, so no value runs into another at any length.
 */
function drawPaymentSlip(
  page: PDFPage | null,
  { font, bold }: { font: PDFFont; bold: PDFFont },
  language: Language,
  slip: SlipContent,
  top: number,
): number {
  const t = (key: string, values: Record<string, string | number> = {}) =>
    winAnsi(translate(language, 'documents', `invoicePdf.${key}`, values));
  const put = (value: string, x: number, y: number, size: number, f: PDFFont, color = INK): void => {
    page?.drawText(winAnsi(value), { x, y, size, font: f, color });
  };
  const left = MARGIN;
  const width = A4[0] - 2 * MARGIN;
  let y = top;
  page?.drawLine({
    start: { x: left, y },
    end: { x: left + width, y },
    thickness: 0.6,
    color: RULE,
    dashArray: [4, 3],
  });
  y -= 20;
  put(t('slip.title'), left, y, 11, bold);
  y -= 18;

  // Payee and payer side by side.
  const half = width / 2;
  const columnWidth = half - 12;
  put(t('slip.payee'), left, y, 8, font, MUTED);
  put(t('slip.payer'), left + half, y, 8, font, MUTED);
  y -= 13;
  const payee = wrap(slip.issuerName, bold, 10, columnWidth).map((line) => ({ line, f: bold }));
  const payer = slip.payer.flatMap((value, i) =>
    wrap(value, i === 0 ? bold : font, 10, columnWidth).map((line) => ({ line, f: i === 0 ? bold : font })),
  );
  for (const [i, { line, f }] of payee.entries()) put(line, left, y - i * 12, 10, f);
  for (const [i, { line, f }] of payer.entries()) put(line, left + half, y - i * 12, 10, f);
  y -= Math.max(payee.length, payer.length) * 12 + 6;

  // The invoice it pays: number and dates in three columns.
  const third = width / 3;
  const facts: [string, string][] = [
    [t('invoiceNumber'), slip.invoiceNumber],
    [t('invoiceDate'), formatDocumentDate(slip.invoiceDate, language)],
    [t('dueDate'), formatDocumentDate(slip.dueDate, language)],
  ];
  let factLines = 1;
  facts.forEach(([label, value], i) => {
    put(label, left + i * third, y, 8, font, MUTED);
    const lines = wrap(value, bold, 10, third - 12);
    for (const [j, line] of lines.entries()) put(line, left + i * third, y - 13 - j * 12, 10, bold);
    factLines = Math.max(factLines, lines.length);
  });
  y -= 13 + factLines * 12 + 8;

  // The box a payer copies from: bankgiro, OCR reference and amount.
  const boxHeight = 40;
  page?.drawRectangle({
    x: left,
    y: y - boxHeight,
    width,
    height: boxHeight,
    borderColor: RULE,
    borderWidth: 0.8,
  });
  const bankgiroWidth = Math.max(
    font.widthOfTextAtSize(t('payTo'), 8),
    bold.widthOfTextAtSize(winAnsi(slip.bankgiro), 12),
  );
  const ocrX = left + 10 + bankgiroWidth + 24;
  put(t('payTo'), left + 10, y - 14, 8, font, MUTED);
  put(slip.bankgiro, left + 10, y - 30, 12, bold);
  put(t('ocr'), ocrX, y - 14, 8, font, MUTED);
  put(slip.ocr ?? '-', ocrX, y - 30, 12, bold);
  const toPay = winAnsi(formatMoney(slip.toPayMinor, slip.currency, language));
  const toPayLabel = t('toPay');
  put(toPayLabel, left + width - 10 - font.widthOfTextAtSize(toPayLabel, 8), y - 14, 8, font, MUTED);
  put(toPay, left + width - 10 - bold.widthOfTextAtSize(toPay, 12), y - 30, 12, bold);
  y -= boxHeight;

  // The assignment clause, only where the service assigns the claim to us.
  if (slip.assigned) {
    y -= 4;
    for (const line of wrap(t('assignment', { bankgiro: slip.bankgiro }), font, 8, width)) {
      y -= 10;
      put(line, left, y, 8, font, MUTED);
    }
  }
  return top - y + 4;
}

/**
 * A one-page A4 payment slip to append after a customer's own uploaded invoice PDF (issue #11): the
 * issuer's name and contact at the top, and the same slip as at the foot of our own invoice, in
 * `language` (the recipient's document language).
 */
export async function renderPaymentSlipPdf(
  invoice: InvoiceDetail,
  issuer: InvoiceIssuer,
  recipient: Recipient,
  language: Language,
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const t = (key: string, values: Record<string, string | number> = {}) =>
    winAnsi(translate(language, 'documents', `invoicePdf.${key}`, values));
  pdf.setTitle(`${t('slip.title')} ${winAnsi(invoice.invoiceNumber)}`);
  pdf.setAuthor(winAnsi(issuer.name));
  pdf.setCreationDate(new Date(`${invoice.invoiceDate}T12:00:00Z`));
  pdf.setModificationDate(new Date(`${invoice.invoiceDate}T12:00:00Z`));
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage(A4);
  let y = A4[1] - MARGIN;
  const issuerLines = wrap(issuer.name, bold, 16, A4[0] - 2 * MARGIN);
  for (const line of issuerLines) {
    page.drawText(line, { x: MARGIN, y, size: 16, font: bold, color: INK });
    y -= 18;
  }
  for (const line of issuerContactLines(issuer)) {
    page.drawText(winAnsi(line), { x: MARGIN, y, size: 9, font, color: MUTED });
    y -= 12;
  }
  const slip = slipContent(invoice, issuer, recipient);
  const height = drawPaymentSlip(null, { font, bold }, language, slip, 0);
  drawPaymentSlip(page, { font, bold }, language, slip, Math.min(y - 24, MARGIN + height));
  drawIssuerFooter(page, font, issuer, language);
  return pdf.save();
}

/** The issuer's address and contact lines under its name. */
function issuerContactLines(issuer: InvoiceIssuer): string[] {
  return [
    issuer.address.address1,
    `${issuer.address.zipcode} ${issuer.address.city}`,
    issuer.email,
    issuer.telephone,
  ].filter((line) => line.trim().length > 0);
}

/** The issuer's name, organisation number and VAT number at the foot of a page. */
function drawIssuerFooter(page: PDFPage, font: PDFFont, issuer: InvoiceIssuer, language: Language): void {
  const t = (key: string, values: Record<string, string | number> = {}) =>
    winAnsi(translate(language, 'documents', `invoicePdf.${key}`, values));
  const footer = [
    issuer.name,
    t('orgNumber', { value: issuer.organizationNo }),
    t('vatNumber', { value: issuer.vat }),
  ].join('  ·  ');
  page.drawText(winAnsi(footer), { x: MARGIN, y: 24, size: 7, font, color: MUTED });
}

/**
 * A date (YYYY-MM-DD) as the document's language writes it: Swedish invoices write the ISO date
 * (2026-03-02, as Skatteverket's forms do), Finnish the day first with points (2.3.2026), English the
 * month by name (Mar 2, 2026), which no reader on either side of the Atlantic can take for another day.
 */
export function formatDocumentDate(iso: string, language: Language): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return iso;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  if (language === 'sv-SE') return iso;
  const options: Intl.DateTimeFormatOptions =
    language === 'fi-FI'
      ? { year: 'numeric', month: 'numeric', day: 'numeric', timeZone: 'UTC' }
      : { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' };
  return winAnsi(new Intl.DateTimeFormat(language, options).format(date));
}

/**
 * Splits a text into lines no wider than `width`: at spaces, at its own line breaks, and inside a word
 * only when the word alone is wider than the line. Never cuts anything off.
 */
export function wrap(value: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  const fits = (s: string) => font.widthOfTextAtSize(s, size) <= width;
  for (const paragraph of value.split(/\r?\n/)) {
    let line = '';
    for (const part of winAnsi(paragraph).split(' ')) {
      if (part === '') continue;
      const candidate = line ? `${line} ${part}` : part;
      if (fits(candidate)) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      let word = part;
      while (!fits(word)) {
        let n = word.length - 1;
        while (n > 1 && !fits(word.slice(0, n))) n--;
        lines.push(word.slice(0, n));
        word = word.slice(n);
      }
      line = word;
    }
    lines.push(line);
  }
  while (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
