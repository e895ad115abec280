import {
  INVOICE_FILTERS,
  INVOICE_STATE_NUMBERS,
  type InvoiceFilter,
  type InvoiceSummary,
  invoiceDetailSchema,
  invoiceStatus,
  listInvoicesResponseSchema,
  OVERDUE_BUCKET_DAYS,
  OVERDUE_BUCKETS,
  type OverdueBucket,
  recipientSchema,
} from '@portal/contracts';
import { addDays, daysBetween } from '@portal/domain/calendar-date';
import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { VALID_INVOICE_BODY, VALID_RECIPIENT_BODY } from '../../../test/support/route-samples';
import { useLogins, useTestApp } from '../../../test/support/use-test-app';
import { invoices, recipients, users } from '../../db/schema';

/**
 * The invoice list's filters (spec §4) return exactly the invoices their rule in docs/INVOICES.md
 * names, and their totals are those of exactly these invoices. One issuer gets an invoice of every
 * state with every credit decision (none, approved, rejected) and due dates around today, plus three
 * invoices taken through the real calls (rejected; rejected and then deleted; rejected and sent
 * again); another issuer gets the same grid under the same numbers, which must never show.
 */

/** 22:30 UTC on 31 March is already 1 April in Stockholm: "today" is the Swedish day, not UTC's. */
const NOW = new Date('2026-03-31T22:30:00.000Z');
const TODAY = '2026-04-01';
/** Days from today of the due dates: the overdue buckets' edges, yesterday, today, tomorrow. */
const DUE_OFFSETS = [-31, -30, -16, -15, -6, -5, -1, 0, 1];
const DECISIONS = [null, 'approved', 'rejected'] as const;
type Decision = (typeof DECISIONS)[number];

interface Known {
  id: string;
  number: string;
  state: number;
  decision: Decision;
  dueDate: string;
  currency: string;
  grossMinor: number;
}

const unpaid = (i: Known) => i.state === 2 || i.state === 3;

/** The rule of each filter, as docs/INVOICES.md "List filters" writes it. */
const RULES: Record<InvoiceFilter, (i: Known) => boolean> = {
  // Neither 7 (an import preview's temporary draft, never a real invoice) nor 11 (deleted): spec §4.
  all: (i) => i.state !== 7 && i.state !== 11,
  active: unpaid,
  overdue: (i) => unpaid(i) && i.dueDate < TODAY,
  paid: (i) => i.state === 4,
  partPaid: (i) => i.state === 3,
  recharged: (i) => i.state === 5,
  pendingApproval: (i) => i.state === 9,
  queued: (i) => i.state === 6,
  rejected: (i) => i.decision === 'rejected' && i.state !== 7 && i.state !== 11,
};

/** The `bucket` filter: unpaid and that many days past due (docs/INVOICES.md), on top of the filter. */
function inBucket(i: Known, bucket: OverdueBucket): boolean {
  const { min, max } = OVERDUE_BUCKET_DAYS[bucket];
  const late = daysBetween(i.dueDate, TODAY);
  return unpaid(i) && late >= min && (max === null || late <= max);
}

/** Count and gross per currency, ordered by currency, as the list's `totals` are. */
function totalsOf(list: { currency: string; grossMinor: number }[]) {
  const by = new Map<string, { currency: string; grossMinor: number; count: number }>();
  for (const i of list) {
    const total = by.get(i.currency) ?? { currency: i.currency, grossMinor: 0, count: 0 };
    total.grossMinor += i.grossMinor;
    total.count++;
    by.set(i.currency, total);
  }
  return [...by.values()].sort((a, b) => (a.currency < b.currency ? -1 : 1));
}

const t = useTestApp();
// At NOW before signing in: a session from the app's start would have expired by then.
beforeAll(() => t.clock.set(NOW));
const who = useLogins(t, { token: 'demo-unverified' });
/** Every invoice of the issuer under test (it had none before). */
let mine: Known[] = [];
/** The same grid, same numbers, of another issuer. */
let others: Known[] = [];
let flow: { rejected: Known; deleted: Known; resent: Known };

async function issuerOf(username: string): Promise<string> {
  const [user] = await t.db.select().from(users).where(eq(users.username, username));
  if (!user?.issuerId) throw new Error(`no issuer for ${username}`);
  return user.issuerId;
}

