import {
  errorResponseSchema,
  invoiceDetailSchema,
  listPendingInvoicesResponseSchema,
  sendInvoicesResponseSchema,
} from '@portal/contracts';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { invoiceBodyFor } from '../../../test/support/route-samples';
import { bearer } from '../../../test/support/test-app';
import { useRecipient, useSignedInApp } from '../../../test/support/use-test-app';
import { idempotencyKeys, invoiceEvents, invoices } from '../../db/schema';

/**
 * The due-date rule of sending (docs/INVOICES.md "Due dates when sending"): the app's clock starts on
 * 2026-03-02, so a financed invoice due before then has passed and one due before 2026-03-12 (ten
 * days) is too soon. A request with such an invoice sends none of its invoices.
 */
describe('sending refuses financed invoices by due date, all or nothing', () => {
  const { t, who: user } = useSignedInApp({ demo: 'demo' });
  const recipientID = useRecipient(t, () => user.demo);

  const call = (method: 'GET' | 'POST', url: string, payload?: object, headers?: Record<string, string>) =>
    t.call(user.demo, method, url, payload, headers);

  async function register(invoiceNumber: string, extra: object): Promise<string> {
    const res = await call(
      'POST',
      '/api/limited/invoices',
      invoiceBodyFor(recipientID(), invoiceNumber, extra),
    );
    expect(res.statusCode, res.body).toBe(200);
    return invoiceDetailSchema.parse(res.json()).invoiceID;
  }

  /** What the database holds of these invoices: state, OCR reference and how many events each has. */
  async function stored(ids: string[]) {
    const rows = await t.db.select().from(invoices).where(inArray(invoices.id, ids));
    const events = await t.db.select().from(invoiceEvents).where(inArray(invoiceEvents.invoiceId, ids));
    return ids.map((id) => {
      const row = rows.find((r) => r.id === id);
      return { state: row?.state, ocr: row?.ocr, events: events.filter((e) => e.invoiceId === id).length };
    });
  }

  /**
   * Four invoices numbered `<prefix>-1` to `-4`, in this order: one with `fine` terms, one due on
   * `soonDue`, one dated 2026-02-01 and due on `passedDue`, and the same for the invoicing service
   * (which collects, so no due-date rule holds it back).
   */
  async function registerFour(
    prefix: string,
    fine: object,
    soonDue: string,
    passedDue: string,
  ): Promise<[string, string, string, string]> {
    const passedTerms = { invoiceDate: '2026-02-01', dueDate: passedDue };
    return [
      await register(`${prefix}-1`, fine),
      await register(`${prefix}-2`, { dueDate: soonDue }),
      await register(`${prefix}-3`, passedTerms),
      await register(`${prefix}-4`, { service: 'invoicingService', ...passedTerms }),
    ];
  }

  it('flags each pending invoice on the send page list with the rule it breaks', async () => {
    const [ok, soon, passed, collected] = await registerFour(
      'DUE',
      { dueDate: '2026-03-12' },
      '2026-03-11',
      '2026-03-01',
    );
    const res = await call('GET', '/api/limited/invoices/pending?search=DUE-');
    expect(res.statusCode, res.body).toBe(200);
    const byId = new Map(
      listPendingInvoicesResponseSchema.parse(res.json()).items.map((i) => [i.invoiceID, i.sendCode]),
    );
    expect([ok, soon, passed, collected].map((id) => byId.get(id))).toEqual([
      null,
      'invoices.due_date_too_soon',
      'invoices.due_date_passed',
      null,
    ]);
  });

  it('a batch with an invoice due too soon sends none of them and says which', async () => {
    const good = await register('SOON-1', {});
    const soon = await register('SOON-2', { dueDate: '2026-03-05' });
    const before = await stored([good, soon]);
    const res = await call(
      'POST',
      '/api/limited/invoices/send',
      { invoiceIDs: [good, soon] },
      { 'idempotency-key': 'due-soon-batch' },
    );
    expect(res.statusCode, res.body).toBe(422);
    expect(errorResponseSchema.parse(res.json())).toEqual({
      code: 'invoices.due_date_too_soon',
      issues: [{ path: 'invoiceIDs.1', code: 'invoices.due_date_too_soon' }],
      details: { numbers: 'SOON-2', days: 10 },
    });
    // Nothing half-sent: both still pending, no OCR reference, no new event, no stored answer.
    expect(await stored([good, soon])).toEqual(before);
    expect(before.map((b) => [b.state, b.ocr])).toEqual([
      [1, null],
      [1, null],
    ]);
    expect(
      await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'due-soon-batch')),
    ).toHaveLength(0);

    // Without the late one the rest goes.
    const sent = await call('POST', '/api/limited/invoices/send', { invoiceIDs: [good] });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sendInvoicesResponseSchema.parse(sent.json()).results[0]).toMatchObject({ ok: true });
    expect((await stored([soon]))[0]?.state).toBe(1);
  });

  it('a past due date outranks a near one; the issues name every refused invoice', async () => {
    const [good, soon, passed, collected] = await registerFour('PAST', {}, '2026-03-02', '2026-02-27');
    const before = await stored([good, soon, passed, collected]);
    const res = await call('POST', '/api/limited/invoices/send', {
      invoiceIDs: [good, soon, collected, passed],
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(errorResponseSchema.parse(res.json())).toEqual({
      code: 'invoices.due_date_passed',
      issues: [
        { path: 'invoiceIDs.1', code: 'invoices.due_date_too_soon' },
        { path: 'invoiceIDs.3', code: 'invoices.due_date_passed' },
      ],
      details: { numbers: 'PAST-3', days: 10 },
    });
    expect(await stored([good, soon, passed, collected])).toEqual(before);

    // An invoice we only collect is sent whatever its due date.
    const sent = await call('POST', '/api/limited/invoices/send', { invoiceIDs: [collected] });
    expect(sendInvoicesResponseSchema.parse(sent.json()).results[0]).toMatchObject({ ok: true });
  });

  it("counts the days from the server's today: an invoice fine at registering is too soon later", async () => {
    const nine = await register('CLOCK-1', { dueDate: '2026-04-01' });
    const ten = await register('CLOCK-2', { dueDate: '2026-04-02' });
    t.clock.set(new Date('2026-03-23T08:00:00.000Z'));
    const token = await t.login('demo');
    const send = (ids: string[]) =>
      t.app.inject({
        method: 'POST',
        url: '/api/limited/invoices/send',
        headers: bearer(token),
        payload: { invoiceIDs: ids },
      });
    const res = await send([nine, ten]);
    expect(res.statusCode, res.body).toBe(422);
    expect(errorResponseSchema.parse(res.json())).toMatchObject({
      code: 'invoices.due_date_too_soon',
      details: { numbers: 'CLOCK-1' },
    });
    const sent = await send([ten]);
    expect(sendInvoicesResponseSchema.parse(sent.json()).results[0]).toMatchObject({ ok: true });
  });
});
