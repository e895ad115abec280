import {
  type DashboardResponse,
  INVOICE_STATE,
  installmentPlanDetailSchema,
  OVERDUE_BUCKETS,
  PLAN_STATE,
} from '@portal/contracts';
import { addDays } from '@portal/domain/calendar-date';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../../test/support/test-app';
import { useTestApp } from '../../../test/support/use-test-app';
import { installmentPlans, invoices, recipients, users } from '../../db/schema';

const t = useTestApp({ resetEach: true });

/** 22:30 UTC on 31 March is already 1 April in Stockholm (summer time since 29 March). */
const NOW = new Date('2026-03-31T22:30:00.000Z');
const TODAY = '2026-04-01';

interface Fixture {
  recipient: number;
  state: number;
  currency: 'SEK' | 'EUR';
  invoiceDate: string;
  dueDate?: string;
  toPay: number;
  remaining?: number;
}

async function issuerOf(username: string): Promise<string> {
  const [user] = await t.db.select().from(users).where(eq(users.username, username));
  if (!user?.issuerId) throw new Error(`no issuer for ${username}`);
  return user.issuerId;
}

let serial = 0;
/** Recipients and invoices inserted straight into the tables (the dashboard only reads them). */
async function insert(issuerId: string, names: string[], fixtures: Fixture[]) {
  const made = await t.db
    .insert(recipients)
    .values(names.map((name) => ({ issuerId, name, zipcode: '11122', city: 'Stockholm', email: 'a@b.se' })))
    .returning({ id: recipients.id });
  const ids = made.map((r) => r.id);
  const rows = fixtures.map((f) => {
    serial++;
    return {
      issuerId,
      recipientId: ids[f.recipient] ?? '',
      invoiceNumber: `D${serial}`,
      service: 'invoicingService',
      state: f.state,
      currency: f.currency,
      invoiceDate: f.invoiceDate,
      dueDate: f.dueDate ?? addDays(f.invoiceDate, 30),
      netMinor: f.toPay,
      vatMinor: 0,
      grossMinor: f.toPay,
      toPayMinor: f.toPay,
      remainingMinor: f.remaining ?? (f.state === 4 ? 0 : f.toPay),
      vatLines: [],
    };
  });
  const inserted = await t.db
    .insert(invoices)
    .values(rows)
    .returning({ id: invoices.id, number: invoices.invoiceNumber });
  return { recipientIds: ids, numbers: inserted.map((r) => r.number) };
}

