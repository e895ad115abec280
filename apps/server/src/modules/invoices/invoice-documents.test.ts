import { createHash } from 'node:crypto';
import { invoiceDetailSchema, invoiceFileSchema, sendInvoicesResponseSchema } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { beforeEach, describe, expect, it } from 'vitest';
import { createRecipient, samplePdf } from '../../../test/support/factories';
import { pdfText } from '../../../test/support/pdf-text';
import { INVOICE_TERMS, VALID_INVOICE_BODY } from '../../../test/support/route-samples';
import { bearer } from '../../../test/support/test-app';
import { useLogins, useTestApp } from '../../../test/support/use-test-app';
import { fileBlobs, invoiceDocuments, invoiceFiles, invoices, issuers } from '../../db/schema';
import { DOCUMENTS_MAX_BYTES } from './invoice-documents.service';

/** A PDF whose trailer names an encryption dictionary, as a password-protected file has. */
async function encryptedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage();
  const plain = Buffer.from(await doc.save({ useObjectStreams: false })).toString('latin1');
  const encrypted = plain.replace(
    /trailer\s*<</,
    'trailer\n<<\n/Encrypt << /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >>\n',
  );
  expect(encrypted).not.toBe(plain);
  return Buffer.from(encrypted, 'latin1');
}

/** Each page's text, read back by pdf.js. */
async function pagesOf(bytes: Uint8Array): Promise<string[]> {
  const { text } = await pdfText(bytes);
  return text.split('\n');
}

