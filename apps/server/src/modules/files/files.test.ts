import { createHash } from 'node:crypto';
import {
  FILE_MAX_BYTES,
  invoiceDetailSchema,
  invoiceFileSchema,
  recipientSchema,
  sendInvoicesResponseSchema,
} from '@portal/contracts';
import { formatMoney } from '@portal/domain/money';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { samplePdf } from '../../../test/support/factories';
import { pdfText } from '../../../test/support/pdf-text';
import { VALID_INVOICE_BODY, VALID_RECIPIENT_BODY } from '../../../test/support/route-samples';
import { bearer } from '../../../test/support/test-app';
import { useRecipient, useSignedInApp } from '../../../test/support/use-test-app';
import { invoiceFiles } from '../../db/schema';

describe('files and the invoice PDF', () => {
  const { t, who } = useSignedInApp({ demo: 'demo', other: 'demo-other' });
  const recipientID = useRecipient(t, () => who.demo, { name: 'Fil & Co AB' });

  const upload = (token: string, bytes: Buffer, filename = 'bilaga.pdf', contentType = 'application/pdf') =>
    t.app.inject({
      method: 'POST',
      url: `/api/limited/files?role=attachment&filename=${encodeURIComponent(filename)}`,
      headers: { ...bearer(token), 'content-type': contentType },
      payload: bytes,
    });

  it('stores a real PDF, attaches it to an invoice and gives the same bytes back', async () => {
    const pdf = await samplePdf('Bilaga till faktura');
    const res = await upload(who.demo, pdf, 'Tidrapport maj.pdf', 'application/octet-stream');
    expect(res.statusCode, res.body).toBe(200);
    const file = invoiceFileSchema.parse(res.json());
    expect(file).toMatchObject({
      filename: 'Tidrapport maj.pdf',
      size: pdf.length,
      sha256: createHash('sha256').update(pdf).digest('hex'),
    });

    const created = await t.call(who.demo, 'POST', '/api/limited/invoices', {
      ...VALID_INVOICE_BODY,
      recipientID: recipientID(),
      invoiceNumber: 'F-1',
      attachmentIDs: [file.fileID],
    });
    expect(created.statusCode, created.body).toBe(200);
    const inv = invoiceDetailSchema.parse(created.json());
    expect(inv.files.map((f) => f.fileID)).toEqual([file.fileID]);

    const down = await t.app.inject({ url: `/api/limited/files/${file.fileID}`, headers: bearer(who.demo) });
    expect(down.statusCode).toBe(200);
    expect(down.headers['content-type']).toBe('application/pdf');
    expect(down.headers['content-disposition']).toContain("filename*=UTF-8''Tidrapport%20maj.pdf");
    expect(down.rawPayload.equals(pdf)).toBe(true);

    // A file already on one invoice cannot be attached to another.
    const again = await t.call(who.demo, 'POST', '/api/limited/invoices', {
      ...VALID_INVOICE_BODY,
      recipientID: recipientID(),
      invoiceNumber: 'F-2',
      attachmentIDs: [file.fileID],
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('files.not_found');
  });

  it('refuses what is not a PDF, whatever its name, and a file over the limit, storing nothing', async () => {
    const before = (await t.db.select().from(invoiceFiles)).length;
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const notPdf = await upload(who.demo, png, 'faktura.pdf');
    expect(notPdf.statusCode).toBe(415);
    expect(notPdf.json().code).toBe('files.not_pdf');
    const fake = await upload(who.demo, Buffer.from('%PDF-1.7\nthis is not a document'), 'fake.pdf');
    expect(fake.json().code).toBe('files.not_pdf');
    const big = await upload(who.demo, Buffer.alloc(FILE_MAX_BYTES + 1, 0x20), 'stor.pdf');
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe('files.too_large');
    const empty = await upload(who.demo, Buffer.alloc(0), 'tom.pdf');
    expect(empty.statusCode).toBe(400);
    expect(await t.db.select().from(invoiceFiles)).toHaveLength(before);
  });

  it('another issuer can neither download nor attach Demo Bygg AB’s file', async () => {
    const file = invoiceFileSchema.parse(
      (await upload(who.demo, await samplePdf('Hemlig'), 'hemlig.pdf')).json(),
    );
    expect(
      (await t.app.inject({ url: `/api/limited/files/${file.fileID}`, headers: bearer(who.other) }))
        .statusCode,
    ).toBe(404);
    const [row] = await t.db.select().from(invoiceFiles).where(eq(invoiceFiles.id, file.fileID));
    expect(row?.invoiceId).toBeNull();
  });

  it('renders our invoice PDF in its recipient’s language: the number, recipient, OCR, amount to pay and due date', async () => {
    const countries = { 'sv-SE': 'SE', 'en-US': 'GB', 'fi-FI': 'FI' } as const;
    let created: ReturnType<typeof invoiceDetailSchema.parse> | undefined;
    for (const [language, country] of Object.entries(countries) as [keyof typeof countries, string][]) {
      const recipient = recipientSchema.parse(
        (
          await t.call(who.demo, 'POST', '/api/limited/recipients', {
            ...VALID_RECIPIENT_BODY,
            name: `Fil & Co ${country}`,
            country,
          })
        ).json(),
      );
      created = invoiceDetailSchema.parse(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/limited/invoices',
            headers: bearer(who.demo),
            payload: {
              ...VALID_INVOICE_BODY,
              recipientID: recipient.recipientID,
              invoiceNumber: `PDF-${country}`,
            },
          })
        ).json(),
      );
      const sent = sendInvoicesResponseSchema.parse(
        (
          await t.call(who.demo, 'POST', '/api/limited/invoices/send', { invoiceIDs: [created.invoiceID] })
        ).json(),
      );
      const ocr = sent.results[0]?.ocr ?? '';
      // The user reads Swedish; the document is in the recipient's language all the same.
      const res = await t.app.inject({
        url: `/api/limited/invoices/${created.invoiceID}/pdf`,
        headers: bearer(who.demo),
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const { text } = await pdfText(res.rawPayload);
      expect(text).toContain(`PDF-${country}`);
      expect(text).toContain(`Fil & Co ${country}`);
      expect(text).toContain(ocr);
      // The due date (2026-04-01) as the document's language writes dates.
      expect(created.dueDate).toBe('2026-04-01');
      expect(text).toContain(
        { 'sv-SE': '2026-04-01', 'en-US': 'Apr 1, 2026', 'fi-FI': '1.4.2026' }[language],
      );
      const toPay = formatMoney(created.toPayMinor, 'SEK', language)
        .replace(/[\u00a0\u202f]/g, ' ')
        .replace('−', '-');
      expect(text.replace(/[\u00a0\u202f]/g, ' ')).toContain(toPay);
      expect(text).toContain(
        { 'sv-SE': 'Att betala', 'en-US': 'Amount due', 'fi-FI': 'Maksettava' }[language],
      );
    }
    if (!created) throw new Error('no invoice');
    expect(
      (
        await t.app.inject({
          url: `/api/limited/invoices/${created.invoiceID}/pdf`,
          headers: bearer(who.other),
        })
      ).statusCode,
    ).toBe(404);
  });
});
