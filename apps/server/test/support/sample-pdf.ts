import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A small PDF of `pages` A4 pages, each saying "<heading> <n>", to upload to a partner's sandbox. */
export async function samplePdf(pages = 2, heading = 'Avbetalningsavtal sida'): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++)
    doc.addPage([595, 842]).drawText(`${heading} ${i}`, { x: 50, y: 780, size: 14, font });
  return doc.save();
}
