import { PDFDocument, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import { winAnsi } from '../../services/invoice-pdf';

const A4_LANDSCAPE: [number, number] = [841.89, 595.28];
const MARGIN = 32;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.4, 0.4, 0.45);
const ROW = 15;

/**
 * The lines `value` takes in a column `width` points wide: words kept whole where they fit, a word
 * wider than the column broken between characters. Nothing is cut (issue #11: the ledger PDF never
 * cuts a heading or a value).
 */
export function wrapCell(value: string, width: number, measure: (text: string) => number): string[] {
  const lines: string[] = [];
  let line = '';
  const push = () => {
    if (line !== '') lines.push(line);
    line = '';
  };
  for (const word of value.split(/\s+/).filter((w) => w !== '')) {
    const joined = line === '' ? word : `${line} ${word}`;
    if (measure(joined) <= width) {
      line = joined;
      continue;
    }
    push();
    let rest = word;
    while (measure(rest) > width && rest.length > 1) {
      let cut = rest.length - 1;
      while (cut > 1 && measure(rest.slice(0, cut)) > width) cut--;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  push();
  return lines.length > 0 ? lines : [''];
}

/**
 * A report as a table on landscape A4 pages: title, subtitle, a header row repeated on every page,
 * then the rows and a few total lines. `widths` are relative; columns in `rightAligned` (amounts)
 * are right-aligned. A heading or value too wide for its column wraps onto more lines of its row,
 * and a row never splits across pages.
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
  const line = size + 2;
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
  const columnWidth = (i: number) => (xs[i + 1] ?? MARGIN + usable) - (xs[i] ?? MARGIN) - 5;
  const layout = (cells: string[], f: typeof font) =>
    cells.map((cell, i) => wrapCell(winAnsi(cell), columnWidth(i), (t) => f.widthOfTextAtSize(t, size)));
  const heightOf = (lines: string[][]) => Math.max(1, ...lines.map((l) => l.length)) * line + (ROW - line);
  const drawRow = (lines: string[][], f: typeof font) => {
    lines.forEach((cellLines, i) => {
      const left = xs[i] ?? MARGIN;
      const width = columnWidth(i);
      cellLines.forEach((text, n) => {
        const dx = input.rightAligned.includes(i) ? width - f.widthOfTextAtSize(text, size) : 0;
        page.drawText(text, { x: left + dx, y: y - n * line, size, font: f, color: INK });
      });
    });
    y -= heightOf(lines);
  };
  const header = layout(input.header, bold);
  /** A new page (with the header again) when `height` more does not fit on this one. */
  const room = (height: number) => {
    if (y - height + ROW >= MARGIN + ROW) return;
    page = pdf.addPage(A4_LANDSCAPE);
    y = A4_LANDSCAPE[1] - MARGIN;
    drawRow(header, bold);
  };
  page.drawText(winAnsi(input.title), { x: MARGIN, y, size: 16, font: bold, color: INK });
  y -= 20;
  page.drawText(winAnsi(input.subtitle), { x: MARGIN, y, size: 10, font, color: MUTED });
  y -= 26;
  drawRow(header, bold);
  for (const r of input.rows) {
    const lines = layout(r, font);
    room(heightOf(lines));
    drawRow(lines, font);
  }
  if (input.rows.length === 0) {
    page.drawText(winAnsi(input.empty), { x: MARGIN, y, size: 10, font, color: MUTED });
    y -= ROW;
  }
  y -= 6;
  for (const total of input.totals) {
    room(ROW);
    page.drawText(winAnsi(total), { x: MARGIN, y, size: 10, font: bold, color: INK });
    y -= ROW;
  }
  return pdf.save();
}
