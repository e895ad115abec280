import {
  INVOICE_FILTERS,
  invoiceDetailSchema,
  listInvoicesResponseSchema,
  recipientSchema,
  sendInvoicesResponseSchema,
} from '@portal/contracts';
import { isValidOcrReference } from '@portal/domain/ocr-reference';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  invoiceBodyFor,
  VALID_INVOICE_BODY,
  VALID_RECIPIENT_BODY,
} from '../../../test/support/route-samples';
import { useRecipient, useSignedInApp } from '../../../test/support/use-test-app';
import { invoiceRows, invoices } from '../../db/schema';

describe('invoices', () => {
  const { t, who: user } = useSignedInApp({ demo: 'demo', other: 'demo-other', limited: 'demo-limited' });
  const recipientID = useRecipient(t, () => user.demo);

  const body = (invoiceNumber: string, extra: object = {}) =>
    invoiceBodyFor(recipientID(), invoiceNumber, extra);

  it('registers a pending invoice with totals to the öre and a timeline', async () => {
    const res = await t.call(user.demo, 'POST', '/api/limited/invoices', body('5001'));
    expect(res.statusCode, res.body).toBe(200);
    const inv = invoiceDetailSchema.parse(res.json());
    // 8 h × 650,00 = 5 200,00 at 25 %; 1 × 123,45 at 12 %.
    expect(inv.rows.map((r) => r.netMinor)).toEqual([520_000, 12_345]);
    expect(inv.vat).toEqual([
      { vatBasisPoints: 2500, netMinor: 520_000, vatMinor: 130_000 },
      { vatBasisPoints: 1200, netMinor: 12_345, vatMinor: 1481 },
    ]);
    expect(inv).toMatchObject({
      state: 1,
      netMinor: 532_345,
      vatMinor: 131_481,
      grossMinor: 663_826,
      toPayMinor: 663_826,
      ocr: null,
    });
    expect(inv.events.map((e) => e.event)).toEqual([1]);
  });

  it('refuses a duplicate number with the existing invoice facts, and writes nothing', async () => {
    const before = (await t.db.select().from(invoices)).length;
    const res = await t.call(user.demo, 'POST', '/api/limited/invoices', body('5001'));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'invoices.duplicate_number',
      details: {
        grossMinor: 663_826,
        currency: 'SEK',
        recipientName: VALID_RECIPIENT_BODY.name,
        invoiceDate: '2026-03-02',
      },
    });
    expect(await t.db.select().from(invoices)).toHaveLength(before);
  });

  it('refuses bad input with field issues: no rows, foreign VAT rate, currency, due date, float price', async () => {
    const cases: [object, string, string][] = [
      [body('6001', { rows: [] }), 'rows', 'validation.rows_required'],
      [body('6002', { currency: 'NOK' }), 'currency', 'invoices.invalid_currency'],
      [body('6003', { dueDate: '2026-03-01' }), 'dueDate', 'validation.due_before_invoice_date'],
      [
        body('6004', { rows: [{ ...VALID_INVOICE_BODY.rows[0], vatBasisPoints: 2550 }] }),
        'rows.0.vatBasisPoints',
        'invoices.invalid_vat_rate',
      ],
      [
        body('6005', { rows: [{ ...VALID_INVOICE_BODY.rows[0], unitPriceMinor: 1.5 }] }),
        'rows.0.unitPriceMinor',
        'validation.whole_minor_units',
      ],
    ];
    for (const [payload, path, code] of cases) {
      const res = await t.call(user.demo, 'POST', '/api/limited/invoices', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().issues).toContainEqual({ path, code });
    }
    const numbers = (await t.db.select({ n: invoices.invoiceNumber }).from(invoices)).map((r) => r.n);
    expect(numbers.filter((n) => n.startsWith('600'))).toEqual([]);
  });

  it('computes the RUT deduction on labour rows and checks the buyer', async () => {
    const rut = {
      type: 'rut',
      personalNumber: '19811218-9876',
      propertyDesignation: '',
      housingCoopNumber: '',
    };
    // A wrong check digit; a blank buyer is a missing one (spec §5 "Required"), as the invoice form says
    // (@portal/domain/rot-rut).
    for (const [personalNumber, code] of [
      ['19811218-9875', 'validation.personal_number'],
      ['  ', 'validation.required'],
    ]) {
      const bad = await t.call(
        user.demo,
        'POST',
        '/api/limited/invoices',
        body('5100', { rotRut: { ...rut, personalNumber } }),
      );
      expect(bad.statusCode, personalNumber).toBe(400);
      expect(bad.json().issues).toContainEqual({ path: 'rotRut.personalNumber', code });
    }
    const rows = [{ ...VALID_INVOICE_BODY.rows[0], rotRut: true }, VALID_INVOICE_BODY.rows[1]];
    const res = await t.call(user.demo, 'POST', '/api/limited/invoices', body('5100', { rotRut: rut, rows }));
    expect(res.statusCode, res.body).toBe(200);
    const inv = invoiceDetailSchema.parse(res.json());
    // Labour incl. VAT 6 500,00 × 50 % = 3 250,00.
    expect(inv.deductionMinor).toBe(325_000);
    expect(inv.toPayMinor).toBe(inv.grossMinor - 325_000);
  });

  it('refuses ROT and RUT with a company as the buyer, storing nothing (issue #11)', async () => {
    const rows = [{ ...VALID_INVOICE_BODY.rows[0], rotRut: true }, VALID_INVOICE_BODY.rows[1]];
    const rut = {
      type: 'rut',
      personalNumber: '19811218-9876',
      propertyDesignation: '',
      housingCoopNumber: '',
    };
    const companies = [
      { name: 'Bolaget AB', organizationNumber: '556036-0793', vat: '' },
      { name: 'Yritys Oy', organizationNumber: '0737546-2', vat: '' },
      { name: 'Momsbolaget', organizationNumber: '', vat: 'SE556036079301' },
    ];
    for (const [i, company] of companies.entries()) {
      const created = await t.call(user.demo, 'POST', '/api/limited/recipients', {
        ...VALID_RECIPIENT_BODY,
        ...company,
      });
      expect(created.statusCode, created.body).toBe(200);
      const buyer = recipientSchema.parse(created.json()).recipientID;
      const res = await t.call(
        user.demo,
        'POST',
        '/api/limited/invoices',
        body('5159', { recipientID: buyer, rotRut: rut, rows }),
      );
      expect(res.statusCode, company.name).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'invoices.rot_rut_invalid',
        issues: [{ path: 'rotRut.type', code: 'validation.rot_rut_private_buyer' }],
      });
      // Without the deduction the same invoice to the company is fine.
      const plain = await t.call(
        user.demo,
        'POST',
        '/api/limited/invoices',
        body(`516${i}`, { recipientID: buyer }),
      );
      expect(plain.statusCode, plain.body).toBe(200);
    }
    expect(await t.db.select().from(invoices).where(eq(invoices.invoiceNumber, '5159'))).toHaveLength(0);
  });

  it('an Idempotency-Key makes a retried registration return the first invoice', async () => {
    const headers = { 'idempotency-key': 'register-5200-abcdef' };
    const first = await t.call(user.demo, 'POST', '/api/limited/invoices', body('5200'), headers);
    const again = await t.call(user.demo, 'POST', '/api/limited/invoices', body('5200'), headers);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json().invoiceID).toBe(first.json().invoiceID);
    const reused = await t.call(user.demo, 'POST', '/api/limited/invoices', body('5201'), headers);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().code).toBe('idempotency.key_reused');
    expect(await t.db.select().from(invoices).where(eq(invoices.invoiceNumber, '5201'))).toHaveLength(0);
  });

  it('edits a pending invoice, sends it with an OCR reference, and then refuses edits', async () => {
    const created = invoiceDetailSchema.parse(
      (await t.call(user.demo, 'POST', '/api/limited/invoices', body('5300'))).json(),
    );
    const edited = await t.call(
      user.demo,
      'PUT',
      `/api/limited/invoices/${created.invoiceID}`,
      body('5300', { orderReference: 'PO-77', rows: [VALID_INVOICE_BODY.rows[1]] }),
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(invoiceDetailSchema.parse(edited.json())).toMatchObject({
      orderReference: 'PO-77',
      grossMinor: 13_826,
    });
    expect(
      await t.db.select().from(invoiceRows).where(eq(invoiceRows.invoiceId, created.invoiceID)),
    ).toHaveLength(1);

    const queued = invoiceDetailSchema.parse(
      (
        await t.call(
          user.demo,
          'POST',
          '/api/limited/invoices',
          body('5301', { service: 'invoicingService' }),
        )
      ).json(),
    );
    // Sent under one idempotency key, so that a retry can name the same call.
    const sendBoth = () =>
      t.call(
        user.demo,
        'POST',
        '/api/limited/invoices/send',
        { invoiceIDs: [created.invoiceID, queued.invoiceID] },
        { 'idempotency-key': 'send-5300-5301' },
      );
    const sent = await sendBoth();
    expect(sent.statusCode, sent.body).toBe(200);
    const { results } = sendInvoicesResponseSchema.parse(sent.json());
    expect(results.map((r) => [r.invoiceNumber, r.ok, r.state])).toEqual([
      ['5300', true, 9],
      ['5301', true, 6],
    ]);
    for (const r of results) expect(isValidOcrReference(r.ocr ?? '')).toBe(true);
    expect(new Set(results.map((r) => r.ocr)).size).toBe(2);

    // A retry with the same key answers the same and sends nothing twice.
    const retry = await sendBoth();
    expect(retry.json()).toEqual(sent.json());
    const detail = invoiceDetailSchema.parse(
      (await t.call(user.demo, 'GET', `/api/limited/invoices/${created.invoiceID}`)).json(),
    );
    expect(detail.events.map((e) => e.event)).toEqual([1, 18, 15, 17]);

    const again = await t.call(user.demo, 'POST', '/api/limited/invoices/send', {
      invoiceIDs: [created.invoiceID],
    });
    expect(sendInvoicesResponseSchema.parse(again.json()).results[0]).toMatchObject({
      ok: false,
      code: 'invoices.invalid_transition',
    });
    const edit = await t.call(user.demo, 'PUT', `/api/limited/invoices/${created.invoiceID}`, body('5300'));
    expect(edit.statusCode).toBe(409);
    expect(edit.json().code).toBe('invoices.invalid_transition');
    const del = await t.call(user.demo, 'DELETE', `/api/limited/invoices/${created.invoiceID}`);
    expect(del.statusCode).toBe(409);
  });

  it('a duplicate names its source on its timeline; a foreign source is refused', async () => {
    const [source] = await t.db.select().from(invoices).where(eq(invoices.invoiceNumber, '5001'));
    const dup = await t.call(
      user.demo,
      'POST',
      '/api/limited/invoices',
      body('5400', { duplicatedFromID: source?.id }),
    );
    expect(dup.statusCode, dup.body).toBe(200);
    expect(invoiceDetailSchema.parse(dup.json()).events.map((e) => e.event)).toEqual([1, 19]);
    // demo-other, with its own recipient and Finnish rates, may not name Demo Bygg AB's invoice as its source.
    const own = recipientSchema.parse(
      (
        await t.call(user.other, 'POST', '/api/limited/recipients', {
          ...VALID_RECIPIENT_BODY,
          country: 'FI',
        })
      ).json(),
    );
    const foreign = await t.call(user.other, 'POST', '/api/limited/invoices', {
      ...body('5401', { duplicatedFromID: source?.id, currency: 'EUR' }),
      recipientID: own.recipientID,
      rows: [{ ...VALID_INVOICE_BODY.rows[0], vatBasisPoints: 2550 }],
    });
    expect(foreign.statusCode, foreign.body).toBe(404);
    expect(foreign.json().code).toBe('invoices.not_found');
  });

  it('a recipient with invoices cannot be deleted', async () => {
    const res = await t.call(user.demo, 'DELETE', `/api/limited/recipients/${recipientID()}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('recipient.in_use');
  });

  it('sending needs at least one invoice', async () => {
    const res = await t.call(user.demo, 'POST', '/api/limited/invoices/send', { invoiceIDs: [] });
    expect(res.statusCode).toBe(400);
    expect(res.json().issues).toContainEqual({ path: 'invoiceIDs', code: 'validation.select_at_least_one' });
  });

  it('lists with the filters of spec §4, search, sort, pages and totals', async () => {
    const all = listInvoicesResponseSchema.parse(
      (
        await t.call(user.demo, 'GET', '/api/limited/invoices?pageSize=2&sort=invoiceNumber&order=asc')
      ).json(),
    );
    expect(all.items).toHaveLength(2);
    expect(all.total).toBeGreaterThanOrEqual(5);
    expect(all.totals[0]?.currency).toBe('SEK');
    const pendingApproval = listInvoicesResponseSchema.parse(
      (await t.call(user.demo, 'GET', '/api/limited/invoices?filter=pendingApproval&search=5300')).json(),
    );
    expect(pendingApproval.items.map((i) => i.invoiceNumber)).toEqual(['5300']);
    const queued = listInvoicesResponseSchema.parse(
      (await t.call(user.demo, 'GET', '/api/limited/invoices?filter=queued&search=5301')).json(),
    );
    expect(queued.items.map((i) => i.invoiceNumber)).toEqual(['5301']);
    const ocr = queued.items[0]?.ocr ?? '';
    const byOcr = listInvoicesResponseSchema.parse(
      (await t.call(user.demo, 'GET', `/api/limited/invoices?search=${ocr}`)).json(),
    );
    expect(byOcr.items.map((i) => i.invoiceNumber)).toEqual(['5301']);
    const pending = (await t.call(user.demo, 'GET', '/api/limited/invoices/pending')).json();
    expect(pending.total).toBe(pending.items.length);
    const pendingNumbers = pending.items.map((i: { invoiceNumber: string }) => i.invoiceNumber);
    expect(pendingNumbers).toEqual(expect.arrayContaining(['5001', '5100', '5200']));
    expect(pendingNumbers).not.toContain('5300');
    // The suggestion follows the largest number in use (the demo history runs to 10321).
    const next = (await t.call(user.demo, 'GET', '/api/limited/invoices/next-number')).json();
    expect(next.invoiceNumber).toBe('10322');
  });

  it('the kept totals per state agree with adding the invoices up, for every filter', async () => {
    // Every filter the totals are kept for: `overdue` depends on today, so it is always added up.
    for (const filter of INVOICE_FILTERS.filter((f) => f !== 'overdue')) {
      const kept = listInvoicesResponseSchema.parse(
        (await t.call(user.demo, 'GET', `/api/limited/invoices?filter=${filter}`)).json(),
      );
      // A date range sends the list down the path that adds the matching invoices up.
      const summed = listInvoicesResponseSchema.parse(
        (await t.call(user.demo, 'GET', `/api/limited/invoices?filter=${filter}&from=1900-01-01`)).json(),
      );
      expect(kept.totals, filter).toEqual(summed.totals);
      expect(kept.total, filter).toBe(summed.total);
    }
  });

  it('the kept totals of a recipient filter and a search agree with adding the invoices up', async () => {
    // A recipient whose name holds "10", the start of most demo invoice numbers (10001 …): a search
    // for "10" names this recipient and matches numbers of others, and must count each invoice once.
    const r = await t.call(user.demo, 'POST', '/api/limited/recipients', {
      ...VALID_RECIPIENT_BODY,
      name: 'Bygg 10 AB',
    });
    const named = recipientSchema.parse(r.json()).recipientID;
    for (const number of ['1099001', '7700'])
      expect(
        (await t.call(user.demo, 'POST', '/api/limited/invoices', { ...body(number), recipientID: named }))
          .statusCode,
      ).toBe(200);
    for (const query of [
      `search=10`,
      `recipientID=${named}`,
      `recipientID=${named}&search=77`,
      `recipientID=${recipientID()}`,
      'search=Bygg%2010',
    ]) {
      for (const filter of ['all', 'active', 'paid', 'pendingApproval', 'rejected']) {
        const url = `/api/limited/invoices?filter=${filter}&${query}&pageSize=100`;
        const kept = listInvoicesResponseSchema.parse((await t.call(user.demo, 'GET', url)).json());
        const summed = listInvoicesResponseSchema.parse(
          (await t.call(user.demo, 'GET', `${url}&from=1900-01-01`)).json(),
        );
        expect(kept.totals, `${filter} ${query}`).toEqual(summed.totals);
        expect(kept.total, `${filter} ${query}`).toBe(summed.total);
      }
    }
    const search = listInvoicesResponseSchema.parse(
      (await t.call(user.demo, 'GET', '/api/limited/invoices?search=10&pageSize=100')).json(),
    );
    // The named recipient's invoice that also starts with "10" is one invoice, counted once.
    expect(search.total).toBeGreaterThan(100);
    let pages = 0;
    const seen = new Set<string>();
    for (let page = 1; pages < search.total; page++) {
      const p = listInvoicesResponseSchema.parse(
        (await t.call(user.demo, 'GET', `/api/limited/invoices?search=10&pageSize=100&page=${page}`)).json(),
      );
      for (const item of p.items) seen.add(item.invoiceID);
      pages += p.items.length;
      if (p.items.length === 0) break;
    }
    expect(seen.size).toBe(search.total);
    expect(search.totals.reduce((n, c) => n + c.count, 0)).toBe(search.total);
    const named7700 = listInvoicesResponseSchema.parse(
      (await t.call(user.demo, 'GET', `/api/limited/invoices?search=Bygg%2010`)).json(),
    );
    expect(named7700.items.map((i) => i.invoiceNumber).sort()).toEqual(['1099001', '7700']);
  });

  it('abilities: demo-limited may send and read history but not register', async () => {
    expect((await t.call(user.limited, 'POST', '/api/limited/invoices', body('7001'))).statusCode).toBe(403);
    expect((await t.call(user.limited, 'GET', '/api/limited/invoices')).statusCode).toBe(200);
    expect((await t.call(user.limited, 'GET', '/api/limited/invoices/pending')).statusCode).toBe(200);
  });

  it("another issuer gets 404 on Demo Bygg AB's invoices, cannot use its recipient, and lists none of them", async () => {
    const [mine] = await t.db.select().from(invoices).where(eq(invoices.invoiceNumber, '5001'));
    const id = mine?.id ?? '';
    expect((await t.call(user.other, 'GET', `/api/limited/invoices/${id}`)).statusCode).toBe(404);
    expect(
      (
        await t.call(
          user.other,
          'PUT',
          `/api/limited/invoices/${id}`,
          body('5001', { currency: 'EUR', rows: [{ ...VALID_INVOICE_BODY.rows[0], vatBasisPoints: 2550 }] }),
        )
      ).statusCode,
    ).toBe(404);
    expect((await t.call(user.other, 'DELETE', `/api/limited/invoices/${id}`)).statusCode).toBe(404);
    const send = sendInvoicesResponseSchema.parse(
      (await t.call(user.other, 'POST', '/api/limited/invoices/send', { invoiceIDs: [id] })).json(),
    );
    expect(send.results[0]).toMatchObject({ ok: false, code: 'invoices.not_found' });
    const useRecipient = await t.call(
      user.other,
      'POST',
      '/api/limited/invoices',
      body('9001', { currency: 'EUR', rows: [{ ...VALID_INVOICE_BODY.rows[0], vatBasisPoints: 2550 }] }),
    );
    expect(useRecipient.statusCode).toBe(404);
    const list = listInvoicesResponseSchema.parse(
      (await t.call(user.other, 'GET', '/api/limited/invoices?pageSize=100')).json(),
    );
    expect(list.total).toBe(0);
    const [still] = await t.db.select().from(invoices).where(eq(invoices.id, id));
    expect(still?.state).toBe(1);
  });

  it('stamps a new invoice and an edit with the app clock, not the machine clock', async () => {
    const before = t.clock.now();
    t.clock.set(new Date('2027-02-03T10:00:00Z'));
    try {
      // Sessions expire by the same clock: sign in at each time.
      const res = await t.call(await t.login('demo'), 'POST', '/api/limited/invoices', body('5990'));
      expect(res.statusCode, res.body).toBe(200);
      const id = invoiceDetailSchema.parse(res.json()).invoiceID;
      const [made] = await t.db.select().from(invoices).where(eq(invoices.id, id));
      expect(made?.createdAt.toISOString()).toBe('2027-02-03T10:00:00.000Z');
      expect(made?.updatedAt.toISOString()).toBe('2027-02-03T10:00:00.000Z');
      t.clock.set(new Date('2027-02-04T11:30:00Z'));
      const edit = await t.call(
        await t.login('demo'),
        'PUT',
        `/api/limited/invoices/${id}`,
        body('5990', { orderReference: 'PO-9' }),
      );
      expect(edit.statusCode, edit.body).toBe(200);
      const [edited] = await t.db.select().from(invoices).where(eq(invoices.id, id));
      expect(edited?.createdAt.toISOString()).toBe('2027-02-03T10:00:00.000Z');
      expect(edited?.updatedAt.toISOString()).toBe('2027-02-04T11:30:00.000Z');
    } finally {
      t.clock.set(before);
    }
  });
});
