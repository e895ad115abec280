import { PDFDocument, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import { winAnsi } from './invoice-pdf';

const A4_LANDSCAPE: [number, number] = [841.89, 595.28];
const MARGIN = 32;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.4, 0.4, 0.45);
const ROW = 15;

/**
 * A report as a table on landscape A4 pages: title, subtitle, a header row repeated on every page,
 * then the rows and a few total lines. `widths` are relative; columns in `rightAligned` (amounts)
 * are right-aligned. Text too wide for its column is cut.
 */
export async function renderTablePdf(input: {
  title: string;
  subtitle: string;
  empty: string;
  header: string[];
  widths: number[];
  rightAligned: number[];
  rows: string[][];
  totals: string[];
  size?: number;
}): Promise<Uint8Array> {
  const size = input.size ?? 9;
  const pdf = await PDFDocument.create();
  pdf.setTitle(input.title);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const usable = A4_LANDSCAPE[0] - 2 * MARGIN;
  const sum = input.widths.reduce((s, w) => s + w, 0);
  const xs: number[] = [];
  let x = MARGIN;
  for (const w of input.widths) {
    xs.push(x);
    x += (w / sum) * usable;
  }
  xs.push(MARGIN + usable);
  let page: PDFPage = pdf.addPage(A4_LANDSCAPE);
  let y = A4_LANDSCAPE[1] - MARGIN;
  const fit = (value: string, width: number, f: typeof font) => {
    let text = winAnsi(value);
    while (text.length > 1 && f.widthOfTextAtSize(text, size) > width) text = text.slice(0, -1);
    return text;
  };
  const drawRow = (cells: string[], f = font) => {
    cells.forEach((cell, i) => {
      const left = xs[i] ?? MARGIN;
      const width = (xs[i + 1] ?? MARGIN + usable) - left - 5;
      const text = fit(cell, width, f);
      const dx = input.rightAligned.includes(i) ? width - f.widthOfTextAtSize(text, size) : 0;
      page.drawText(text, { x: left + dx, y, size, font: f, color: INK });
    });
    y -= ROW;
  };
  const room = () => {
    if (y >= MARGIN + ROW) return;
    page = pdf.addPage(A4_LANDSCAPE);
    y = A4_LANDSCAPE[1] - MARGIN;
    drawRow(input.header, bold);
  };
  page.drawText(winAnsi(input.title), { x: MARGIN, y, size: 16, font: bold, color: INK });
  y -= 20;
  page.drawText(winAnsi(input.subtitle), { x: MARGIN, y, size: 10, font, color: MUTED });
  y -= 26;
  drawRow(input.header, bold);
  for (const r of input.rows) {
    room();
    drawRow(r);
  }
  if (input.rows.length === 0) {
    page.drawText(winAnsi(input.empty), { x: MARGIN, y, size: 10, font, color: MUTED });
    y -= ROW;
  }
  y -= 6;
  for (const line of input.totals) {
    room();
    page.drawText(winAnsi(line), { x: MARGIN, y, size: 10, font: bold, color: INK });
    y -= ROW;
  }
  return pdf.save();
}
