import type {
  Ability,
  FeesPreviewResponse,
  ListTransferCostsResponse,
  TransferCostDetail,
} from '@portal/contracts';
import { readBgmax } from '@portal/domain/bgmax';
import { addDays } from '@portal/domain/calendar-date';
import { DEFAULT_REFERENCE_RATE_BP } from '@portal/domain/money-flow';
import { asc, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setAbilities } from '../../../test/support/abilities';
import { freshIssuer, payoutOn, sentInvoices, TEST_OPERATOR } from '../../../test/support/money';
import { bearer } from '../../../test/support/test-app';
import { useTestApp } from '../../../test/support/use-test-app';
import { invoices, issuers, settlementRows, settlements } from '../../db/schema';
import { decideCredit } from '../invoices/invoices.service';
import { checkBooks, runDailyJob } from './money.service';

const t = useTestApp({ resetEach: true });

const payout = (payoutDate?: string) => payoutOn(t, payoutDate);

async function get<T>(
  token: string,
  url: string,
): Promise<{ status: number; body: T; raw: Buffer; headers: Record<string, unknown> }> {
  const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
  return {
    status: res.statusCode,
    body: (res.statusCode === 200 && res.headers['content-type']?.toString().includes('json')
      ? res.json()
      : undefined) as T,
    raw: res.rawPayload,
    headers: res.headers,
  };
}

/** The demo issuer's settlement of `currency` in a payout run, or a failure. */
function ownSettlementOf(run: Awaited<ReturnType<typeof payout>>, issuerId: string, currency = 'SEK') {
  const found = run.settlements.find((s) => s.issuerId === issuerId && s.currency === currency);
  if (!found) throw new Error(`no ${currency} settlement of ${issuerId}`);
  return found;
}