/** One invoice of every state × decision × due date, inserted straight into the table. */
async function insertGrid(issuerId: string): Promise<Known[]> {
  const [recipient] = await t.db
    .insert(recipients)
    .values({ issuerId, name: 'Rutnät AB', zipcode: '11122', city: 'Stockholm', email: 'a@b.se' })
    .returning({ id: recipients.id });
  if (!recipient) throw new Error('recipient');
  const values = INVOICE_STATE_NUMBERS.flatMap((state) =>
    DECISIONS.flatMap((decision) =>
      DUE_OFFSETS.map((offset) => ({ state, decision, dueDate: addDays(TODAY, offset) })),
    ),
  ).map((f, n) => {
    const gross = 10_000 + 101 * n;
    return {
      issuerId,
      recipientId: recipient.id,
      invoiceNumber: `G-${f.state}-${f.decision ?? 'none'}-${f.dueDate}`,
      service: 'factoring',
      state: f.state,
      decision: f.decision,
      currency: n % 3 === 0 ? 'EUR' : 'SEK',
      invoiceDate: addDays(f.dueDate, -30),
      dueDate: f.dueDate,
      netMinor: gross,
      vatMinor: 0,
      grossMinor: gross,
      toPayMinor: gross,
      remainingMinor: f.state === 4 ? 0 : gross,
      vatLines: [],
    };
  });
  const made = await t.db.insert(invoices).values(values).returning();
  return made.map(known);
}

function known(i: typeof invoices.$inferSelect): Known {
  return {
    id: i.id,
    number: i.invoiceNumber,
    state: i.state,
    decision: i.decision ?? null,
    dueDate: i.dueDate,
    currency: i.currency,
    grossMinor: i.grossMinor,
  };
}

/**
 * Three invoices through the real calls: registered, sent (factoring: awaiting our decision) and
 * rejected by the back office; then one is deleted and one is sent again.
 */
