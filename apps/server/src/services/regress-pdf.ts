import type { Language } from '@portal/contracts';
import { formatAmount } from '@portal/domain/money';
import { PDFDocument, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import { winAnsi } from './invoice-pdf';

const A4_LANDSCAPE: [number, number] = [841.89, 595.28];
const MARGIN = 40;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.4, 0.4, 0.45);
const ROW = 16;
/** Left edges of the columns; the remaining amount (column 6) is right-aligned at the next edge. */
const COLUMN_X = [MARGIN, 130, 330, 430, 540, 610, 680, 770];

export interface RegressPdfRow {
  invoiceNumber: string;
  recipientName: string;
  organizationNumber: string;
  service: string;
  dueDate: string;
  recourseDate: string;
  remainingMinor: number;
  currency: string;
}

/** The active regress report as a table on landscape A4 pages, with a total per currency at the end. */
export async function renderRegressPdf(input: {
  title: string;
  period: string;
  empty: string;
  totalLabel: (currency: string) => string;
  header: string[];
  rows: RegressPdfRow[];
  language: Language;
}): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(input.title);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let page: PDFPage = pdf.addPage(A4_LANDSCAPE);
  let y = A4_LANDSCAPE[1] - MARGIN;
  const fit = (value: string, width: number, size: number) => {
    let text = winAnsi(value);
    while (text.length > 1 && font.widthOfTextAtSize(text, size) > width) text = text.slice(0, -1);
    return text;
  };
  const drawRow = (cells: string[], f = font) => {
    cells.forEach((cell, i) => {
      const x = COLUMN_X[i] ?? MARGIN;
      const width = (COLUMN_X[i + 1] ?? A4_LANDSCAPE[0] - MARGIN) - x - 6;
      const text = fit(cell, width, 9);
      const dx = i === 6 ? width - f.widthOfTextAtSize(text, 9) : 0;
      page.drawText(text, { x: x + dx, y, size: 9, font: f, color: INK });
    });
    y -= ROW;
  };
  const newPage = () => {
    page = pdf.addPage(A4_LANDSCAPE);
    y = A4_LANDSCAPE[1] - MARGIN;
    drawRow(input.header, bold);
  };
  page.drawText(winAnsi(input.title), { x: MARGIN, y, size: 16, font: bold, color: INK });
  y -= 20;
  page.drawText(winAnsi(input.period), { x: MARGIN, y, size: 10, font, color: MUTED });
  y -= 28;
  drawRow(input.header, bold);
  const totals = new Map<string, number>();
  for (const r of input.rows) {
    if (y < MARGIN + ROW) newPage();
    drawRow([
      r.invoiceNumber,
      r.recipientName,
      r.organizationNumber,
      r.service,
      r.dueDate,
      r.recourseDate,
      formatAmount(r.remainingMinor, input.language),
      r.currency,
    ]);
    totals.set(r.currency, (totals.get(r.currency) ?? 0) + r.remainingMinor);
  }
  if (input.rows.length === 0) {
    page.drawText(winAnsi(input.empty), { x: MARGIN, y, size: 10, font, color: MUTED });
  }
  y -= 6;
  for (const [currency, minor] of [...totals].sort()) {
    if (y < MARGIN + ROW) newPage();
    page.drawText(winAnsi(`${input.totalLabel(currency)}: ${formatAmount(minor, input.language)}`), {
      x: MARGIN,
      y,
      size: 10,
      font: bold,
      color: INK,
    });
    y -= ROW;
  }
  return pdf.save();
}