describe('transfer costs (the customer’s settlements)', () => {
  it('lists, opens and pages a settlement; its BGMAX file reads back to exactly its rows, the charge back as a deduction', async () => {
    // An issuer with no history, so that the run's settlement holds exactly this test's rows (Demo
    // Bygg's demo charge backs leave it owing us, and a run settles nothing of an issuer that owes us).
    const { issuer, username, invoicesOf } = await freshIssuer(t);
    const issuerId = issuer.id;
    // Invoices due on this day reach recourse on `day`.
    const dueDate = '2026-04-01';
    const day = addDays(dueDate, issuer.recourseDays);
    const daily = (date: string) =>
      runDailyJob(t.db, {
        date,
        now: new Date(`${date}T05:00:00Z`),
        referenceRateBp: DEFAULT_REFERENCE_RATE_BP,
      });
    const approved = [...(await invoicesOf(1, dueDate)), ...(await invoicesOf(5, addDays(day, 30)))];
    const charged = approved[0];
    if (!charged) throw new Error('six invoices');
    // The first invoice stays unpaid past recourse: the daily job charges it back.
    await daily(day);
    const [after] = await t.db.select().from(invoices).where(eq(invoices.id, charged.id));
    expect(after?.state).toBe(5);

    const run = await payout(day);
    const mine = ownSettlementOf(run, issuerId);
    const stored = await t.db
      .select()
      .from(settlementRows)
      .where(eq(settlementRows.settlementId, mine.settlementId))
      .orderBy(asc(settlementRows.position));
    expect(stored.some((r) => r.kind === 'chargeBack' && r.invoiceId === charged.id && r.netMinor < 0)).toBe(
      true,
    );
    expect(stored.map((r) => r.invoiceId).sort()).toEqual(
      approved
        .map((i) => i.id)
        .concat(charged.id)
        .sort(),
    );
    expect(mine.totalPayoutMinor).toBeGreaterThan(0);

    const token = await t.login(username);
    const list = await get<ListTransferCostsResponse>(
      token,
      '/api/limited/transfercosts?page=1&pageSize=100',
    );
    expect(list.status).toBe(200);
    const listed = list.body.items.find((s) => s.settlementID === mine.settlementId);
    expect(listed).toMatchObject({
      number: mine.number,
      currency: 'SEK',
      payoutDate: day,
      rowCount: stored.length,
      grossMinor: stored.reduce((s, r) => s + r.grossMinor, 0),
      feeMinor: stored.reduce((s, r) => s + r.feeMinor, 0),
      totalPayoutMinor: stored.reduce((s, r) => s + r.netMinor, 0),
    });
    // Newest first.
    const created = list.body.items.map((s) => s.createdDate);
    expect([...created].sort().reverse()).toEqual(created);
    // The created-date filter: the day it was made shows it, the day before does not.
    const createdDate = listed?.createdDate ?? '';
    const on = await get<ListTransferCostsResponse>(
      token,
      `/api/limited/transfercosts?from=${createdDate}&to=${createdDate}&pageSize=100`,
    );
    expect(on.body.items.map((s) => s.settlementID)).toContain(mine.settlementId);
    const before = addDays(createdDate, -1);
    const earlier = await get<ListTransferCostsResponse>(
      token,
      `/api/limited/transfercosts?to=${before}&pageSize=100`,
    );
    expect(earlier.body.items.map((s) => s.settlementID)).not.toContain(mine.settlementId);
    const wrong = await get(token, `/api/limited/transfercosts?from=${createdDate}&to=${before}`);
    expect(wrong.status).toBe(400);

    // The rows, a page at a time, in settlement order.
    const pageSize = 2;
    const seen: TransferCostDetail['rows']['items'] = [];
    for (let page = 1; page <= Math.ceil(stored.length / pageSize); page++) {
      const detail = await get<TransferCostDetail>(
        token,
        `/api/limited/transfercosts/${mine.settlementId}?page=${page}&pageSize=${pageSize}`,
      );
      expect(detail.status).toBe(200);
      expect(detail.body.rows.total).toBe(stored.length);
      expect(detail.body.settlement.settlementID).toBe(mine.settlementId);
      seen.push(...detail.body.rows.items);
    }
    expect(seen.map((r) => [r.invoiceID, r.kind, r.grossMinor, r.feeMinor, r.netMinor])).toEqual(
      stored.map((r) => [r.invoiceId, r.kind, r.grossMinor, r.feeMinor, r.netMinor]),
    );
    expect(seen.find((r) => r.invoiceID === charged.id && r.kind === 'chargeBack')?.invoiceNumber).toBe(
      charged.invoiceNumber,
    );

    // The BGMAX file: one deposit of the total payout, a TK20 per positive row, a TK21 per negative one.
    const file = await get(token, `/api/limited/transfercosts/${mine.settlementId}/bgmax`);
    expect(file.status).toBe(200);
    expect(String(file.headers['content-disposition'])).toContain('attachment');
    expect(String(file.headers['content-disposition'])).toContain(String(mine.number));
    const parsed = readBgmax(new Uint8Array(file.raw));
    expect(parsed.file.sections).toHaveLength(1);
    const section = parsed.file.sections[0];
    const rowInvoices = await t.db
      .select()
      .from(invoices)
      .where(
        inArray(
          invoices.id,
          stored.flatMap((r) => (r.invoiceId ? [r.invoiceId] : [])),
        ),
      );
    const referenceOf = (id: string | null) => {
      const inv = rowInvoices.find((i) => i.id === id);
      return inv?.ocr ?? inv?.invoiceNumber ?? '';
    };
    const expected = stored
      .filter((r) => r.netMinor !== 0)
      .map((r) =>
        [r.netMinor > 0 ? 'payment' : 'deduction', referenceOf(r.invoiceId), Math.abs(r.netMinor)].join('|'),
      )
      .sort();
    expect(section?.payments.map((p) => [p.kind, p.reference, p.amountMinor].join('|')).sort()).toEqual(
      expected,
    );
    expect(
      section?.payments.some((p) => p.kind === 'deduction' && p.reference === referenceOf(charged.id)),
    ).toBe(true);
    expect(section?.deposit.amountMinor).toBe(listed?.totalPayoutMinor);
    expect(section?.deposit.currency).toBe('SEK');
    expect(section?.deposit.paymentCount).toBe(expected.length);

    expect(await checkBooks(t.db, issuerId)).toEqual([]);
  });

  it('another issuer’s settlement answers 404, in the list it is absent', async () => {
    await payout();
    const approved = await sentInvoices(t, { n: 1, service: 'factoring', approve: true });
    const mine = ownSettlementOf(await payout(), approved[0]?.issuerId ?? '');
    const [other] = await t.db.select().from(settlements).where(eq(settlements.id, mine.settlementId));
    expect(other).toBeDefined();
    const token = await t.login('demo-other');
    {
      for (const url of [
        `/api/limited/transfercosts/${mine.settlementId}`,
        `/api/limited/transfercosts/${mine.settlementId}/bgmax`,
      ]) {
        expect((await get(token, url)).status).toBe(404);
      }
      const list = await get<ListTransferCostsResponse>(token, '/api/limited/transfercosts?pageSize=100');
      expect(list.body.items.map((s) => s.settlementID)).not.toContain(mine.settlementId);
    }
  });
});

