import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextItem, TextMarkedContent } from 'pdfjs-dist/types/src/display/api';

const standardFontDataUrl = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** Each page's text items (from page 1), read by an independent PDF reader (Mozilla's pdf.js). */
async function pagesOf(bytes: Uint8Array): Promise<(TextItem | TextMarkedContent)[][]> {
  const doc = await getDocument({
    data: new Uint8Array(bytes),
    standardFontDataUrl,
    useSystemFonts: false,
    isEvalSupported: false,
  }).promise;
  const pages: (TextItem | TextMarkedContent)[][] = [];
  for (let i = 1; i <= doc.numPages; i++) pages.push((await (await doc.getPage(i)).getTextContent()).items);
  await doc.destroy();
  return pages;
}

/** The text of every page of a PDF, read by pdf.js. */
export async function pdfText(bytes: Uint8Array): Promise<{ pages: number; text: string }> {
  const pages = await pagesOf(bytes);
  const parts = pages.map((items) => items.map((item) => ('str' in item ? item.str : '')).join(' '));
  return { pages: pages.length, text: parts.join('\n') };
}

/** A text item where pdf.js places it: page (from 1), left edge and baseline, width and height in points. */
export interface PlacedText {
  page: number;
  str: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Every non-blank text item of a PDF with its position, as pdf.js reads it (the transform's
 * translation and the item's own width and height), to check a layout from the PDF itself.
 */
export async function pdfTextItems(bytes: Uint8Array): Promise<{ pages: number; items: PlacedText[] }> {
  const pages = await pagesOf(bytes);
  const items = pages.flatMap((content, i) =>
    content.flatMap((item) =>
      'str' in item && item.str.trim() !== ''
        ? [
            {
              page: i + 1,
              str: item.str,
              x: item.transform[4],
              y: item.transform[5],
              width: item.width,
              height: item.height,
            },
          ]
        : [],
    ),
  );
  return { pages: pages.length, items };
}

/**
 * The pairs of text items on the same page whose boxes overlap. A box runs from the baseline less a
 * fifth of the height (descenders) to four fifths above it (the cap height), across the item's width;
 * boxes that only touch, within `tolerance` points, do not count.
 */
export function overlappingTexts(items: readonly PlacedText[], tolerance = 0.5): [PlacedText, PlacedText][] {
  const box = (t: PlacedText) => ({
    left: t.x,
    right: t.x + t.width,
    bottom: t.y - 0.2 * t.height,
    top: t.y + 0.8 * t.height,
  });
  const pairs: [PlacedText, PlacedText][] = [];
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i] as PlacedText;
      const b = items[j] as PlacedText;
      if (a.page !== b.page) continue;
      const p = box(a);
      const q = box(b);
      const across = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const down = Math.min(p.top, q.top) - Math.max(p.bottom, q.bottom);
      if (across > tolerance && down > tolerance) pairs.push([a, b]);
    }
  }
  return pairs;
}
