import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import type { Download } from '@playwright/test';

/** The bytes of a finished download. */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const path = await download.path();
  return readFileSync(path);
}

/**
 * Whether a PDF carries a text: in the raw bytes or in any Flate stream, as plain text or as the hex
 * strings PDF writers use (single-byte for drawn text, UTF-16BE for the document title).
 */
export function pdfContains(bytes: Buffer, text: string): boolean {
  const hex = Buffer.from(text, 'latin1').toString('hex');
  const utf16 = Buffer.from(text, 'utf16le').swap16().toString('hex');
  const haystacks = [bytes.toString('latin1')];
  const streams = /stream\r?\n/g;
  for (
    let match = streams.exec(bytes.toString('latin1'));
    match;
    match = streams.exec(bytes.toString('latin1'))
  ) {
    const start = match.index + match[0].length;
    const end = bytes.indexOf('endstream', start, 'latin1');
    if (end < 0) break;
    try {
      haystacks.push(inflateSync(bytes.subarray(start, end)).toString('latin1'));
    } catch {
      // Not a Flate stream (or an image): nothing to read.
    }
  }
  return haystacks.some((h) => {
    const lower = h.toLowerCase();
    return h.includes(text) || lower.includes(hex) || lower.includes(utf16);
  });
}
