import { recipientSchema } from '@portal/contracts';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { expect } from 'vitest';
import { VALID_RECIPIENT_BODY } from './route-samples';
import { bearer, type TestApp } from './test-app';

/**
 * A real PDF as a customer would upload it: `text` drawn on each page, and with more than one page
 * each page's text ends in "sida <n>", so a test can tell the pages apart.
 */
export async function samplePdf(text: string, pages = 1): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++)
    doc.addPage().drawText(pages === 1 ? text : `${text} sida ${i}`, { x: 50, y: 700, font, size: 12 });
  return Buffer.from(await doc.save());
}

/** Creates a recipient of the signed-in user through the API (the valid sample and `extra`); its id. */
export async function createRecipient(t: TestApp, token: string, extra: Record<string, unknown> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/limited/recipients',
    headers: bearer(token),
    payload: { ...VALID_RECIPIENT_BODY, ...extra },
  });
  expect(res.statusCode, res.body).toBe(200);
  return recipientSchema.parse(res.json()).recipientID;
}