async function dashboard(username: string): Promise<DashboardResponse> {
  const token = await t.login(username);
  const res = await t.app.inject({ method: 'GET', url: '/api/limited/dashboard', headers: bearer(token) });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const SENT = (state: number) => ![1, 7, 11].includes(state);
/** Unpaid days past due of each overdue bucket's edges (and 0: due today, not overdue). */
const PAST_DUE = [0, 1, 5, 6, 15, 16, 30, 31, 120];
const BUCKET_OF = (d: number) => (d <= 5 ? '1-5' : d <= 15 ? '6-15' : d <= 30 ? '16-30' : '30+');

describe('GET /api/limited/dashboard', () => {
  it('is empty for an issuer without invoices, in the currency of its country', async () => {
    t.clock.set(NOW);
    const d = await dashboard('demo-unverified');
    expect(d.currency).toBe('SEK');
    expect(d.topCustomers).toEqual([]);
    expect(d.sales30Days).toHaveLength(30);
    expect(d.sales30Days[0]).toEqual({ date: '2026-03-03', grossMinor: 0, count: 0 });
    expect(d.sales30Days[29]).toEqual({ date: TODAY, grossMinor: 0, count: 0 });
    expect(d.sales12Months.map((m) => m.month)).toEqual([
      '2025-05',
      '2025-06',
      '2025-07',
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
    ]);
    expect(d.sales12Months.every((m) => m.grossMinor === 0 && m.count === 0)).toBe(true);
    expect(d.overdueBuckets).toEqual(
      OVERDUE_BUCKETS.map((bucket) => ({ bucket, count: 0, remainingMinor: 0 })),
    );
  });

  it('adds up every number from the invoices of the caller issuer only', async () => {
    t.clock.set(NOW);
    const issuerId = await issuerOf('demo-unverified');
    const names = Array.from({ length: 12 }, (_, i) => `Kund ${String(i).padStart(2, '0')}`);
    const fixtures: Fixture[] = [];
    // Top customers: recipient i invoiced (i + 1) × 1000.00 on 15 March; 0 and 1 fall below the top 10.
    for (let i = 0; i < 12; i++)
      fixtures.push({
        recipient: i,
        state: 4,
        currency: 'SEK',
        invoiceDate: '2026-03-15',
        toPay: (i + 1) * 100_000,
      });
    // Recipient 0 gets one more, smaller, invoice: counted in its count and sum.
    fixtures.push({ recipient: 0, state: 6, currency: 'SEK', invoiceDate: '2026-03-20', toPay: 50_000 });
    // Not sent (draft, temporary, deleted): never counted, whatever their size.
    for (const state of [1, 7, 11])
      fixtures.push({ recipient: 0, state, currency: 'SEK', invoiceDate: '2026-03-20', toPay: 99_000_000 });
    // Month and day boundaries.
    fixtures.push({ recipient: 1, state: 4, currency: 'SEK', invoiceDate: '2025-04-30', toPay: 7_000 }); // too old
    fixtures.push({ recipient: 1, state: 4, currency: 'SEK', invoiceDate: '2025-05-01', toPay: 7_001 }); // first month
    fixtures.push({ recipient: 1, state: 4, currency: 'SEK', invoiceDate: '2026-03-02', toPay: 7_002 }); // day 31 back
    fixtures.push({ recipient: 1, state: 4, currency: 'SEK', invoiceDate: '2026-03-03', toPay: 7_003 }); // first day
    fixtures.push({ recipient: 1, state: 4, currency: 'SEK', invoiceDate: TODAY, toPay: 7_004 }); // today
    fixtures.push({ recipient: 1, state: 6, currency: 'SEK', invoiceDate: '2026-04-02', toPay: 7_005 }); // future
    // Overdue: unpaid SEK invoices on each edge, one part paid; a paid one past due is not overdue.
    for (const [i, d] of PAST_DUE.entries())
      fixtures.push({
        recipient: 2,
        state: i === 3 ? 3 : 2,
        currency: 'SEK',
        invoiceDate: '2025-12-01',
        dueDate: addDays(TODAY, -d),
        toPay: 10_000 + i,
        remaining: i === 3 ? 4_000 : 10_000 + i,
      });
    fixtures.push({
      recipient: 2,
      state: 4,
      currency: 'SEK',
      invoiceDate: '2025-12-01',
      dueDate: addDays(TODAY, -3),
      toPay: 1,
    });
    // Another currency, fewer invoices: never mixed into the SEK figures.
    for (const d of [2, 10, 40])
      fixtures.push({
        recipient: 3,
        state: 2,
        currency: 'EUR',
        invoiceDate: '2026-03-25',
        dueDate: addDays(TODAY, -d),
        toPay: 5_000_000,
      });
    await insert(issuerId, names, fixtures);
    // Another issuer's invoices in the same days: never counted.
    await insert(
      await issuerOf('demo-other'),
      ['Främling'],
      [
        {
          recipient: 0,
          state: 2,
          currency: 'SEK',
          invoiceDate: '2026-03-20',
          dueDate: addDays(TODAY, -3),
          toPay: 77_700_000,
        },
      ],
    );

    const d = await dashboard('demo-unverified');
    expect(d.currency).toBe('SEK');

    // The reference: the same figures added up here over the fixtures.
    const counted = fixtures.filter(
      (f) => SENT(f.state) && f.currency === 'SEK' && f.invoiceDate >= '2025-05-01' && f.invoiceDate <= TODAY,
    );
    const perRecipient = names.map((name, i) => {
      const mine = counted.filter((f) => f.recipient === i);
      return { name, invoiceCount: mine.length, grossMinor: mine.reduce((s, f) => s + f.toPay, 0) };
    });
    const expectedTop = perRecipient.sort((a, b) => b.grossMinor - a.grossMinor).slice(0, 10);
    expect(d.topCustomers.map(({ recipientID: _, ...c }) => c)).toEqual(expectedTop);
    expect(d.topCustomers[0]).toMatchObject({ name: 'Kund 11', grossMinor: 1_200_000, invoiceCount: 1 });
    expect(d.topCustomers.map((c) => c.name)).not.toContain('Kund 00'); // 1000.00 + 500.00, 12th
    expect(d.topCustomers.map((c) => c.name)).not.toContain('Kund 01'); // 2000.00 + boundaries, 11th
    expect(d.topCustomers.map((c) => c.name)).toContain('Kund 02'); // 3000.00 + the overdue ones, 10th
    expect(d.topCustomers).toHaveLength(10);
    expect(d.topCustomers[9]).toMatchObject({ name: 'Kund 02', invoiceCount: 11 });

    expect(d.sales30Days).toHaveLength(30);
    d.sales30Days.forEach((day, i) => {
      expect(day.date).toBe(addDays('2026-03-03', i));
      const on = counted.filter((f) => f.invoiceDate === day.date);
      expect(day).toEqual({
        date: day.date,
        count: on.length,
        grossMinor: on.reduce((s, f) => s + f.toPay, 0),
      });
    });
    expect(d.sales30Days.find((x) => x.date === '2026-03-15')).toEqual({
      date: '2026-03-15',
      count: 12,
      grossMinor: 7_800_000,
    });
    expect(d.sales30Days[0]).toEqual({ date: '2026-03-03', count: 1, grossMinor: 7_003 });
    expect(d.sales30Days[29]).toEqual({ date: TODAY, count: 1, grossMinor: 7_004 });
    expect(d.sales30Days.filter((x) => x.count === 0)).toHaveLength(26);

    for (const m of d.sales12Months) {
      const on = counted.filter((f) => f.invoiceDate.startsWith(m.month));
      expect(m).toEqual({
        month: m.month,
        count: on.length,
        grossMinor: on.reduce((s, f) => s + f.toPay, 0),
      });
    }
    expect(d.sales12Months[0]).toEqual({ month: '2025-05', count: 1, grossMinor: 7_001 });
    expect(d.sales12Months[11]).toEqual({ month: '2026-04', count: 1, grossMinor: 7_004 });
    expect(d.sales12Months.find((m) => m.month === '2026-03')).toEqual({
      month: '2026-03',
      count: 15,
      grossMinor: 7_800_000 + 50_000 + 7_002 + 7_003,
    });

    const expectedBuckets = OVERDUE_BUCKETS.map((bucket) => {
      const inIt = PAST_DUE.map((days, i) => ({ days, i })).filter(
        (x) => x.days > 0 && BUCKET_OF(x.days) === bucket,
      );
      return {
        bucket,
        count: inIt.length,
        remainingMinor: inIt.reduce((s, x) => s + (x.i === 3 ? 4_000 : 10_000 + x.i), 0),
      };
    });
    expect(d.overdueBuckets).toEqual(expectedBuckets);
    expect(d.overdueBuckets).toEqual([
      { bucket: '1-5', count: 2, remainingMinor: 10_001 + 10_002 },
      { bucket: '6-15', count: 2, remainingMinor: 4_000 + 10_004 },
      { bucket: '16-30', count: 2, remainingMinor: 10_005 + 10_006 },
      { bucket: '30+', count: 2, remainingMinor: 10_007 + 10_008 },
    ]);

    // Each bucket's link: the invoice list filtered to it holds the same invoices (SEK totals).
    const token = await t.login('demo-unverified');
    for (const b of d.overdueBuckets) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/limited/invoices?bucket=${encodeURIComponent(b.bucket)}&pageSize=100`,
        headers: bearer(token),
      });
      expect(res.statusCode, res.body).toBe(200);
      const list = res.json();
      const sek = list.totals.find((x: { currency: string }) => x.currency === 'SEK');
      expect(sek?.count ?? 0).toBe(b.count);
      const eur = [2, 10, 40].filter((x) => BUCKET_OF(x) === b.bucket).length;
      expect(list.total).toBe(b.count + eur);
      expect(list.items.every((i: { overdue: boolean }) => i.overdue)).toBe(true);
    }
  });

  it('shows the installment plans by state group and their open principal, only with contract financing', async () => {
    const token = await t.login('demo');
    const d = await dashboard('demo');
    // The demo's plans (demo-plans.ts): registered, sent for signing, signed; active; final notice,
    // recalled; completed, cancelled, replaced and two agreements rejected; the replacing plan, active.
    expect(d.installmentPlans?.counts).toEqual({ signing: 3, active: 2, arrears: 2, ended: 5 });
    // The open principal, added up here from each collected plan's schedule as its page shows it.
    const issuerId = await issuerOf('demo');
    const plans = await t.db.select().from(installmentPlans).where(eq(installmentPlans.issuerId, issuerId));
    let open = 0;
    for (const plan of plans) {
      if (![PLAN_STATE.active, PLAN_STATE.finalNotice, PLAN_STATE.recalled].some((s) => s === plan.state))
        continue;
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/limited/installmentplans/${plan.id}`,
        headers: bearer(token),
      });
      const detail = installmentPlanDetailSchema.parse(res.json());
      for (const row of detail.installments)
        if (row.invoiceState !== INVOICE_STATE.paid) open += row.principalMinor;
    }
    expect(open).toBeGreaterThan(0);
    expect(d.installmentPlans?.openPrincipalMinor).toBe(open);

    // Without the ability the answer has no plans at all; an issuer without plans has zeros.
    expect((await dashboard('demo-limited')).installmentPlans).toBeUndefined();
    expect((await dashboard('demo-unverified')).installmentPlans).toEqual({
      counts: { signing: 0, active: 0, arrears: 0, ended: 0 },
      openPrincipalMinor: 0,
    });
  });

  it('takes the currency most of the invoices use', async () => {
    t.clock.set(NOW);
    const issuerId = await issuerOf('demo-unverified');
    await insert(
      issuerId,
      ['A'],
      [
        { recipient: 0, state: 4, currency: 'SEK', invoiceDate: '2026-03-10', toPay: 9_000_000 },
        { recipient: 0, state: 4, currency: 'EUR', invoiceDate: '2026-03-10', toPay: 100 },
        { recipient: 0, state: 2, currency: 'EUR', invoiceDate: '2026-03-11', toPay: 200 },
        { recipient: 0, state: 1, currency: 'SEK', invoiceDate: '2026-03-11', toPay: 1 },
        { recipient: 0, state: 1, currency: 'SEK', invoiceDate: '2026-03-11', toPay: 1 },
      ],
    );
    const d = await dashboard('demo-unverified');
    expect(d.currency).toBe('EUR');
    expect(d.topCustomers).toEqual([
      expect.objectContaining({ name: 'A', invoiceCount: 2, grossMinor: 300 }),
    ]);
  });
});
