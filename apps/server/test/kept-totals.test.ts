import { addDays } from '@portal/domain/calendar-date';
import { inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { invoices, recipients, users } from '../src/db/schema';
import { keptTotalsDrift } from './support/kept-totals';
import { useTestApp } from './support/use-test-app';

/**
 * The totals kept by triggers on `invoices` (the list's state totals, the dashboard's sales per day and
 * month and unpaid amounts per due date) equal the figures added up from the invoices after any
 * sequence of multi-row inserts, updates of every column they depend on, and deletes.
 */

const t = useTestApp({ startTimeoutMs: 180_000 });
let recipientsOf: Map<string, string[]>;
beforeAll(async () => {
  const issuerIds = (
    await t.db
      .select({ issuerId: users.issuerId })
      .from(users)
      .where(inArray(users.username, ['demo', 'demo-other']))
  ).map((u) => u.issuerId ?? '');
  recipientsOf = new Map();
  for (const r of await t.db
    .select({ id: recipients.id, issuerId: recipients.issuerId })
    .from(recipients)
    .where(inArray(recipients.issuerId, issuerIds))) {
    recipientsOf.set(r.issuerId, [...(recipientsOf.get(r.issuerId) ?? []), r.id].slice(0, 4));
  }
});

const STATES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const DAY0 = '2026-01-15';

const fresh = fc.record({
  issuer: fc.nat(),
  recipient: fc.nat(),
  state: fc.constantFrom(...STATES),
  currency: fc.constantFrom('SEK', 'EUR'),
  day: fc.integer({ min: -70, max: 70 }),
  dueIn: fc.integer({ min: -10, max: 45 }),
  toPay: fc.integer({ min: 0, max: 5_000_000 }),
  paidPermille: fc.integer({ min: 0, max: 1000 }),
});

type Fresh = typeof fresh extends fc.Arbitrary<infer T> ? T : never;
type Change =
  | { kind: 'insert'; rows: Fresh[] }
  | { kind: 'state'; every: number; state: number }
  | { kind: 'pay'; every: number; permille: number }
  | { kind: 'dates'; every: number; shift: number }
  | { kind: 'currency'; every: number }
  | { kind: 'recipient'; every: number }
  | { kind: 'amount'; every: number; plus: number }
  | { kind: 'untouched'; every: number }
  | { kind: 'delete'; every: number };

const every = fc.integer({ min: 1, max: 4 });
const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), rows: fc.array(fresh, { minLength: 1, maxLength: 12 }) }),
  fc.record({ kind: fc.constant('state' as const), every, state: fc.constantFrom(...STATES) }),
  fc.record({ kind: fc.constant('pay' as const), every, permille: fc.integer({ min: 0, max: 1000 }) }),
  fc.record({ kind: fc.constant('dates' as const), every, shift: fc.integer({ min: -40, max: 40 }) }),
  fc.record({ kind: fc.constant('currency' as const), every }),
  fc.record({ kind: fc.constant('recipient' as const), every }),
  fc.record({ kind: fc.constant('amount' as const), every, plus: fc.integer({ min: -9_999, max: 9_999 }) }),
  fc.record({ kind: fc.constant('untouched' as const), every }),
  fc.record({ kind: fc.constant('delete' as const), every }),
);

/** Every `every`-th of the test's invoices (by the serial in their number), as one statement. */
const picked = (n: number) => sql`invoice_number like 'KT-%' and substr(invoice_number, 4)::int % ${n} = 0`;

