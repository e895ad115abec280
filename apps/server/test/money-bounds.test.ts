import {
  importPreviewResponseSchema,
  invoiceDetailSchema,
  MAX_INVOICE_TOTAL_MINOR,
  sendInvoicesResponseSchema,
} from '@portal/contracts';
import { eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { invoices } from '../src/db/schema';
import { INVOICE_TERMS, invoiceBodyFor, VALID_INVOICE_BODY } from './support/route-samples';
import { bearer } from './support/test-app';
import { useRecipient, useSignedInApp } from './support/use-test-app';

/**
 * Issue #10: money stays in range. One documented maximum per invoice total, quantities and prices
 * bounded, and no invoice with a negative or zero total (a credit is a credit note, docs/MONEY.md).
 */
describe('money bounds of an invoice', () => {
  const { t, who: user } = useSignedInApp({ demo: 'demo' });
  const recipientID = useRecipient(t, () => user.demo, {
    name: 'Gränsfall AB',
    organizationNumber: '559123-4561',
  });
  /** A private person: ROT and RUT are for no one else. */
  const personID = useRecipient(t, () => user.demo, { name: 'Greta Gräns', organizationNumber: '' });

  const call = (method: 'POST' | 'PUT', url: string, payload: object) =>
    t.call(user.demo, method, url, payload);
  const row = VALID_INVOICE_BODY.rows[0];
  const body = (invoiceNumber: string, extra: object = {}) =>
    invoiceBodyFor(recipientID(), invoiceNumber, extra);

  it('refuses the 1e9 × 1e9 row of the report (1.25e15 öre) with a field issue on the rows, storing nothing', async () => {
    for (let i = 0; i < 8; i++) {
      const res = await call(
        'POST',
        '/api/limited/invoices',
        body(`BIG-${i}`, {
          rows: [{ ...row, quantityMilli: 1_000_000_000, unitPriceMinor: 1_000_000_000 }],
        }),
      );
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().issues).toContainEqual({ path: 'rows', code: 'validation.invoice_total_range' });
    }
    // 200 rows each below the maximum whose sum is above it.
    const many = Array.from({ length: 200 }, () => ({
      ...row,
      quantityMilli: 1000,
      unitPriceMinor: 50_000_000,
    }));
    const res = await call('POST', '/api/limited/invoices', body('BIG-MANY', { rows: many }));
    expect(res.statusCode).toBe(400);
    expect(res.json().issues).toContainEqual({ path: 'rows', code: 'validation.invoice_total_range' });
    expect(await t.db.select().from(invoices).where(like(invoices.invoiceNumber, 'BIG-%'))).toEqual([]);
  });

  it('takes an invoice of exactly the maximum total, and refuses one öre more', async () => {
    // 8 × 10 000 000,00 at 25 % = 100 000 000,00 incl. VAT.
    const atMax = [{ ...row, quantityMilli: 8000, unitPriceMinor: 1_000_000_000, vatBasisPoints: 2500 }];
    const ok = await call('POST', '/api/limited/invoices', body('MAX-1', { rows: atMax }));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(invoiceDetailSchema.parse(ok.json()).grossMinor).toBe(MAX_INVOICE_TOTAL_MINOR);
    const over = [...atMax, { ...row, quantityMilli: 1000, unitPriceMinor: 1, vatBasisPoints: 0 }];
    const res = await call('POST', '/api/limited/invoices', body('MAX-2', { rows: over }));
    expect(res.statusCode).toBe(400);
    expect(res.json().issues).toContainEqual({ path: 'rows', code: 'validation.invoice_total_range' });
  });

  it('refuses a negative or zero total for every service, on register and on edit', async () => {
    const credit = [{ ...row, quantityMilli: 1000, unitPriceMinor: -10_000_000 }];
    const zero = [
      { ...row, quantityMilli: 1000, unitPriceMinor: 10_000 },
      { ...row, quantityMilli: 1000, unitPriceMinor: -10_000 },
    ];
    let n = 0;
    for (const service of ['factoring', 'nonRecourseFactoring', 'invoicingService']) {
      for (const rows of [credit, zero]) {
        n++;
        const res = await call('POST', '/api/limited/invoices', body(`NEG-${n}`, { service, rows }));
        expect(res.statusCode, `${service} ${res.body}`).toBe(400);
        expect(res.json().issues).toContainEqual({ path: 'rows', code: 'validation.invoice_total_positive' });
      }
    }
    const created = await call('POST', '/api/limited/invoices', body('NEG-EDIT'));
    expect(created.statusCode).toBe(200);
    const { invoiceID } = invoiceDetailSchema.parse(created.json());
    const edit = await call('PUT', `/api/limited/invoices/${invoiceID}`, body('NEG-EDIT', { rows: credit }));
    expect(edit.statusCode).toBe(400);
    expect(edit.json().issues).toContainEqual({ path: 'rows', code: 'validation.invoice_total_positive' });
    const [kept] = await t.db.select().from(invoices).where(eq(invoices.id, invoiceID));
    expect(kept?.grossMinor).toBeGreaterThan(0);
  });

  it('refuses an invoice whose ROT/RUT deduction leaves nothing or less to pay', async () => {
    // Labour 1 000,00 + VAT = 1 250,00, RUT 50 % = 625,00; a discount row takes the total to 125,00.
    const rows = [
      { ...row, quantityMilli: 1000, unitPriceMinor: 100_000, rotRut: true },
      { ...row, name: 'Rabatt', quantityMilli: 1000, unitPriceMinor: -90_000 },
    ];
    const rotRut = {
      type: 'rut',
      personalNumber: '19811218-9876',
      propertyDesignation: '',
      housingCoopNumber: '',
    };
    const res = await call(
      'POST',
      '/api/limited/invoices',
      body('RUT-NEG', { rows, rotRut, recipientID: personID() }),
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'invoices.invalid',
      issues: [{ path: 'rows', code: 'validation.invoice_total_positive' }],
    });
  });

  it('refuses to send an invoice whose stored total is out of range (written before the bounds)', async () => {
    const created = await call('POST', '/api/limited/invoices', body('SEND-NEG'));
    const { invoiceID } = invoiceDetailSchema.parse(created.json());
    const good = invoiceDetailSchema.parse(
      (await call('POST', '/api/limited/invoices', body('SEND-OK'))).json(),
    );
    // As the −125 000 SEK factoring invoice of the report was stored.
    await t.db
      .update(invoices)
      .set({ grossMinor: -12_500_000, toPayMinor: -12_500_000, remainingMinor: -12_500_000 })
      .where(eq(invoices.id, invoiceID));
    const res = await call('POST', '/api/limited/invoices/send', { invoiceIDs: [invoiceID, good.invoiceID] });
    expect(res.statusCode, res.body).toBe(200);
    const { results } = sendInvoicesResponseSchema.parse(res.json());
    expect(results.find((r) => r.invoiceID === invoiceID)).toMatchObject({
      ok: false,
      state: 1,
      code: 'invoices.invalid_total',
    });
    expect(results.find((r) => r.invoiceID === good.invoiceID)).toMatchObject({ ok: true });
    const [kept] = await t.db.select().from(invoices).where(eq(invoices.id, invoiceID));
    expect(kept).toMatchObject({ state: 1, ocr: null });
  });

  it('refuses upload amounts whose total is above the maximum', async () => {
    const res = await call('POST', '/api/limited/invoices/upload', {
      invoiceFileID: '3c1f8e2a-6b7d-4e59-8a21-9f0d4c3b2a10',
      recipientID: recipientID(),
      invoiceNumber: 'UP-BIG',
      ...INVOICE_TERMS,
      amounts: [
        { vatBasisPoints: 2500, netMinor: 1_000_000_000 },
        { vatBasisPoints: 1200, netMinor: 1_000_000_000 },
        { vatBasisPoints: 600, netMinor: 1_000_000_000 },
        { vatBasisPoints: 0, netMinor: 1_000_000_000 },
        { vatBasisPoints: 2400, netMinor: 1_000_000_000 },
        { vatBasisPoints: 1400, netMinor: 1_000_000_000 },
        { vatBasisPoints: 1000, netMinor: 1_000_000_000 },
        { vatBasisPoints: 1, netMinor: 1_000_000_000 },
        { vatBasisPoints: 2550, netMinor: 1_000_000_000 },
        { vatBasisPoints: 1350, netMinor: 1_000_000_000 },
      ],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().issues).toContainEqual({ path: 'amounts', code: 'validation.invoice_total_range' });
  });

  it('marks spreadsheet lines whose amounts are out of range, and registers none of them', async () => {
    const file = [
      'invoiceNumber;recipientOrganizationNumber;invoiceDate;dueDate;service;currency;description;quantity;unit;unitPrice;vatPercent',
      // 999 999 999 units: above the largest quantity (1 000 000).
      'IMPB-1;559123-4561;2026-03-01;2026-03-31;factoring;SEK;Skruv;999999999;st;1;25',
      // Each figure within its bound, the total (1 000 000 × 9 000 000,00) far above the maximum.
      'IMPB-2;559123-4561;2026-03-01;2026-03-31;factoring;SEK;Konsult;1000000;h;9000000;25',
      // A credit as an invoice.
      'IMPB-3;559123-4561;2026-03-01;2026-03-31;factoring;SEK;Kredit;1;st;-125000;25',
      'IMPB-4;559123-4561;2026-03-01;2026-03-31;factoring;SEK;Arbete;1;st;1000;25',
    ].join('\r\n');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/limited/invoices/import/preview?format=csv',
      headers: { ...bearer(user.demo), 'content-type': 'text/csv' },
      payload: Buffer.from(file),
    });
    expect(res.statusCode, res.body).toBe(200);
    const preview = importPreviewResponseSchema.parse(res.json());
    expect(preview).toMatchObject({ valid: 1, invalid: 3 });
    const codes = (n: string) =>
      preview.invoices.find((i) => i.invoiceNumber === n)?.issues.map((i) => i.code);
    expect(codes('IMPB-1')).toContain('validation.amount_range');
    expect(codes('IMPB-2')).toContain('validation.invoice_total_range');
    expect(codes('IMPB-3')).toContain('validation.invoice_total_positive');
    expect(codes('IMPB-4')).toEqual([]);
  });
});
