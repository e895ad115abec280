import type { Language } from '@portal/contracts';
import { type Currency, formatMoney } from '@portal/domain/money';
import { translate } from '@portal/i18n';
import { PDFDocument, type PDFFont, type PDFPage, StandardFonts } from 'pdf-lib';
import {
  A4,
  drawPageNumber,
  formatDocumentDate,
  INK,
  MARGIN,
  MUTED,
  RULE,
  textWidth,
  winAnsi,
  wrap,
} from '../../services/invoice-pdf';

/**
 * The agreement of an installment plan as a PDF (docs/INSTALLMENTS.md "Signing"): the parties, what is
 * bought, the terms, the payment schedule (flowing over as many pages as it needs, its heading
 * repeated), the assignment to the financier, what happens in default, who signs and who guarantees, in
 * the buyer's language. It is the document the signees sign at the e-signing provider; the sealed copy
 * that comes back is stored unchanged. The same plan gives the same bytes (dated by the plan's date).
 */
export interface AgreementToDraw {
  language: Language;
  /** `YYYY-MM-DD`: the agreement's date, also the PDF's creation date. */
  date: string;
  seller: { name: string; organizationNo: string; address: string; zipcode: string; city: string };
  buyer: { name: string; identityNumber: string; address: string; zipcode: string; city: string };
  plan: {
    loanNumber: string;
    description: string;
    currency: Currency;
    financedMinor: number;
    initialFeeMinor: number;
    monthlyFeeMinor: number;
    administrationFeeMinor: number;
    totalMinor: number;
    noOfInstallments: number;
    startDate: string;
    endDate: string;
  };
  rows: readonly {
    number: number;
    dueDate: string;
    principalMinor: number;
    feeMinor: number;
    amountMinor: number;
  }[];
  signees: readonly { name: string; identityNumber: string; email: string }[];
  securities: readonly { name: string; identityNumber: string; email: string }[];
}

const WIDTH = A4[0] - 2 * MARGIN;
const RIGHT = A4[0] - MARGIN;
const TOP = A4[1] - MARGIN;
const BOTTOM = MARGIN + 20;

