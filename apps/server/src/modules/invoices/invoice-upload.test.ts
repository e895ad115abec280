import {
  invoiceDetailSchema,
  invoiceFileSchema,
  listPendingInvoicesResponseSchema,
  recipientSchema,
  sendInvoicesResponseSchema,
} from '@portal/contracts';
import { computeInvoiceTotals } from '@portal/domain/invoice-totals';
import { createOcrReference } from '@portal/domain/ocr-reference';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { samplePdf } from '../../../test/support/factories';
import { INVOICE_TERMS, VALID_RECIPIENT_BODY } from '../../../test/support/route-samples';
import { bearer } from '../../../test/support/test-app';
import { useLogins, useTestApp } from '../../../test/support/use-test-app';
import {
  invoiceEvents,
  invoiceFiles,
  invoiceRows,
  invoices,
  issuerCounters,
  issuers,
  users,
} from '../../db/schema';

describe('register by upload (POST limited/invoices/upload)', () => {
  const t = useTestApp({ resetEach: true });
  const who = useLogins(t, { demo: 'demo', other: 'demo-other', limited: 'demo-limited' }, { each: true });

  const uploadFile = async (token: string, role: 'invoice' | 'attachment' = 'invoice', bytes?: Buffer) =>
    t.app.inject({
      method: 'POST',
      url: `/api/limited/files?role=${role}&filename=faktura.pdf`,
      headers: { ...bearer(token), 'content-type': 'application/pdf' },
      payload: bytes ?? (await samplePdf('Faktura F-100')),
    });

  async function ownFile(token: string, role: 'invoice' | 'attachment' = 'invoice'): Promise<string> {
    const res = await uploadFile(token, role);
    expect(res.statusCode, res.body).toBe(200);
    return invoiceFileSchema.parse(res.json()).fileID;
  }

  async function recipient(token: string): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/limited/recipients',
      headers: bearer(token),
      payload: { ...VALID_RECIPIENT_BODY, name: 'Uppladdning & Co AB' },
    });
    return recipientSchema.parse(res.json()).recipientID;
  }

  const register = (token: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/limited/invoices/upload',
      headers: { ...bearer(token), ...headers },
      payload,
    });

  async function body(extra: object = {}) {
    return {
      invoiceFileID: await ownFile(who.demo),
      recipientID: await recipient(who.demo),
      invoiceNumber: 'F-100',
      ...INVOICE_TERMS,
      amounts: [
        { vatBasisPoints: 2500, netMinor: 1_234_567 },
        { vatBasisPoints: 600, netMinor: 9_999 },
      ],
      ...extra,
    };
  }

  /**
   * A body of Annan Firma Oy (demo-other): €100 at 25.5 % to a recipient of its own, with a file of its
   * own unless `extra` names another.
   */
  async function otherBody(invoiceNumber: string, extra: { invoiceFileID?: string; ocr?: string } = {}) {
    return {
      invoiceFileID: extra.invoiceFileID ?? (await ownFile(who.other)),
      recipientID: await recipient(who.other),
      invoiceNumber,
      ...INVOICE_TERMS,
      currency: 'EUR',
      ...(extra.ocr === undefined ? {} : { ocr: extra.ocr }),
      amounts: [{ vatBasisPoints: 2550, netMinor: 10_000 }],
    };
  }

  /** `res` is refused with `status` and the error `code`, naming one field issue: `issue` on `path`. */
  function expectFieldRefusal(
    res: Awaited<ReturnType<typeof register>>,
    [status, code]: [number, string],
    path: string,
    issue: string,
  ) {
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ code, issues: [{ path, code: issue }] });
  }

  const counts = async () => ({
    invoices: (await t.db.select().from(invoices)).length,
    rows: (await t.db.select().from(invoiceRows)).length,
    events: (await t.db.select().from(invoiceEvents)).length,
    attached: (await t.db.select().from(invoiceFiles)).filter((f) => f.invoiceId !== null).length,
  });

  it('stores the PDF with one row per VAT rate, totals to the öre and the own OCR; it is pending', async () => {
    const payload = await body({ ocr: '1234 574', orderReference: 'PO-7' });
    const res = await register(who.demo, payload, { 'idempotency-key': 'upload-f-100' });
    expect(res.statusCode, res.body).toBe(200);
    const inv = invoiceDetailSchema.parse(res.json());
    const expected = computeInvoiceTotals(
      payload.amounts.map((a) => ({
        quantity: 1000,
        unitPriceMinor: a.netMinor,
        vatBasisPoints: a.vatBasisPoints,
      })),
    );
    // 12 345,67 × 25 % = 3 086,4175 → 3 086,42; 99,99 × 6 % = 5,9994 → 6,00.
    expect(inv.vat).toEqual([
      { vatBasisPoints: 2500, netMinor: 1_234_567, vatMinor: 308_642 },
      { vatBasisPoints: 600, netMinor: 9_999, vatMinor: 600 },
    ]);
    expect(inv).toMatchObject({
      state: 1,
      ocr: '1234574',
      orderReference: 'PO-7',
      netMinor: expected.netMinor,
      vatMinor: expected.vatMinor,
      grossMinor: 1_244_566 + 309_242,
      toPayMinor: expected.toPayMinor,
      deductionMinor: 0,
    });
    expect(inv.rows.map((r) => [r.name, r.quantityMilli, r.unit, r.unitPriceMinor, r.netMinor])).toEqual([
      ['Enligt bifogad faktura', 1000, 'st', 1_234_567, 1_234_567],
      ['Enligt bifogad faktura', 1000, 'st', 9_999, 9_999],
    ]);
    expect(inv.files).toEqual([expect.objectContaining({ fileID: payload.invoiceFileID, role: 'invoice' })]);
    expect(inv.events.map((e) => e.event)).toEqual([1]);
    const [row] = await t.db.select().from(invoices).where(eq(invoices.id, inv.invoiceID));
    expect(row?.source).toBe('upload');

    // A retry with the same key answers the same and registers nothing twice.
    const before = await counts();
    const again = await register(who.demo, payload, { 'idempotency-key': 'upload-f-100' });
    expect(again.json()).toEqual(res.json());
    expect(await counts()).toEqual(before);

    // It waits on the send page like any registered invoice.
    const pending = listPendingInvoicesResponseSchema.parse(
      (await t.app.inject({ url: '/api/limited/invoices/pending', headers: bearer(who.demo) })).json(),
    );
    expect(pending.items.find((i) => i.invoiceID === inv.invoiceID)).toMatchObject({ ocr: '1234574' });
  });

  it('names the rows in the user’s chosen language, else in the issuer’s country’s', async () => {
    await t.db.update(users).set({ language: 'en-US' }).where(eq(users.username, 'demo'));
    const res = await register(who.demo, await body());
    expect(res.statusCode, res.body).toBe(200);
    expect(invoiceDetailSchema.parse(res.json()).rows.map((r) => r.name)).toEqual([
      'As per the attached invoice',
      'As per the attached invoice',
    ]);
    // Annan Firma Oy is Finnish; its user has chosen no language.
    await t.db.update(users).set({ language: null }).where(eq(users.username, 'demo-other'));
    const finnish = await register(who.other, await otherBody('FI-1'));
    expect(finnish.statusCode, finnish.body).toBe(200);
    expect(invoiceDetailSchema.parse(finnish.json()).rows[0]?.name).toBe('Liitteenä olevan laskun mukaan');
  });

  it('refuses a register-by-upload without a file, and writes nothing', async () => {
    const payload = await body();
    const before = await counts();
    for (const invoiceFileID of [undefined, null, '']) {
      const res = await register(who.demo, { ...payload, invoiceFileID });
      expectFieldRefusal(res, [400, 'invoices.invalid'], 'invoiceFileID', 'files.required');
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses what is not a PDF, and an attachment or a used file as the invoice’s own PDF', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const filesBefore = (await t.db.select().from(invoiceFiles)).length;
    const notPdf = await uploadFile(who.demo, 'invoice', png);
    expect(notPdf.statusCode).toBe(415);
    expect(notPdf.json().code).toBe('files.not_pdf');
    expect(await t.db.select().from(invoiceFiles)).toHaveLength(filesBefore);

    const attachment = await ownFile(who.demo, 'attachment');
    const payload = await body();
    const before = await counts();
    const asOwn = await register(who.demo, { ...payload, invoiceFileID: attachment });
    expectFieldRefusal(asOwn, [404, 'files.not_found'], 'invoiceFileID', 'files.not_found');
    expect(await counts()).toEqual(before);

    expect((await register(who.demo, payload)).statusCode).toBe(200);
    const reused = await register(who.demo, { ...payload, invoiceNumber: 'F-101' });
    expect(reused.statusCode).toBe(404);
    expect(reused.json().code).toBe('files.not_found');
  });

  it('refuses an OCR reference that fails the check digit, on its field', async () => {
    const before = await counts();
    const res = await register(who.demo, await body({ ocr: '1234575' }));
    expectFieldRefusal(res, [400, 'invoices.invalid'], 'ocr', 'validation.ocr_reference');
    expect(await counts()).toEqual(before);
  });

  it('refuses an own OCR reference the issuer already uses, with duplicate_ocr, writing nothing', async () => {
    expect((await register(who.demo, await body({ ocr: '1018966492531' }))).statusCode).toBe(200);
    const before = await counts();
    const dup = await register(who.demo, await body({ invoiceNumber: 'F-200', ocr: '1018 9664 92531' }));
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({
      code: 'invoices.duplicate_ocr',
      issues: [{ path: 'ocr', code: 'invoices.duplicate_ocr' }],
    });
    expect(await counts()).toEqual(before);
    // The duplicate number answers as on the register form.
    const number = await register(who.demo, await body({ ocr: '' }));
    expect(number.statusCode).toBe(409);
    expect(number.json()).toMatchObject({
      code: 'invoices.duplicate_number',
      details: { grossMinor: 1_553_808, currency: 'SEK', recipientName: 'Uppladdning & Co AB' },
    });
    // Another issuer may use the same reference for its own invoice.
    const foreign = await register(who.other, await otherBody('F-100', { ocr: '1018966492531' }));
    expect(foreign.statusCode, foreign.body).toBe(200);
  });

  it('refuses another issuer’s file id as if it did not exist, and leaves the file alone', async () => {
    const foreignFile = await ownFile(who.demo);
    const before = await counts();
    const res = await register(who.other, await otherBody('F-300', { invoiceFileID: foreignFile }));
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('files.not_found');
    expect(await counts()).toEqual(before);
    const [file] = await t.db.select().from(invoiceFiles).where(eq(invoiceFiles.id, foreignFile));
    expect(file?.invoiceId).toBeNull();
  });

  it('needs limited_register_invoice_upload', async () => {
    const res = await register(who.limited, await body());
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('auth.forbidden');
  });

  it('keeps the own OCR when sent; a generated one skips a number a customer already uses', async () => {
    const own = invoiceDetailSchema.parse((await register(who.demo, await body({ ocr: '1234574' }))).json());
    // The next reference the issuer's sequence would make, taken as another invoice's own OCR.
    const [bygg] = await t.db.select().from(issuers).where(eq(issuers.name, 'Demo Bygg AB'));
    const [counter] = await t.db
      .select({ value: issuerCounters.value })
      .from(issuerCounters)
      .where(and(eq(issuerCounters.issuerId, bygg?.id ?? ''), eq(issuerCounters.name, 'ocr')));
    const current = counter?.value ?? 0;
    const taken = createOcrReference(100_000 + current + 1);
    const blocker = invoiceDetailSchema.parse(
      (await register(who.demo, await body({ invoiceNumber: 'F-101', ocr: taken }))).json(),
    );
    const plain = invoiceDetailSchema.parse(
      (await register(who.demo, await body({ invoiceNumber: 'F-102' }))).json(),
    );
    expect(plain.ocr).toBeNull();

    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/limited/invoices/send',
      headers: bearer(who.demo),
      payload: { invoiceIDs: [own.invoiceID, plain.invoiceID] },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const { results } = sendInvoicesResponseSchema.parse(sent.json());
    expect(results.map((r) => [r.invoiceNumber, r.ok, r.state])).toEqual([
      ['F-100', true, 9],
      ['F-102', true, 9],
    ]);
    expect(results[0]?.ocr).toBe('1234574');
    expect(results[1]?.ocr).not.toBe(taken);
    expect(results[1]?.ocr).toBe(createOcrReference(100_000 + current + 2));
    const [stored] = await t.db
      .select({ ocr: invoices.ocr })
      .from(invoices)
      .where(and(eq(invoices.issuerId, bygg?.id ?? ''), eq(invoices.id, own.invoiceID)));
    expect(stored?.ocr).toBe('1234574');
    expect(blocker.ocr).toBe(taken);
  });
});
