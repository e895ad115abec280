import { MAX_INVOICE_TOTAL_MINOR, runDailyResponseSchema, runPayoutResponseSchema } from '@portal/contracts';
import { addDays } from '@portal/domain/calendar-date';
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { freshIssuer, sentInvoices, todayOf } from '../../../test/support/money';
import { bearer } from '../../../test/support/test-app';
import { useTestApp } from '../../../test/support/use-test-app';
import { auditLog, invoices, postings, settlements, users } from '../../db/schema';
import { recogniseInvoice } from './money.service';

/**
 * Issue #10: one customer must not be able to stop another. Each issuer's part of a batch (payout run,
 * daily job) runs on its own: a failure is reported with the issuer and its code, the others go
 * through. And the dates of money movement an operator enters must be near today.
 */
const t = useTestApp({ resetEach: true });
let operator: string;
beforeEach(async () => {
  operator = await t.loginOperator();
});

const today = () => todayOf(t);
const post = (url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, headers: bearer(operator), payload });

async function issuerOf(username: string): Promise<string> {
  const [user] = await t.db.select().from(users).where(eq(users.username, username));
  if (!user?.issuerId) throw new Error(`no issuer for ${username}`);
  return user.issuerId;
}

/** The newest audit row of `event`. */
async function latestAudit(event: string) {
  const [row] = await t.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.event, event))
    .orderBy(desc(auditLog.at))
    .limit(1);
  return row;
}

describe('the payout run, issuer by issuer', () => {
  it('pays the other issuers when one issuer’s settlement fails, and reports that one', async () => {
    const fresh = await freshIssuer(t);
    const [bad] = await fresh.invoicesOf(1, '2026-04-01');
    if (!bad) throw new Error('an invoice');
    await sentInvoices(t, { n: 1, service: 'factoring', approve: true });
    const demoIssuer = await issuerOf('demo');
    // As the eight invoices of 1.25e15 öre of the report were booked before the bounds: the issuer's
    // open payable is past the safe-integer range, so its settlement cannot be written.
    await t.db.transaction(async (tx) => {
      for (let i = 0; i < 8; i++)
        await recogniseInvoice(tx, { ...bad, remainingMinor: 1_250_000_000_000_000 }, t.clock.now());
    });

    const res = await post('/api/backoffice/payouts', {});
    expect(res.statusCode, res.body).toBe(200);
    const run = runPayoutResponseSchema.parse(res.json());
    expect(run.failed).toEqual([{ issuerID: fresh.issuer.id, code: 'money.out_of_range' }]);
    expect(run.settlements.map((s) => s.issuerID)).toContain(demoIssuer);
    expect(run.settlements.map((s) => s.issuerID)).not.toContain(fresh.issuer.id);
    // Nothing was written for the failed issuer: its postings wait for the next run.
    expect(await t.db.select().from(settlements).where(eq(settlements.issuerId, fresh.issuer.id))).toEqual(
      [],
    );
    const open = and(
      eq(postings.issuerId, fresh.issuer.id),
      eq(postings.account, 'issuer_payable'),
      isNull(postings.settlementId),
    );
    expect(await t.db.$count(postings, open)).toBe(9);
    // The back office's record of the run names the issuer and the code.
    const audit = await latestAudit('backoffice.payout');
    expect(audit?.details).toMatchObject({
      batchId: run.batchID,
      failed: [expect.objectContaining({ issuerId: fresh.issuer.id, code: 'money.out_of_range' })],
    });
    // The issuer's invoice list still answers.
    const list = await t.app.inject({
      url: '/api/limited/invoices',
      headers: bearer(await t.login(fresh.username)),
    });
    expect(list.statusCode, list.body).toBe(200);
  });
});