describe('invoice documents (issue #11): frozen at sending, the uploaded PDF sent as it is', () => {
  const t = useTestApp({ resetEach: true });
  const user = useLogins(t, { demo: 'demo', other: 'demo-other' }, { each: true });
  let recipientID: string;
  let issuerId: string;

  beforeEach(async () => {
    recipientID = await createRecipient(t, user.demo, { name: 'Dokument & Co AB' });
    const [issuer] = await t.db
      .select({ id: issuers.id })
      .from(issuers)
      .where(eq(issuers.name, 'Demo Bygg AB'));
    issuerId = issuer?.id ?? '';
    expect(issuerId).not.toBe('');
  });

  const register = async (invoiceNumber: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/limited/invoices',
      headers: bearer(user.demo),
      payload: { ...VALID_INVOICE_BODY, recipientID, invoiceNumber },
    });
    expect(res.statusCode, res.body).toBe(200);
    return invoiceDetailSchema.parse(res.json()).invoiceID;
  };
  const send = async (ids: string[]) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/limited/invoices/send',
      headers: bearer(user.demo),
      payload: { invoiceIDs: ids },
    });
    return res;
  };
  const pdf = async (id: string, token = user.demo) => {
    const res = await t.app.inject({ url: `/api/limited/invoices/${id}/pdf`, headers: bearer(token) });
    return res;
  };
  const uploadFile = async (bytes: Buffer, role: 'invoice' | 'attachment' = 'invoice') =>
    t.app.inject({
      method: 'POST',
      url: `/api/limited/files?role=${role}&filename=egen-faktura.pdf`,
      headers: { ...bearer(user.demo), 'content-type': 'application/pdf' },
      payload: bytes,
    });
  const registerUpload = async (bytes: Buffer, invoiceNumber = 'EGEN-1') => {
    const file = invoiceFileSchema.parse((await uploadFile(bytes)).json());
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/limited/invoices/upload',
      headers: bearer(user.demo),
      payload: {
        invoiceFileID: file.fileID,
        recipientID,
        invoiceNumber,
        ...INVOICE_TERMS,
        amounts: [{ vatBasisPoints: 2500, netMinor: 1_000_000 }],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    return { invoice: invoiceDetailSchema.parse(res.json()), fileID: file.fileID };
  };

  it('stores the PDF at sending; later downloads return it byte for byte after the issuer changes', async () => {
    const id = await register('FRYST-1');
    await t.db.update(issuers).set({ telephone: '08-111 11 11' }).where(eq(issuers.id, issuerId));
    expect((await send([id])).statusCode).toBe(200);
    const [stored] = await t.db.select().from(invoiceDocuments).where(eq(invoiceDocuments.invoiceId, id));
    expect(stored).toMatchObject({ kind: 'generated', issuerId });
    const first = await pdf(id);
    expect(first.statusCode).toBe(200);
    expect(createHash('sha256').update(first.rawPayload).digest('hex')).toBe(stored?.sha256);
    expect((await pdfText(first.rawPayload)).text).toContain('08-111 11 11');

    // The company moves its phone; the invoice sent before keeps the old one, byte for byte.
    await t.db.update(issuers).set({ telephone: '08-222 22 22' }).where(eq(issuers.id, issuerId));
    const again = await pdf(id);
    expect(Buffer.compare(again.rawPayload, first.rawPayload)).toBe(0);

    // A pending invoice is drawn as it is now, and so is one sent after the change.
    const later = await register('FRYST-2');
    expect((await pdfText((await pdf(later)).rawPayload)).text).toContain('08-222 22 22');
    expect((await send([later])).statusCode).toBe(200);
    const laterText = (await pdfText((await pdf(later)).rawPayload)).text;
    expect(laterText).toContain('08-222 22 22');
    expect(laterText).not.toContain('08-111 11 11');

    // The bundle of both: each document's pages as its own PDF has them.
    const bundle = await t.app.inject({
      method: 'POST',
      url: '/api/limited/invoices/pdf',
      headers: bearer(user.demo),
      payload: { invoiceIDs: [id, later] },
    });
    expect(bundle.statusCode).toBe(200);
    const [page1, page2] = await pagesOf(bundle.rawPayload);
    expect(page1).toContain('08-111 11 11');
    expect(page2).toContain('08-222 22 22');
  });

  it('a send that cannot draw a document sends nothing: no state change, no document', async () => {
    const { invoice, fileID } = await registerUpload(await samplePdf('Egen faktura'));
    const [file] = await t.db.select().from(invoiceFiles).where(eq(invoiceFiles.id, fileID));
    // The stored bytes are gone (a broken file store): the send fails as a whole.
    await t.db.delete(fileBlobs).where(eq(fileBlobs.key, file?.storageKey ?? ''));
    const res = await send([invoice.invoiceID]);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('files.not_found');
    const [row] = await t.db.select().from(invoices).where(eq(invoices.id, invoice.invoiceID));
    expect(row?.state).toBe(1);
    expect(row?.sentAt).toBeNull();
    expect(
      await t.db.select().from(invoiceDocuments).where(eq(invoiceDocuments.invoiceId, invoice.invoiceID)),
    ).toHaveLength(0);
  });

  it('sends an uploaded invoice as the customer’s own PDF with our payment slip page after it', async () => {
    const own = await samplePdf('Kundens egen faktura', 2);
    const { invoice } = await registerUpload(own);
    const sent = sendInvoicesResponseSchema.parse((await send([invoice.invoiceID])).json());
    const ocr = sent.results[0]?.ocr ?? '';
    expect(ocr).not.toBe('');
    const res = await pdf(invoice.invoiceID);
    expect(res.statusCode).toBe(200);
    const pages = await pagesOf(res.rawPayload);
    expect(pages).toHaveLength(3);
    expect(pages[0]).toContain('Kundens egen faktura sida 1');
    expect(pages[1]).toContain('Kundens egen faktura sida 2');
    // The slip: our reference and the amount to pay (10 000,00 + 25 % VAT).
    expect(pages[2]).toContain(ocr);
    expect(pages[2]?.replace(/[\u00a0\u202f]/g, ' ')).toContain('12 500,00');
    expect(pages[2]).toContain('EGEN-1');
    // Not a second drawing of the invoice: none of our row table.
    expect(pages.join(' ')).not.toContain('Enligt bifogad faktura');
    const [stored] = await t.db
      .select()
      .from(invoiceDocuments)
      .where(eq(invoiceDocuments.invoiceId, invoice.invoiceID));
    expect(stored?.kind).toBe('uploaded');
  });

  it('keeps an uploaded invoice’s amounts unless a new file comes with new ones', async () => {
    const { invoice, fileID } = await registerUpload(await samplePdf('Egen faktura'));
    const edit = (payload: object) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/limited/invoices/${invoice.invoiceID}`,
        headers: bearer(user.demo),
        payload,
      });
    const base = {
      recipientID,
      invoiceNumber: invoice.invoiceNumber,
      service: 'factoring',
      currency: 'SEK',
      invoiceDate: invoice.invoiceDate,
      dueDate: invoice.dueDate,
      rows: invoice.rows.map((r) => ({
        name: r.name,
        quantityMilli: r.quantityMilli,
        unit: r.unit,
        unitPriceMinor: r.unitPriceMinor,
        vatBasisPoints: r.vatBasisPoints,
      })),
      invoiceFileID: fileID,
    };
    const changed = await edit({ ...base, rows: [{ ...base.rows[0], unitPriceMinor: 900_000 }] });
    expect(changed.statusCode, changed.body).toBe(409);
    expect(changed.json()).toMatchObject({
      code: 'invoices.uploaded_amounts_locked',
      issues: [{ path: 'rows', code: 'invoices.uploaded_amounts_locked' }],
    });
    const [row] = await t.db.select().from(invoices).where(eq(invoices.id, invoice.invoiceID));
    expect(row?.grossMinor).toBe(1_250_000);

    // The same amounts with another due date: allowed.
    const sameAmounts = await edit({ ...base, dueDate: '2026-04-15' });
    expect(sameAmounts.statusCode, sameAmounts.body).toBe(200);

    // A new file may bring new amounts.
    const next = invoiceFileSchema.parse((await uploadFile(await samplePdf('Rättad faktura'))).json());
    const withNewFile = await edit({
      ...base,
      invoiceFileID: next.fileID,
      rows: [{ ...base.rows[0], unitPriceMinor: 900_000 }],
    });
    expect(withNewFile.statusCode, withNewFile.body).toBe(200);
    expect(invoiceDetailSchema.parse(withNewFile.json()).grossMinor).toBe(1_125_000);
  });

  it('refuses an encrypted PDF as an invoice’s own PDF, keeps it as an attachment', async () => {
    const bytes = await encryptedPdf();
    const asInvoice = await uploadFile(bytes, 'invoice');
    expect(asInvoice.statusCode).toBe(415);
    expect(asInvoice.json().code).toBe('files.pdf_encrypted');
    expect((await uploadFile(bytes, 'attachment')).statusCode).toBe(200);
  });

  it(`refuses a bundle whose documents come to more than ${DOCUMENTS_MAX_BYTES / 1024 / 1024} MB before reading them`, async () => {
    const first = await register('STOR-1');
    const second = await register('STOR-2');
    expect((await send([first, second])).statusCode).toBe(200);
    const bundle = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/limited/invoices/pdf',
        headers: bearer(user.demo),
        payload: { invoiceIDs: [first, second] },
      });
    expect((await bundle()).statusCode).toBe(200);
    // As if the first were a very large uploaded PDF: its stored size alone passes the limit.
    await t.db
      .update(invoiceDocuments)
      .set({ size: DOCUMENTS_MAX_BYTES })
      .where(eq(invoiceDocuments.invoiceId, first));
    const refused = await bundle();
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('invoices.too_many_records');
    // One invoice alone is still within the limit.
    expect((await pdf(first)).statusCode).toBe(200);
  });

  it('another issuer gets 404 for a sent invoice’s document, and nothing is drawn for it', async () => {
    const id = await register('FRYST-3');
    expect((await send([id])).statusCode).toBe(200);
    const res = await pdf(id, user.other);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('invoices.not_found');
  });
});
