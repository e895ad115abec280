// Over 500 lines on purpose: one document layout (heading, parties, rows that flow over pages, totals,
// VAT lines, ROT/RUT, the payment slip) that is read top to bottom as the page is drawn.
import {
  ASSIGNED_SERVICES,
  documentLanguageOf,
  type InvoiceDetail,
  type Issuer,
  type Language,
  type Recipient,
} from '@portal/contracts';
import { formatAmount, formatMoney, toCurrency } from '@portal/domain/money';
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

/** The page of our documents (A4, in points) and its margin; also the agreement PDF's (installments). */
export const A4: [number, number] = [595.28, 841.89];
export const MARGIN = 50;
/** The colours of our documents: text, secondary text, rules. */
export const INK = rgb(0.1, 0.12, 0.16);
export const MUTED = rgb(0.38, 0.42, 0.48);
export const RULE = rgb(0.8, 0.82, 0.86);

/** The standard PDF fonts encode WinAnsi only: anything else becomes a close ASCII stand-in or "?". */
export function winAnsi(text: string): string {
  return text
    .replace(/[\u2212\u2012\u2013\u2014]/g, '-')
    .replace(/[\u00a0\u202f\u2009]/g, ' ')
    .replace(/[^\u0020-\u007e\u00a0-\u00ff€–—‘’“”•…]/g, '?');
}

/** The width of `value` as drawn (WinAnsi) in `font` at `size`, in points. */
export function textWidth(font: PDFFont, value: string, size: number): number {
  return font.widthOfTextAtSize(winAnsi(value), size);
}

/** A page's number ("Page 2 of 3", already translated) at the right margin, `y` points up, muted. */
export function drawPageNumber(page: PDFPage, label: string, font: PDFFont, size: number, y: number): void {
  const x = A4[0] - MARGIN - textWidth(font, label, size);
  page.drawText(winAnsi(label), { x, y, size, font, color: MUTED });
}

/** One invoice of a document and the recipient it is addressed to. */
export interface InvoiceToDraw {
  invoice: InvoiceDetail;
  recipient: Recipient;
}

/**
 * Renders our invoice PDF with a PDF library (no headless browser): issuer, recipient, rows, VAT per
 * rate, the ROT/RUT block, amount to pay, OCR reference, bankgiro and due date, in the recipient's
 * document language (`documentLanguageOf`), whoever asks for it (issue #11).
 */
export function renderInvoicePdf(
  invoice: InvoiceDetail,
  issuer: InvoiceIssuer,
  recipient: Recipient,
): Promise<Uint8Array> {
  return renderInvoicesPdf([{ invoice, recipient }], issuer, documentLanguageOf(recipient));
}

/**
 * Renders several invoices of one issuer into one PDF, in the given order: each starts on a new page,
 * is written in its own recipient's document language and numbers its own pages ("page 1 of 2"),
 * exactly as its own PDF would look. `titleLanguage` is only the language of the file's title (the
 * file is the user's, its invoices are the recipients'). The fonts are embedded once for the whole
 * document. Dated by the latest invoice date, so the same invoices give the same bytes. Throws on an
 * empty list (the route never asks for one).
 */
export async function renderInvoicesPdf(
  items: readonly InvoiceToDraw[],
  issuer: InvoiceIssuer,
  titleLanguage: Language,
): Promise<Uint8Array> {
  const [first] = items;
  if (!first) throw new Error('renderInvoicesPdf: no invoices');
  const { t } = documentFormats(titleLanguage, 'SEK');
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
  for (const item of items) drawInvoice(pdf, { font, bold }, item, issuer);
  return pdf.save();
}

/** The usable width of a page between the margins. */
const WIDTH = A4[0] - 2 * MARGIN;
const RIGHT = A4[0] - MARGIN;
const TOP = A4[1] - MARGIN;
/** No row, total or note goes below this line: beneath it are only the footer and the slip's own place. */
const BOTTOM = MARGIN + 10;
/** Space between two table columns. */
const GAP = 10;
/** Widest article number column: a longer number wraps within it. */
const ARTICLE_MAX_WIDTH = 64;

/** Number, date and money formats and the labels of one document language. */
function documentFormats(language: Language, currency: 'SEK' | 'EUR') {
  return {
    t: (key: string, values: Record<string, string | number> = {}) =>
      winAnsi(translate(language, 'documents', `invoicePdf.${key}`, values)),
    money: (minor: number) => winAnsi(formatMoney(minor, currency, language)),
    amount: (minor: number) => winAnsi(formatAmount(minor, language)),
    quantity: (milli: number) =>
      winAnsi(new Intl.NumberFormat(language, { maximumFractionDigits: 3 }).format(milli / 1000)),
    rate: (bp: number) =>
      winAnsi(new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(bp / 100)),
    date: (iso: string) => formatDocumentDate(iso, language),
  };
}