describe('the settlement as a BGMAX file', () => {
  it('has none for an issuer without a bankgiro: 409 settlements.no_bankgiro, never a made-up payee', async () => {
    await payout();
    const approved = await sentInvoices(t, { n: 1, service: 'factoring', approve: true });
    const issuerId = approved[0]?.issuerId ?? '';
    const mine = ownSettlementOf(await payout(), issuerId);
    const token = await t.login('demo');
    const url = `/api/limited/transfercosts/${mine.settlementId}/bgmax`;
    expect((await get(token, url)).status).toBe(200);
    await t.db.update(issuers).set({ collectionBankgiro: null }).where(eq(issuers.id, issuerId));
    const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'settlements.no_bankgiro' });
  });
});

describe('fee preview', () => {
  it('shows before sending exactly what the payout run then pays, per invoice and per currency', async () => {
    await payout();
    const sek = await sentInvoices(t, { n: 2, service: 'factoring' });
    const eur = await sentInvoices(t, { n: 1, service: 'factoring', currency: 'EUR' });
    const ids = [...sek, ...eur].map((i) => i.id);
    const token = await t.login('demo');
    const res = await t.call(token, 'POST', '/api/limited/invoices/fees-preview', { invoiceIDs: ids });
    expect(res.statusCode).toBe(200);
    const preview = res.json() as FeesPreviewResponse;
    expect(preview.items.map((i) => i.invoiceID).sort()).toEqual([...ids].sort());
    for (const item of preview.items) {
      expect(item.financed).toBe(true);
      expect(item.feeMinor).toBeGreaterThan(0);
      expect(item.netMinor).toBe(item.grossMinor - item.feeMinor);
    }
    for (const currency of ['SEK', 'EUR']) {
      const of = preview.items.filter((i) => i.currency === currency);
      expect(preview.totals.find((x) => x.currency === currency)).toEqual({
        currency,
        grossMinor: of.reduce((s, i) => s + i.grossMinor, 0),
        feeMinor: of.reduce((s, i) => s + i.feeMinor, 0),
        netMinor: of.reduce((s, i) => s + i.netMinor, 0),
      });
    }

    // Approved now, paid out by the next run: each row is what the preview said, to the öre.
    for (const id of ids)
      await decideCredit(t.db, TEST_OPERATOR, id, { decision: 'approved' }, t.clock.now(), '127.0.0.1');
    await payout();
    const paid = await t.db.select().from(settlementRows).where(inArray(settlementRows.invoiceId, ids));
    expect(paid.map((r) => [r.invoiceId, r.kind, r.grossMinor, r.feeMinor, r.netMinor]).sort()).toEqual(
      preview.items.map((i) => [i.invoiceID, 'payout', i.grossMinor, i.feeMinor, i.netMinor]).sort(),
    );
  });

  it('leaves out another issuer’s invoices and refuses more than 200', async () => {
    const [mine] = await sentInvoices(t, { n: 1, service: 'factoring' });
    const token = await t.login('demo');
    const other = await t.db.select().from(invoices).where(eq(invoices.state, 9));
    const foreign = other.find((i) => i.issuerId !== mine?.issuerId);
    const ids = [mine?.id ?? '', ...(foreign ? [foreign.id] : [])];
    const res = await t.call(token, 'POST', '/api/limited/invoices/fees-preview', { invoiceIDs: ids });
    expect((res.json() as FeesPreviewResponse).items.map((i) => i.invoiceID)).toEqual([mine?.id]);
    const many = Array.from({ length: 201 }, () => mine?.id ?? '');
    const tooMany = await t.call(token, 'POST', '/api/limited/invoices/fees-preview', { invoiceIDs: many });
    expect(tooMany.statusCode).toBe(400);
  });
});

describe('who opens transfer costs (spec §6: limited_invoices or limited_transfercosts)', () => {
  it('answers either key, as the menu offers it, and refuses a user with neither', async () => {
    const token = await t.login('demo-limited');
    const cases: [Ability[], number][] = [
      [['limited_invoices'], 200],
      [['limited_transfercosts'], 200],
      [['limited_send_invoice'], 403],
    ];
    for (const [abilities, status] of cases) {
      await setAbilities(t.db, 'demo-limited', abilities);
      const list = await get<ListTransferCostsResponse>(token, '/api/limited/transfercosts');
      expect(list.status, abilities.join()).toBe(status);
    }
  });
});