export async function renderAgreementPdf(a: AgreementToDraw): Promise<Uint8Array> {
  const t = (key: string, values: Record<string, string | number> = {}) =>
    winAnsi(translate(a.language, 'documents', `agreementPdf.${key}`, values));
  const money = (minor: number) => winAnsi(formatMoney(minor, a.plan.currency, a.language));
  const date = (iso: string) => formatDocumentDate(iso, a.language);

  const pdf = await PDFDocument.create();
  pdf.setTitle(`${t('title')} ${a.plan.loanNumber}`);
  pdf.setAuthor(winAnsi(a.seller.name));
  pdf.setCreationDate(new Date(`${a.date}T12:00:00Z`));
  pdf.setModificationDate(new Date(`${a.date}T12:00:00Z`));
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);

  let page: PDFPage = pdf.addPage(A4);
  let y = TOP;
  const newPage = () => {
    page = pdf.addPage(A4);
    y = TOP;
  };
  /** Moves to a new page unless `height` points still fit above the bottom margin. */
  const room = (height: number) => {
    if (y - height < BOTTOM) newPage();
  };
  const text = (value: string, x: number, at: number, size = 10, f: PDFFont = font, color = INK) =>
    page.drawText(winAnsi(value), { x, y: at, size, font: f, color });
  const right = (value: string, xRight: number, at: number, size = 10, f: PDFFont = font) =>
    text(value, xRight - textWidth(f, value, size), at, size, f);
  const paragraph = (value: string, size = 9.5, f: PDFFont = font, color = INK) => {
    for (const line of wrap(value, f, size, WIDTH)) {
      room(size + 4);
      text(line, MARGIN, y, size, f, color);
      y -= size + 4;
    }
  };
  const heading = (value: string) => {
    room(40);
    y -= 10;
    text(value, MARGIN, y, 12, bold);
    y -= 18;
  };

  // Title and the agreement's number and date.
  text(t('title'), MARGIN, y, 20, bold);
  right(`${t('loanNumber')} ${a.plan.loanNumber}`, RIGHT, y + 6, 10, bold);
  right(`${t('date')} ${date(a.date)}`, RIGHT, y - 8, 9);
  y -= 36;

  // The parties, side by side.
  const half = WIDTH / 2 - 10;
  const party = (label: string, lines: string[], x: number) => {
    let at = y;
    text(label, x, at, 9, font, MUTED);
    at -= 14;
    for (const [i, value] of lines.filter((l) => l.trim() !== '').entries())
      for (const line of wrap(value, i === 0 ? bold : font, 10, half)) {
        text(line, x, at, 10, i === 0 ? bold : font);
        at -= 13;
      }
    return at;
  };
  /** A party's lines under its heading: name, number, street, zip code and city. */
  const partyLines = (
    p: { name: string; address: string; zipcode: string; city: string },
    number: string,
  ) => [p.name, t('orgNumber', { value: number }), p.address, `${p.zipcode} ${p.city}`];
  const sellerEnd = party(t('seller'), partyLines(a.seller, a.seller.organizationNo), MARGIN);
  const buyerEnd = party(t('buyer'), partyLines(a.buyer, a.buyer.identityNumber), MARGIN + half + 20);
  y = Math.min(sellerEnd, buyerEnd) - 6;

  heading(t('subject'));
  paragraph(a.plan.description, 10);

  heading(t('terms'));
  const terms: [string, string][] = [
    [t('financed'), money(a.plan.financedMinor)],
    [t('initialFee'), money(a.plan.initialFeeMinor)],
    [t('monthlyFee'), money(a.plan.monthlyFeeMinor)],
    [t('administrationFee'), money(a.plan.administrationFeeMinor)],
    [t('count'), String(a.plan.noOfInstallments)],
    [t('start'), date(a.plan.startDate)],
    [t('end'), date(a.plan.endDate)],
  ];
  for (const [label, value] of terms) {
    room(14);
    text(label, MARGIN, y, 10);
    right(value, RIGHT, y, 10);
    y -= 14;
  }
  room(18);
  page.drawLine({ start: { x: MARGIN, y: y + 8 }, end: { x: RIGHT, y: y + 8 }, thickness: 0.5, color: RULE });
  text(t('total'), MARGIN, y - 4, 11, bold);
  right(money(a.plan.totalMinor), RIGHT, y - 4, 11, bold);
  y -= 22;
  paragraph(t('noInterest'), 9, font, MUTED);

  // The schedule: the number columns as wide as their widest value, the heading repeated on each page.
  heading(t('schedule'));
  const columns = ['number', 'dueDate', 'principal', 'fees', 'amount'].map((key) => t(`columns.${key}`));
  const cells = a.rows.map((r) => [
    String(r.number),
    date(r.dueDate),
    money(r.principalMinor),
    money(r.feeMinor),
    money(r.amountMinor),
  ]);
  const totals = [
    t('scheduleTotal'),
    '',
    money(a.rows.reduce((s, r) => s + r.principalMinor, 0)),
    money(a.rows.reduce((s, r) => s + r.feeMinor, 0)),
    money(a.rows.reduce((s, r) => s + r.amountMinor, 0)),
  ];
  const widthOf = (value: string, f: PDFFont) => textWidth(f, value, 9);
  const colWidths = columns.map((head, i) =>
    Math.max(
      widthOf(head, bold),
      ...cells.map((c) => widthOf(c[i] ?? '', font)),
      widthOf(totals[i] ?? '', bold),
    ),
  );
  // Column right edges: the first two left-aligned from the margin, the amounts right-aligned to the edge.
  const gap = (WIDTH - colWidths.reduce((s, w) => s + w, 0)) / (columns.length - 1);
  const lefts: number[] = [];
  let x = MARGIN;
  for (const w of colWidths) {
    lefts.push(x);
    x += w + gap;
  }
  const drawRow = (values: string[], f: PDFFont) => {
    values.forEach((value, i) => {
      const left = lefts[i] ?? MARGIN;
      if (i < 2) text(value, left, y, 9, f);
      else right(value, left + (colWidths[i] ?? 0), y, 9, f);
    });
    y -= 13;
  };
  const tableHead = () => {
    drawRow(columns, bold);
    page.drawLine({
      start: { x: MARGIN, y: y + 9 },
      end: { x: RIGHT, y: y + 9 },
      thickness: 0.5,
      color: RULE,
    });
  };
  room(40);
  tableHead();
  for (const row of cells) {
    if (y - 13 < BOTTOM) {
      newPage();
      tableHead();
    }
    drawRow(row, font);
  }
  room(18);
  page.drawLine({ start: { x: MARGIN, y: y + 9 }, end: { x: RIGHT, y: y + 9 }, thickness: 0.5, color: RULE });
  drawRow(totals, bold);

  y -= 6;
  paragraph(t('assignment'));
  y -= 4;
  paragraph(t('default'));

  heading(t('signees'));
  for (const s of a.signees) paragraph(`${s.name}, ${s.identityNumber}, ${s.email}`, 10);
  heading(t('securities'));
  if (a.securities.length === 0) paragraph(t('noSecurities'), 10, font, MUTED);
  for (const s of a.securities) paragraph(`${s.name}, ${s.identityNumber}, ${s.email}`, 10);

  // Page numbers once every page exists.
  const pages = pdf.getPages();
  pages.forEach((p, i) => {
    drawPageNumber(p, t('page', { page: i + 1, pages: pages.length }), font, 8, MARGIN - 20);
  });
  return pdf.save();
}