/**
 * Draws one invoice on new pages at the end of `pdf`. Nothing is placed at a fixed width: the table's
 * number columns are as wide as their widest value (or heading), the description takes the rest and
 * wraps, a row that does not fit moves to the next page under a repeated heading, and the totals and the
 * slip go to a new page when the rows leave no room for them (issue #11).
 */
function drawInvoice(
  pdf: PDFDocument,
  { font, bold }: { font: PDFFont; bold: PDFFont },
  { invoice, recipient }: InvoiceToDraw,
  issuer: InvoiceIssuer,
): void {
  const language = documentLanguageOf(recipient);
  const currency = toCurrency(invoice.currency);
  const { t, money, amount, quantity, rate, date } = documentFormats(language, currency);
  const widthOf = (value: string, size: number, f = font) => textWidth(f, value, size);

  // This invoice's pages only: the footer numbers them apart from the other invoices of the document.
  const pages: PDFPage[] = [];
  let page = pdf.addPage(A4);
  pages.push(page);
  let y = TOP;
  const newPage = () => {
    page = pdf.addPage(A4);
    pages.push(page);
    y = TOP;
  };
  const text = (value: string, x: number, at: number, size = 10, f = font, color = INK) =>
    page.drawText(winAnsi(value), { x, y: at, size, font: f, color });
  const right = (value: string, xRight: number, at: number, size = 10, f = font, color = INK) =>
    text(value, xRight - widthOf(value, size, f), at, size, f, color);

  // Header: the issuer on the left, the title and the invoice's key facts on the right.
  const factsX = A4[0] / 2 + 10;
  const leftWidth = factsX - MARGIN - 16;
  right(t('title'), RIGHT, y, 20, bold);
  let leftY = y;
  for (const line of wrap(issuer.name, bold, 16, leftWidth)) {
    text(line, MARGIN, leftY, 16, bold);
    leftY -= 18;
  }
  for (const value of issuerContactLines(issuer))
    for (const line of wrap(value, font, 9, leftWidth)) {
      text(line, MARGIN, leftY, 9, font, MUTED);
      leftY -= 12;
    }
  const facts: [string, string][] = [
    [t('invoiceNumber'), invoice.invoiceNumber],
    [t('invoiceDate'), date(invoice.invoiceDate)],
    [t('dueDate'), date(invoice.dueDate)],
  ];
  if (invoice.ocr) facts.push([t('ocr'), invoice.ocr]);
  if (invoice.orderReference) facts.push([t('orderReference'), invoice.orderReference]);
  if (invoice.issuerContact) facts.push([t('ourReference'), invoice.issuerContact]);
  if (invoice.recipientContact) facts.push([t('yourReference'), invoice.recipientContact]);
  const labelWidth = Math.max(...facts.map(([label]) => widthOf(label, 9)));
  const valueWidth = RIGHT - (factsX + labelWidth + GAP);
  let factsY = y - 34;
  for (const [label, value] of facts) {
    text(label, factsX, factsY, 9, font, MUTED);
    for (const line of wrap(value, bold, 10, valueWidth)) {
      right(line, RIGHT, factsY, 10, bold);
      factsY -= 13;
    }
    factsY -= 1;
  }

  // Recipient.
  y = Math.min(leftY, factsY) - 16;
  text(t('recipient'), MARGIN, y, 9, font, MUTED);
  y -= 14;
  const address = [
    recipient.name,
    recipient.address,
    recipient.address2,
    `${recipient.zipcode} ${recipient.city}`,
  ];
  for (const [i, value] of address.filter((l) => l.trim().length > 0).entries())
    for (const line of wrap(value, i === 0 ? bold : font, 11, leftWidth)) {
      text(line, MARGIN, y, 11, i === 0 ? bold : font);
      y -= 14;
    }
  y -= 14;

  // Rows: the columns from the widest text actually present.
  const cells = invoice.rows.map((row) => ({
    article: row.articleNumber,
    name: row.name,
    description: row.description,
    quantity: quantity(row.quantityMilli),
    unit: t(`units.${row.unit}`),
    unitPrice: amount(row.unitPriceMinor),
    vat: `${rate(row.vatBasisPoints)} %`,
    net: amount(row.netMinor),
  }));
  const heading = (key: string) => t(`columns.${key}`);
  /** A column as wide as its heading or its widest cell (`field`, of every row). */
  const columnWidth = (key: string, field: keyof (typeof cells)[number]) =>
    Math.max(widthOf(heading(key), 8, bold), ...cells.map((c) => widthOf(c[field], 9)));
  const hasArticles = cells.some((c) => c.article.trim().length > 0);
  const widths = {
    article: hasArticles ? Math.min(ARTICLE_MAX_WIDTH, columnWidth('article', 'article')) : 0,
    quantity: columnWidth('quantity', 'quantity'),
    unit: columnWidth('unit', 'unit'),
    unitPrice: columnWidth('unitPrice', 'unitPrice'),
    vat: columnWidth('vat', 'vat'),
    amount: columnWidth('amount', 'net'),
  };
  const descriptionX = MARGIN + (hasArticles ? widths.article + GAP : 0);
  const amountRight = RIGHT;
  const vatRight = amountRight - widths.amount - GAP;
  const unitPriceRight = vatRight - widths.vat - GAP;
  const unitX = unitPriceRight - widths.unitPrice - GAP - widths.unit;
  const quantityRight = unitX - GAP;
  const descriptionWidth = quantityRight - widths.quantity - GAP - descriptionX;
  // The article heading wraps like its numbers when the column is narrower than the heading.
  const articleHeading = hasArticles ? wrap(heading('article'), bold, 8, widths.article) : [];

  const tableHeader = () => {
    const headingLines = Math.max(1, articleHeading.length);
    for (const [i, line] of articleHeading.entries()) text(line, MARGIN, y - i * 10, 8, bold, MUTED);
    text(heading('description'), descriptionX, y, 8, bold, MUTED);
    right(heading('quantity'), quantityRight, y, 8, bold, MUTED);
    text(heading('unit'), unitX, y, 8, bold, MUTED);
    right(heading('unitPrice'), unitPriceRight, y, 8, bold, MUTED);
    right(heading('vat'), vatRight, y, 8, bold, MUTED);
    right(heading('amount'), amountRight, y, 8, bold, MUTED);
    y -= (headingLines - 1) * 10 + 6;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: RIGHT, y }, thickness: 0.6, color: RULE });
    y -= 14;
  };
  tableHeader();
  const rowTop = y;
  for (const cell of cells) {
    const articleLines = hasArticles && cell.article ? wrap(cell.article, font, 9, widths.article) : [];
    // One line of the row: its height, and what it shows in the article and the description columns.
    const lines: { step: number; article?: string; text?: string; size: number; color: typeof INK }[] = [
      ...wrap(cell.name, font, 9, descriptionWidth).map((line) => ({
        step: 11,
        text: line,
        size: 9,
        color: INK,
      })),
      ...(cell.description ? wrap(cell.description, font, 8, descriptionWidth) : []).map((line) => ({
        step: 10,
        text: line,
        size: 8,
        color: MUTED,
      })),
    ];
    for (const [i, line] of articleLines.entries()) {
      const slot = lines[i];
      if (slot) {
        slot.article = line;
        slot.step = 11;
      } else lines.push({ step: 11, article: line, size: 9, color: INK });
    }
    const height = lines.reduce((sum, l) => sum + l.step, 0);
    // A row that fits on a page is never split; a longer one (a description of many short lines) flows on.
    if (y - height < BOTTOM && height <= rowTop - BOTTOM) {
      newPage();
      tableHeader();
    }
    for (const [i, line] of lines.entries()) {
      if (y < BOTTOM) {
        newPage();
        tableHeader();
      }
      if (line.article) text(line.article, MARGIN, y, 9);
      if (line.text) text(line.text, descriptionX, y, line.size, font, line.color);
      if (i === 0) {
        right(cell.quantity, quantityRight, y, 9);
        text(cell.unit, unitX, y, 9);
        right(cell.unitPrice, unitPriceRight, y, 9);
        right(cell.vat, vatRight, y, 9);
        right(cell.net, amountRight, y, 9);
      }
      y -= line.step;
    }
    y -= 4;
  }
  page.drawLine({ start: { x: MARGIN, y: y + 6 }, end: { x: RIGHT, y: y + 6 }, thickness: 0.6, color: RULE });
  y -= 14;

  // Totals: net, VAT per rate, total, ROT/RUT, to pay; then the tax reduction's particulars.
  const totals: { label: string; value: string; strong: boolean }[] = [
    { label: t('net'), value: money(invoice.netMinor), strong: false },
    ...invoice.vat.map((line) => ({
      label: t('vatAt', { rate: rate(line.vatBasisPoints) }),
      value: money(line.vatMinor),
      strong: false,
    })),
    { label: t('total'), value: money(invoice.grossMinor), strong: true },
    ...(invoice.deductionMinor !== 0
      ? [
          {
            label: t(invoice.rotRut.type === 'rot' ? 'rotDeduction' : 'rutDeduction'),
            value: money(-invoice.deductionMinor),
            strong: false,
          },
        ]
      : []),
    { label: t('toPay'), value: money(invoice.toPayMinor), strong: true },
  ];
  const notes: string[] = [];
  if (invoice.rotRut.type !== 'none') {
    notes.push(t('taxReductionNote', { personalNumber: invoice.rotRut.personalNumber }));
    // The property or the housing cooperative is ROT's particular (Skatteverket); RUT asks only the buyer.
    if (invoice.rotRut.type === 'rot' && invoice.rotRut.propertyDesignation)
      notes.push(t('property', { value: invoice.rotRut.propertyDesignation }));
    if (invoice.rotRut.type === 'rot' && invoice.rotRut.housingCoopNumber)
      notes.push(t('housingCoop', { value: invoice.rotRut.housingCoopNumber }));
  }
  const noteLines = notes.flatMap((note) => wrap(note, font, 9, WIDTH));
  const totalsHeight =
    totals.reduce((sum, line) => sum + (line.strong ? 18 : 14), 0) +
    (noteLines.length ? 6 + noteLines.length * 12 : 0);
  if (y - totalsHeight < BOTTOM) newPage();
  const totalsValueWidth = Math.max(...totals.map((l) => widthOf(l.value, 11, bold)));
  const totalsLabelWidth = Math.max(...totals.map((l) => widthOf(l.label, 11, bold)));
  const totalsX = Math.max(MARGIN, Math.min(330, RIGHT - totalsValueWidth - 2 * GAP - totalsLabelWidth));
  for (const line of totals) {
    const size = line.strong ? 11 : 10;
    const f = line.strong ? bold : font;
    text(line.label, totalsX, y, size, f);
    right(line.value, RIGHT, y, size, f);
    y -= line.strong ? 18 : 14;
  }
  if (noteLines.length) y -= 6;
  for (const line of noteLines) {
    text(line, MARGIN, y, 9, font, MUTED);
    y -= 12;
  }

  // The payment slip at the foot of the last page, below everything (a page of its own when no room).
  const fonts = { font, bold };
  const slip = slipContent(invoice, issuer, recipient);
  const slipHeight = drawPaymentSlip(null, fonts, language, slip, 0);
  if (y - 6 < MARGIN + slipHeight) newPage();
  drawPaymentSlip(page, fonts, language, slip, MARGIN + slipHeight);

  // Footer on every page: issuer identity and "page x of y".
  for (const [i, each] of pages.entries()) {
    const label = t('page', { page: i + 1, pages: pages.length });
    drawIssuerFooter(each, font, issuer, language, WIDTH - textWidth(font, label, 7) - 2 * GAP);
    drawPageNumber(each, label, font, 7, 24);
  }
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
    currency: toCurrency(invoice.currency),
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
  const { t, money, date } = documentFormats(language, slip.currency);
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
    [t('invoiceDate'), date(slip.invoiceDate)],
    [t('dueDate'), date(slip.dueDate)],
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
  const toPay = money(slip.toPayMinor);
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
  const { t } = documentFormats(language, 'SEK');
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

/**
 * The issuer's name, organisation number and VAT number at the foot of a page, within `width` (it
 * wraps upwards from the page's last line rather than run into the page number).
 */
function drawIssuerFooter(
  page: PDFPage,
  font: PDFFont,
  issuer: InvoiceIssuer,
  language: Language,
  width = A4[0] - 2 * MARGIN,
): void {
  const { t } = documentFormats(language, 'SEK');
  const footer = [
    issuer.name,
    t('orgNumber', { value: issuer.organizationNo }),
    t('vatNumber', { value: issuer.vat }),
  ].join('  ·  ');
  const lines = wrap(footer, font, 7, width);
  for (const [i, line] of lines.entries())
    page.drawText(line, { x: MARGIN, y: 24 + (lines.length - 1 - i) * 9, size: 7, font, color: MUTED });
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
