// Renders every page of the given PDFs to PNG files beside them (<name>-p<page>.png), with Mozilla's
// pdf.js in Chromium, so that a document can be looked at as a picture where no pdftoppm is installed.
// Usage: node apps/server/scripts/pdf-to-png.mjs file.pdf… (CHROMIUM_PATH, default /usr/bin/chromium)
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { chromium } from 'playwright';

const pdfjs = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node apps/server/scripts/pdf-to-png.mjs file.pdf…');
  process.exit(2);
}
const TYPES = { mjs: 'text/javascript', pfb: 'application/octet-stream', ttf: 'font/ttf', html: 'text/html' };
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  const page = await browser.newPage();
  await page.route('http://pdf.local/**', async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/')
      return route.fulfill({ contentType: 'text/html', body: '<!doctype html><body></body>' });
    const file = path.startsWith('/doc/') ? decodeURIComponent(path.slice(5)) : join(pdfjs, path);
    const ext = file.split('.').pop() ?? '';
    return route.fulfill({ contentType: TYPES[ext] ?? 'application/pdf', body: await readFile(file) });
  });
  await page.goto('http://pdf.local/');
  for (const file of files) {
    const pngs = await page.evaluate(
      async (url) => {
        const lib = await import('http://pdf.local/build/pdf.mjs');
        lib.GlobalWorkerOptions.workerSrc = 'http://pdf.local/build/pdf.worker.mjs';
        const doc = await lib.getDocument({ url, standardFontDataUrl: 'http://pdf.local/standard_fonts/' })
          .promise;
        const out = [];
        for (let i = 1; i <= doc.numPages; i++) {
          const p = await doc.getPage(i);
          const viewport = p.getViewport({ scale: 1.6 });
          const canvas = document.createElement('canvas');
          canvas.width = viewport.width;
          canvas.height = viewport.height;
          const context = canvas.getContext('2d');
          context.fillStyle = '#fff';
          context.fillRect(0, 0, canvas.width, canvas.height);
          await p.render({ canvasContext: context, viewport }).promise;
          out.push(canvas.toDataURL('image/png'));
        }
        return out;
      },
      `http://pdf.local/doc/${encodeURIComponent(file)}`,
    );
    for (const [i, png] of pngs.entries()) {
      const target = file.replace(/\.pdf$/, `-p${i + 1}.png`);
      await writeFile(target, Buffer.from(png.split(',')[1], 'base64'));
      console.log(target);
    }
  }
} finally {
  await browser.close();
}