let serial = 0;
async function apply(c: Change): Promise<void> {
  const issuers = [...recipientsOf.keys()];
  switch (c.kind) {
    case 'insert': {
      await t.db.insert(invoices).values(
        c.rows.map((r) => {
          const issuerId = issuers[r.issuer % issuers.length] as string;
          const own = recipientsOf.get(issuerId) ?? [];
          const invoiceDate = addDays(DAY0, r.day);
          serial++;
          return {
            issuerId,
            recipientId: own[r.recipient % own.length] as string,
            invoiceNumber: `KT-${serial}`,
            service: 'factoring',
            state: r.state,
            currency: r.currency,
            invoiceDate,
            dueDate: addDays(invoiceDate, r.dueIn),
            netMinor: r.toPay,
            vatMinor: 0,
            grossMinor: r.toPay,
            toPayMinor: r.toPay,
            remainingMinor: r.toPay - Math.floor((r.toPay * r.paidPermille) / 1000),
            vatLines: [],
          };
        }),
      );
      return;
    }
    case 'state':
      await t.db.execute(sql`update invoices set state = ${c.state} where ${picked(c.every)}`);
      return;
    case 'pay':
      await t.db.execute(
        sql`update invoices set remaining_minor = remaining_minor * ${c.permille} / 1000,
                                 state = case when state in (2, 3) then 3 else state end
            where ${picked(c.every)}`,
      );
      return;
    case 'dates':
      await t.db.execute(
        sql`update invoices set invoice_date = invoice_date + ${c.shift}::int, due_date = due_date - ${c.shift}::int
            where ${picked(c.every)}`,
      );
      return;
    case 'currency':
      await t.db.execute(
        sql`update invoices set currency = case when currency = 'SEK' then 'EUR' else 'SEK' end where ${picked(c.every)}`,
      );
      return;
    case 'recipient':
      // Each invoice to another of its own issuer's recipients.
      await t.db.execute(
        sql`update invoices i set recipient_id = coalesce((
              select r.id from recipients r where r.issuer_id = i.issuer_id and r.id <> i.recipient_id
              order by r.id limit 1), i.recipient_id)
            where ${picked(c.every)}`,
      );
      return;
    case 'amount':
      await t.db.execute(
        sql`update invoices set to_pay_minor = greatest(to_pay_minor + ${c.plus}, 0),
                                gross_minor = greatest(gross_minor + ${c.plus}, 0),
                                remaining_minor = greatest(remaining_minor + ${c.plus}, 0)
            where ${picked(c.every)}`,
      );
      return;
    case 'untouched':
      await t.db.execute(sql`update invoices set dunning_step = dunning_step + 1 where ${picked(c.every)}`);
      return;
    case 'delete':
      await t.db.execute(sql`delete from invoices where ${picked(c.every)}`);
      return;
  }
}

describe('kept totals', () => {
  it('equal the invoices after any sequence of inserts, updates and deletes', async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 10 }), async (changes) => {
        await t.reset();
        for (const c of changes) {
          await apply(c);
          seen.add(c.kind);
          expect(await keptTotalsDrift(t.db)).toEqual([]);
        }
      }),
      { numRuns: Number(process.env.KEPT_TOTALS_RUNS ?? 25), endOnFailure: true },
    );
    expect([...seen].sort()).toEqual(
      ['amount', 'currency', 'dates', 'delete', 'insert', 'pay', 'recipient', 'state', 'untouched'].sort(),
    );
  }, 600_000);

  it('the drift check sees a kept figure that is wrong', async () => {
    await t.reset();
    await apply({
      kind: 'insert',
      rows: [
        {
          issuer: 0,
          recipient: 0,
          state: 2,
          currency: 'SEK',
          day: 0,
          dueIn: 30,
          toPay: 1000,
          paidPermille: 0,
        },
      ],
    });
    expect(await keptTotalsDrift(t.db)).toEqual([]);
    // Changed behind the trigger's back: every kept table must tell.
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`update invoices set to_pay_minor = 999, gross_minor = 999, remaining_minor = 999
                           where invoice_number like 'KT-%'`);
    });
    const tables = new Set((await keptTotalsDrift(t.db)).map((d) => d.table));
    expect([...tables].sort()).toEqual([
      'invoice_sales_days',
      'invoice_sales_months',
      'invoice_state_totals',
      'invoice_unpaid_dues',
    ]);
  });
});