describe('the daily job, issuer by issuer', () => {
  it('distributes the other issuers’ queued invoices when one issuer’s distribution fails', async () => {
    const fresh = await freshIssuer(t);
    const [bad] = await sentInvoices(t, { n: 1, service: 'invoicingService', username: fresh.username });
    const [good] = await sentInvoices(t, { n: 1, service: 'invoicingService' });
    if (!bad || !good) throw new Error('two invoices');
    expect([bad.state, good.state]).toEqual([6, 6]);
    // A queued invoice written around the bounds, with an amount past the safe-integer range.
    await t.db
      .update(invoices)
      .set({ remainingMinor: 2 ** 53 + 2, toPayMinor: 2 ** 53 + 2 })
      .where(eq(invoices.id, bad.id));

    const res = await post('/api/backoffice/daily', { date: addDays(today(), 1) });
    expect(res.statusCode, res.body).toBe(200);
    const result = runDailyResponseSchema.parse(res.json());
    expect(result.failures).toEqual([
      { issuerID: fresh.issuer.id, invoiceID: null, planID: null, code: 'money.out_of_range' },
    ]);
    const states = await t.db
      .select({ id: invoices.id, state: invoices.state })
      .from(invoices)
      .where(inArray(invoices.id, [bad.id, good.id]));
    expect(states).toContainEqual({ id: good.id, state: 2 });
    expect(states).toContainEqual({ id: bad.id, state: 6 });
    expect(result.distributed).toBeGreaterThanOrEqual(1);
    const audit = await latestAudit('backoffice.daily_job');
    expect(audit?.details).toMatchObject({
      failures: [expect.objectContaining({ issuerId: fresh.issuer.id, code: 'money.out_of_range' })],
    });
  });
});

// 9999-12-31 is refused earlier, by the contracts' date type (1900-2199; input.test.ts): the far
// dates here are ones that type takes.
describe('dates of money movement near today', () => {
  it.each([
    ...['2199-12-31', 'back', 'ahead'].map((which) => ['/api/backoffice/payouts', 'payoutDate', which]),
    ...['2199-12-31', 'back'].map((which) => ['/api/backoffice/daily', 'date', which]),
  ])('%s refuses %s %s with money.date_out_of_range, writing nothing', async (url, field, which) => {
    const date = which === 'back' ? addDays(today(), -31) : which === 'ahead' ? addDays(today(), 366) : which;
    const before = await t.db.select().from(settlements);
    const res = await post(url, { [field]: date });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'money.date_out_of_range',
      issues: [{ path: field, code: 'money.date_out_of_range' }],
    });
    expect(await t.db.select().from(settlements)).toEqual(before);
  });

  it('takes dates at the edges of the window', async () => {
    for (const date of [addDays(today(), -30), addDays(today(), 365)]) {
      expect((await post('/api/backoffice/payouts', { payoutDate: date })).statusCode).toBe(200);
    }
    expect((await post('/api/backoffice/daily', { date: addDays(today(), -30) })).statusCode).toBe(200);
  });
});

describe('sums over many invoices', () => {
  it('are exact past 32 bits, and refused with a code past the safe-integer range, never rounded', async () => {
    const fresh = await freshIssuer(t);
    const ids = (await fresh.invoicesOf(3, '2026-04-01')).map((i) => i.id);
    const token = await t.login(fresh.username);
    const setTotals = (minor: number) =>
      t.db.update(invoices).set({ grossMinor: minor, toPayMinor: minor }).where(inArray(invoices.id, ids));
    const list = () => t.call(token, 'GET', '/api/limited/invoices');
    const ledger = () =>
      t.app.inject({ url: `/api/limited/reports/ledger?date=${today()}`, headers: bearer(token) });

    // Three invoices at the maximum: 30 000 000 000 öre, past int4, exact from either driver.
    await setTotals(MAX_INVOICE_TOTAL_MINOR);
    const ok = await list();
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().totals).toEqual([
      { currency: 'SEK', grossMinor: 3 * MAX_INVOICE_TOTAL_MINOR, count: 3 },
    ]);
    const book = await ledger();
    expect(book.statusCode, book.body).toBe(200);
    expect(book.json().totals).toEqual([
      expect.objectContaining({ currency: 'SEK', count: 3, amountMinor: 3 * MAX_INVOICE_TOTAL_MINOR }),
    ]);

    // Rows written around the bounds whose sum, 3 × (2^52 + 1), a float would round.
    await setTotals(2 ** 52 + 1);
    for (const res of [await list(), await ledger()]) {
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ code: 'money.out_of_range' });
    }
  });
});
