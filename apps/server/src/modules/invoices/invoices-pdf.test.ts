import { randomUUID } from 'node:crypto';
import { INVOICES_PDF_MAX, invoiceDetailSchema, recipientSchema } from '@portal/contracts';
import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../../../test/support/pdf-text';
import { VALID_INVOICE_BODY, VALID_RECIPIENT_BODY } from '../../../test/support/route-samples';
import { bearer } from '../../../test/support/test-app';
import { useLogins, useTestApp } from '../../../test/support/use-test-app';
import { userAbilities, users } from '../../db/schema';

const URL = '/api/limited/invoices/pdf';

describe('POST /api/limited/invoices/pdf: one PDF of the chosen invoices', () => {
  const t = useTestApp();
  const who = useLogins(t, { demo: 'demo', other: 'demo-other' });
  /** Invoice id by number: three of Demo Bygg AB's, one of Annan Firma Oy's. */
  const ids: Record<string, string> = {};

  const createInvoice = async (
    token: string,
    invoiceNumber: string,
    extra: Record<string, unknown> = {},
    documentLanguage?: string,
  ) => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/limited/recipients',
      headers: bearer(token),
      payload: { ...VALID_RECIPIENT_BODY, name: `Kund ${invoiceNumber} AB`, documentLanguage },
    });
    const recipientID = recipientSchema.parse(r.json()).recipientID;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/limited/invoices',
      headers: bearer(token),
      payload: { ...VALID_INVOICE_BODY, recipientID, invoiceNumber, ...extra },
    });
    expect(res.statusCode, res.body).toBe(200);
    ids[invoiceNumber] = invoiceDetailSchema.parse(res.json()).invoiceID;
  };

  const post = (token: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url: URL, headers: bearer(token), payload: payload as object });

  const singlePageCount = async (id: string) => {
    const res = await t.app.inject({ url: `/api/limited/invoices/${id}/pdf`, headers: bearer(who.demo) });
    expect(res.statusCode).toBe(200);
    return (await PDFDocument.load(res.rawPayload)).getPageCount();
  };

  beforeAll(async () => {
    // SAMLA-1's recipient gets its documents in Swedish (its country's), the others' in English.
    await createInvoice(who.demo, 'SAMLA-1');
    // Enough rows for a second and a third page (the slip's own), so that page numbering per invoice is exercised.
    await createInvoice(
      who.demo,
      'SAMLA-2',
      {
        rows: Array.from({ length: 70 }, (_, i) => ({
          name: `Rad ${i + 1}`,
          quantityMilli: 1000,
          unit: 'st',
          unitPriceMinor: 10_000,
          vatBasisPoints: 2500,
        })),
      },
      'en-US',
    );
    await createInvoice(who.demo, 'SAMLA-3', {}, 'en-US');
    await createInvoice(who.other, 'ANNAN-1', {
      currency: 'EUR',
      rows: [{ name: 'Työ', quantityMilli: 1000, unit: 'h', unitPriceMinor: 5_000, vatBasisPoints: 2550 }],
    });
  });

  it('answers one real PDF with every invoice, in the order given, each numbering its own pages', async () => {
    const chosen = [ids['SAMLA-3'], ids['SAMLA-1'], ids['SAMLA-2'], ids['SAMLA-1']] as string[];
    const res = await post(who.demo, { invoiceIDs: chosen, language: 'en-US' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('fakturor-2026-03-02.pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    // pdf-lib opens it, and it has exactly the pages of the three invoices' own PDFs (the repeat once).
    const doc = await PDFDocument.load(res.rawPayload);
    const own = await Promise.all(
      ['SAMLA-3', 'SAMLA-1', 'SAMLA-2'].map((n) => singlePageCount(ids[n] ?? '')),
    );
    expect(own).toEqual([1, 1, 3]);
    expect(doc.getPageCount()).toBe(5);
    expect(doc.getTitle()).toBe('Invoices (3)');

    // An independent reader (pdf.js) finds each number, in the order asked for, each invoice in its
    // recipient's language: SAMLA-1 in Swedish, the others in English; the file's title in the one asked.
    const { pages, text } = await pdfText(res.rawPayload);
    expect(pages).toBe(5);
    const at = (s: string) => text.indexOf(s);
    expect(at('SAMLA-3')).toBeGreaterThanOrEqual(0);
    expect(at('SAMLA-1')).toBeGreaterThan(at('SAMLA-3'));
    expect(at('SAMLA-2')).toBeGreaterThan(at('SAMLA-1'));
    for (const part of [
      'Kund SAMLA-2 AB',
      'Amount due',
      'Att betala',
      'Sida 1 av 1',
      'Page 1 of 1',
      'Page 3 of 3',
    ])
      expect(text, part).toContain(part);
    expect(text).not.toContain('of 5');
  });

  it('draws the invoice in its recipient’s language, and names a one-invoice file by its number', async () => {
    const res = await post(who.demo, { invoiceIDs: [ids['SAMLA-1']] });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('faktura-SAMLA-1.pdf');
    const { pages, text } = await pdfText(res.rawPayload);
    expect(pages).toBe(1);
    expect(text).toContain('SAMLA-1');
    expect(text).toContain('Att betala');
    // The slip names Demo Bygg AB's own collection bankgiro, where its payments are matched.
    expect(text).toContain('505-0109');
    expect(text).not.toContain('5050-1055');
  });

  it(`answers 422 invoices.too_many_records beyond ${INVOICES_PDF_MAX} invoices`, async () => {
    const many = Array.from({ length: INVOICES_PDF_MAX + 1 }, () => randomUUID());
    const res = await post(who.demo, { invoiceIDs: many });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ code: 'invoices.too_many_records' });
    // Repeats count once: the same invoice many times is one invoice.
    const repeated = Array.from({ length: INVOICES_PDF_MAX + 1 }, () => ids['SAMLA-1']);
    expect((await post(who.demo, { invoiceIDs: repeated })).statusCode).toBe(200);
  });

  it('refuses an empty list and ids that are not ids', async () => {
    const empty = await post(who.demo, { invoiceIDs: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({
      code: 'validation.invalid',
      issues: [{ path: 'invoiceIDs', code: 'validation.select_at_least_one' }],
    });
    expect((await post(who.demo, {})).statusCode).toBe(400);
    expect((await post(who.demo, { invoiceIDs: ['SAMLA-1'] })).statusCode).toBe(400);
  });

  it('answers 404 invoices.not_found and draws nothing when one id is another issuer’s or unknown', async () => {
    for (const stranger of [ids['ANNAN-1'], randomUUID()]) {
      const res = await post(who.demo, { invoiceIDs: [ids['SAMLA-1'], stranger] });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ code: 'invoices.not_found' });
      expect(res.body).not.toContain('%PDF');
    }
    // And the other way round: Annan Firma Oy cannot draw Demo Bygg AB's invoice.
    const res = await post(who.other, { invoiceIDs: [ids['ANNAN-1'], ids['SAMLA-1']] });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('SAMLA');
    expect((await post(who.other, { invoiceIDs: [ids['ANNAN-1']] })).statusCode).toBe(200);
  });

  it('answers 403 auth.forbidden to a user without any of the invoice abilities', async () => {
    const limited = await t.login('demo-limited');
    // demo-limited has limited_invoices, which is enough.
    expect((await post(limited, { invoiceIDs: [ids['SAMLA-1']] })).statusCode).toBe(200);
    const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'demo-limited'));
    await t.db.delete(userAbilities).where(eq(userAbilities.userId, user?.id ?? ''));
    const res = await post(limited, { invoiceIDs: [ids['SAMLA-1']] });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 'auth.forbidden' });
  });
});