async function throughTheCalls(): Promise<typeof flow> {
  const r = await t.call(who.token, 'POST', '/api/limited/recipients', VALID_RECIPIENT_BODY);
  const recipientID = recipientSchema.parse(r.json()).recipientID;
  const ids: Record<'rejected' | 'deleted' | 'resent', string> = { rejected: '', deleted: '', resent: '' };
  for (const key of ['rejected', 'deleted', 'resent'] as const) {
    const res = await t.call(who.token, 'POST', '/api/limited/invoices', {
      ...VALID_INVOICE_BODY,
      recipientID,
      invoiceNumber: `R-${key}`,
      // Due far enough from today for a financed invoice to be sent (docs/INVOICES.md "Due dates when sending").
      invoiceDate: TODAY,
      dueDate: addDays(TODAY, 30),
    });
    expect(res.statusCode, res.body).toBe(200);
    ids[key] = invoiceDetailSchema.parse(res.json()).invoiceID;
  }
  const all = Object.values(ids);
  const send = (invoiceIDs: string[]) =>
    t.call(who.token, 'POST', '/api/limited/invoices/send', { invoiceIDs });
  expect((await send(all)).statusCode).toBe(200);
  const operator = await t.loginOperator();
  for (const id of all) {
    const res = await t.call(operator, 'POST', `/api/backoffice/invoices/${id}/reject`, {
      reason: 'Kreditupplysningen räcker inte',
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  expect((await t.call(who.token, 'DELETE', `/api/limited/invoices/${ids.deleted}`)).statusCode).toBe(200);
  expect((await send([ids.resent])).statusCode).toBe(200);
  const rows = await t.db.select().from(invoices).where(inArray(invoices.id, all));
  const get = (id: string) => {
    const row = rows.find((x) => x.id === id);
    if (!row) throw new Error(id);
    return known(row);
  };
  return { rejected: get(ids.rejected), deleted: get(ids.deleted), resent: get(ids.resent) };
}

/** Every item of a list query, page by page, with the count and totals it answered. */
async function listAll(query: string) {
  const items: InvoiceSummary[] = [];
  let first: { total: number; totals: ReturnType<typeof totalsOf> } | null = null;
  for (let page = 1; ; page++) {
    const res = await t.call(
      who.token,
      'GET',
      `/api/limited/invoices?${query}&sort=invoiceNumber&pageSize=100&page=${page}`,
    );
    expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
    const body = listInvoicesResponseSchema.parse(res.json());
    if (first) expect({ total: body.total, totals: body.totals }, query).toEqual(first);
    else first = { total: body.total, totals: body.totals };
    items.push(...body.items);
    if (body.items.length < 100) break;
  }
  if (!first) throw new Error('no page');
  return { items, ...first };
}

/** The list answers exactly `expected`: the same invoices, each once, and the totals of exactly them. */
async function expectExactly(query: string, expected: Known[]) {
  const got = await listAll(query);
  const ids = (list: { id: string }[]) => list.map((i) => i.id).sort();
  expect(ids(got.items.map((i) => ({ id: i.invoiceID }))), query).toEqual(ids(expected));
  expect(got.items.map((i) => i.invoiceNumber).sort(), query).toEqual(expected.map((i) => i.number).sort());
  expect(got.total, query).toBe(expected.length);
  // The totals equal the items the list returned, and the invoices the rule names.
  expect(got.totals, query).toEqual(totalsOf(got.items));
  expect(got.totals, query).toEqual(totalsOf(expected));
  for (const item of got.items) {
    const k = expected.find((i) => i.id === item.invoiceID);
    expect(item.state, item.invoiceNumber).toBe(k?.state);
    expect(item.overdue, item.invoiceNumber).toBe(k ? RULES.overdue(k) : undefined);
    // What the badge shows (issue #11): "Rejected" for exactly the invoices of the rejected tab.
    expect(invoiceStatus(item) === 'rejected', item.invoiceNumber).toBe(k ? RULES.rejected(k) : undefined);
    expect(item.decision, item.invoiceNumber).toBe(k?.decision);
  }
}

beforeAll(async () => {
  const issuerId = await issuerOf('demo-unverified');
  const before = await t.db.select().from(invoices).where(eq(invoices.issuerId, issuerId));
  expect(before).toEqual([]);
  flow = await throughTheCalls();
  mine = [...(await insertGrid(issuerId)), flow.rejected, flow.deleted, flow.resent];
  others = await insertGrid(await issuerOf('demo-other'));
});

describe('the invoice list filters return exactly the invoices of their rule', () => {
  it('the fixtures cover every state with and without a decision, due before, on and after today', () => {
    for (const state of INVOICE_STATE_NUMBERS)
      for (const decision of DECISIONS)
        for (const offset of DUE_OFFSETS)
          expect(
            mine.some(
              (i) => i.state === state && i.decision === decision && i.dueDate === addDays(TODAY, offset),
            ),
          ).toBe(true);
    expect(others.map((i) => i.number).sort()).toEqual(
      mine
        .filter((i) => i.number.startsWith('G-'))
        .map((i) => i.number)
        .sort(),
    );
    // The real calls left: rejected → back in pending with the decision; deleted → 11 and the
    // decision kept (it is history); sent again → awaiting a new decision, the old one cleared.
    expect([flow.rejected.state, flow.rejected.decision]).toEqual([1, 'rejected']);
    expect([flow.deleted.state, flow.deleted.decision]).toEqual([11, 'rejected']);
    expect([flow.resent.state, flow.resent.decision]).toEqual([9, null]);
  });

  // Both ways the list adds up its totals: from the kept totals (no date range, every filter but
  // overdue) and by adding the invoices up (a date range that every invoice is in).
  for (const filter of INVOICE_FILTERS)
    for (const range of ['', '&from=1900-01-01&to=2199-12-31'])
      it(`filter=${filter}${range ? ' with a date range' : ''}`, async () => {
        const expected = mine.filter(RULES[filter]);
        expect(expected.length).toBeGreaterThan(0);
        await expectExactly(`filter=${filter}${range}`, expected);
      });

  it('rejected never lists a deleted invoice, though its decision stays "rejected"', async () => {
    const got = await listAll('filter=rejected');
    const numbers = got.items.map((i) => i.invoiceNumber);
    expect(numbers).toContain(flow.rejected.number);
    expect(numbers).not.toContain(flow.deleted.number);
    expect(numbers).not.toContain(flow.resent.number);
    expect(got.items.some((i) => i.state === 11)).toBe(false);
  });

  it('"all" leaves out temporary drafts (7) and deleted invoices (11), in its items and its totals', async () => {
    const temporary = mine.filter((i) => i.state === 7);
    expect(temporary.length).toBeGreaterThan(0);
    for (const query of ['filter=all', 'filter=all&from=1900-01-01&to=2199-12-31', 'filter=rejected']) {
      const got = await listAll(query);
      expect(
        got.items.some((i) => i.state === 7 || i.state === 11),
        query,
      ).toBe(false);
      const listed = mine.filter((i) => i.state !== 7 && i.state !== 11);
      if (query.startsWith('filter=all')) {
        expect(got.total, query).toBe(listed.length);
        expect(got.totals, query).toEqual(totalsOf(listed));
      }
    }
  });

  it('every filter lists only invoices that "all" lists', async () => {
    const all = new Set((await listAll('filter=all')).items.map((i) => i.invoiceID));
    for (const filter of INVOICE_FILTERS)
      for (const item of (await listAll(`filter=${filter}`)).items)
        expect(all.has(item.invoiceID), `${filter} ${item.invoiceNumber}`).toBe(true);
  });

  it('the bucket filter: unpaid that many days past due, on top of any filter', async () => {
    for (const bucket of OVERDUE_BUCKETS)
      for (const filter of INVOICE_FILTERS) {
        const expected = mine.filter((i) => RULES[filter](i) && inBucket(i, bucket));
        await expectExactly(`filter=${filter}&bucket=${encodeURIComponent(bucket)}`, expected);
      }
    // The buckets of unpaid invoices split "overdue" with nothing left over and nothing twice.
    const overdue = mine.filter(RULES.overdue);
    expect(
      OVERDUE_BUCKETS.map((b) => overdue.filter((i) => inBucket(i, b)).length).reduce((a, b) => a + b, 0),
    ).toBe(overdue.length);
  });
});
