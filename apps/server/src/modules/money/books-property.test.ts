import { addDays } from '@portal/domain/calendar-date';
import { OUR_BANKGIRO } from '@portal/domain/money-flow';
import { and, eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifyAccount } from '../../../test/support/bank-verification';
import { keptTotalsDrift } from '../../../test/support/kept-totals';
import { freshIssuer, sentInvoices, TEST_OPERATOR } from '../../../test/support/money';
import { useTestApp } from '../../../test/support/use-test-app';
import { rows } from '../../db/migrate';
import { invoices, issuerDebtClaims, issuers, payments, settlementRows } from '../../db/schema';
import { DEMO_BANKGIROS } from '../../db/seed/demo';
import { ApiError } from '../../lib/errors';
import {
  assignPayment,
  checkBooks,
  claimIssuerDebt,
  type IncomingPayment,
  importBgmaxFile,
  incomingPaymentsFile,
  runDailyJob,
  runPayout,
} from './money.service';

/**
 * The bookkeeping invariant of docs/MONEY.md as a property: whatever happens in whatever order —
 * invoices sent and approved, recipients paying in full, in part or too much (on the OCR reference or
 * on a TK22 extra reference, and paying references nobody knows), payers splitting one payment over
 * several TK22/TK23 references (issue #16), payers taking deductions (TK21) off a deposit, payouts, the daily job on later and later days, operators assigning unmatched payments —
 * every journal balances, every invoice's receivable postings are its remaining amount, every
 * settlement's rows add up to its totals, no settlement is negative and the bank paid exactly its
 * total, the bank holds exactly the deposits of the files less what the settlements paid, and the
 * totals kept by triggers equal the invoices. Beside Demo Bygg AB, Nystart Måleri AB starts without a
 * verified bank account: its payouts are held (nothing settled, nothing booked) until a step verifies
 * its account, and the first payout after pays what waited (docs/MONEY.md "Payout holds").
 */

type Step =
  | { kind: 'approve'; n: number; service: 'factoring' | 'nonRecourseFactoring' | 'invoicingService' }
  | {
      kind: 'pay';
      how: 'full' | 'part' | 'over';
      pick: number;
      partPermille: number;
      extraMinor: number;
      /** Paid with a blank reference and the OCR in a TK22 record. */
      viaExtraReference: boolean;
    }
  | { kind: 'deduct'; pick: number; amountMinor: number }
  /**
   * One payment split over TK22 parts for two invoices and one reference nobody knows, less a TK23
   * credit (at most the first part), with a zero part when `zero` (issue #16).
   */
  | { kind: 'split'; pick: number; partMinor: number; creditMinor: number; zero: boolean }
  | { kind: 'stray'; amountMinor: number }
  | { kind: 'payout' }
  | { kind: 'daily'; days: number }
  | { kind: 'assign'; pickPayment: number; pickInvoice: number }
  /** Invoices of Nystart Måleri AB, approved: held until its account is verified. */
  | { kind: 'approveHeld'; n: number }
  | { kind: 'verify' }
  /** The back office claims the issuers' open debts at once (docs/MONEY.md "Debt claims"). */
  | { kind: 'claim' }
  /** The issuer pays part (or, `whole`, all that is left) of an open claim to our bankgiro. */
  | { kind: 'payClaim'; partPermille: number; whole: boolean };

/** Every kind of step: a kind added to {@link Step} does not compile until it is named here. */
const STEP_KINDS = Object.keys({
  approve: true,
  pay: true,
  deduct: true,
  split: true,
  stray: true,
  payout: true,
  daily: true,
  assign: true,
  approveHeld: true,
  verify: true,
  claim: true,
  payClaim: true,
} satisfies Record<Step['kind'], true>) as Step['kind'][];

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('approve' as const),
    n: fc.integer({ min: 1, max: 3 }),
    service: fc.constantFrom(
      'factoring' as const,
      'nonRecourseFactoring' as const,
      'invoicingService' as const,
    ),
  }),
  fc.record({
    kind: fc.constant('pay' as const),
    how: fc.constantFrom('full' as const, 'part' as const, 'over' as const),
    pick: fc.nat(),
    partPermille: fc.integer({ min: 1, max: 999 }),
    extraMinor: fc.integer({ min: 1, max: 50_000 }),
    viaExtraReference: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('deduct' as const),
    pick: fc.nat(),
    amountMinor: fc.integer({ min: 1, max: 200_000 }),
  }),
  fc.record({
    kind: fc.constant('split' as const),
    pick: fc.nat(),
    partMinor: fc.integer({ min: 1, max: 300_000 }),
    creditMinor: fc.integer({ min: 0, max: 300_000 }),
    zero: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('stray' as const), amountMinor: fc.integer({ min: 1, max: 900_000 }) }),
  fc.record({ kind: fc.constant('payout' as const) }),
  fc.record({ kind: fc.constant('daily' as const), days: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('assign' as const), pickPayment: fc.nat(), pickInvoice: fc.nat() }),
  fc.record({ kind: fc.constant('approveHeld' as const), n: fc.integer({ min: 1, max: 2 }) }),
  fc.record({ kind: fc.constant('verify' as const) }),
  fc.record({ kind: fc.constant('claim' as const) }),
  fc.record({
    kind: fc.constant('payClaim' as const),
    partPermille: fc.integer({ min: 1, max: 999 }),
    whole: fc.boolean(),
  }),
);

const t = useTestApp({ startTimeoutMs: 180_000 });

/** Settlements whose rows do not add up to their totals (count, gross, fee, net). */
async function settlementsOff(): Promise<unknown[]> {
  return rows(
    await t.db.execute(sql`
      select s.id, s.row_count, s.gross_minor, s.fee_minor, s.total_payout_minor, r.n, r.gross, r.fee, r.net
      from settlements s
      left join (
        select settlement_id, count(*)::int as n, sum(gross_minor)::bigint as gross,
               sum(fee_minor)::bigint as fee, sum(net_minor)::bigint as net
        from settlement_rows group by settlement_id
      ) r on r.settlement_id = s.id
      where coalesce(r.n, 0) <> s.row_count or coalesce(r.gross, 0) <> s.gross_minor
         or coalesce(r.fee, 0) <> s.fee_minor or coalesce(r.net, 0) <> s.total_payout_minor
         or s.gross_minor - s.fee_minor <> s.total_payout_minor`),
  );
}

describe('the book stays sound under any sequence of money events', () => {
  it('approve / BGMAX payments (full, part, over, stray, on a TK22, split over TK22/TK23, with TK21 deductions) / payout / daily job / assign', async () => {
    let serial = 1;
    let runs = 0;
    const applied: Record<string, number> = {};
    const statesSeen = new Set<number>();
    const paymentStatuses = new Set<string>();
    let overpaid = 0;
    let carried = 0;
    let chargeBacksSettled = 0;
    let held = 0;
    let released = 0;
    let claimed = 0;
    let claimsPaid = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        runs++;
        await t.reset();
        const [issuer] = await t.db.select().from(issuers).where(eq(issuers.name, 'Demo Bygg AB'));
        if (!issuer) throw new Error('no Demo Bygg AB');
        const nystart = await freshIssuer(t, { verified: false });
        let isVerified = false;
        let day = '2026-03-02';
        const at = () => new Date(`${day}T05:00:00Z`);
        const mine: string[] = [];

        const importPays = async (pays: IncomingPayment[]) => {
          const bytes = incomingPaymentsFile({
            paymentDate: day,
            deposits: [{ bankgiro: DEMO_BANKGIROS.bygg, payments: pays }],
            firstSerial: serial,
            firstDeposit: serial,
            writtenAt: `${day}T06:00:${String(serial % 60).padStart(2, '0')}.000000`,
          });
          serial += pays.length + 1;
          await importBgmaxFile(t.db, bytes, { filename: `p${serial}.txt`, operatorId: null, now: at() });
        };

        for (const s of steps) {
          applied[s.kind] = (applied[s.kind] ?? 0) + 1;
          switch (s.kind) {
            case 'approve': {
              const made = await sentInvoices(t, { n: s.n, service: s.service, approve: true });
              mine.push(...made.map((i) => i.id));
              break;
            }
            case 'pay': {
              if (mine.length === 0) break;
              const id = mine[s.pick % mine.length] as string;
              const [inv] = await t.db.select().from(invoices).where(eq(invoices.id, id));
              if (!inv?.ocr) break;
              const base = inv.remainingMinor > 0 ? inv.remainingMinor : inv.toPayMinor;
              const amountMinor =
                s.how === 'full'
                  ? base
                  : s.how === 'part'
                    ? Math.max(1, Math.floor((base * s.partPermille) / 1000))
                    : base + s.extraMinor;
              await importPays([
                s.viaExtraReference
                  ? { reference: '', amountMinor, extraReferences: [{ reference: inv.ocr, amountMinor: 0 }] }
                  : { reference: inv.ocr, amountMinor },
              ]);
              break;
            }
            case 'deduct': {
              // A payment with a credit the payer took off it: the deposit is the difference.
              const id = mine.length > 0 ? (mine[s.pick % mine.length] as string) : undefined;
              const [inv] = id ? await t.db.select().from(invoices).where(eq(invoices.id, id)) : [];
              await importPays([
                {
                  reference: inv?.ocr ?? `8${String(serial).padStart(9, '0')}`,
                  amountMinor: s.amountMinor + (inv?.remainingMinor ?? 1),
                },
                {
                  reference: `7${String(serial).padStart(5, '0')}`,
                  amountMinor: s.amountMinor,
                  deduction: true,
                },
              ]);
              break;
            }
            case 'split': {
              if (mine.length === 0) break;
              const picked = [mine[s.pick % mine.length], mine[(s.pick + 1) % mine.length]] as string[];
              const found = await t.db.select().from(invoices).where(inArray(invoices.id, picked));
              const ocrOf = (id: string) =>
                found.find((i) => i.id === id)?.ocr ?? `4${String(serial).padStart(9, '0')}`;
              const credit = Math.min(s.creditMinor, s.partMinor);
              const parts = [
                { reference: ocrOf(picked[0] as string), amountMinor: s.partMinor },
                { reference: ocrOf(picked[1] as string), amountMinor: s.partMinor + 1 },
                { reference: `6${String(serial).padStart(9, '0')}`, amountMinor: 777 },
                ...(credit > 0
                  ? [
                      {
                        reference: `5${String(serial).padStart(5, '0')}`,
                        amountMinor: credit,
                        negative: true,
                      },
                    ]
                  : []),
                ...(s.zero ? [{ reference: ocrOf(picked[0] as string), amountMinor: 0 }] : []),
              ];
              const amountMinor = parts.reduce(
                (sum, x) => sum + (x.negative ? -x.amountMinor : x.amountMinor),
                0,
              );
              await importPays([{ reference: '', amountMinor, extraReferences: parts }]);
              break;
            }
            case 'stray':
              await importPays([
                { reference: `9${String(serial).padStart(9, '0')}`, amountMinor: s.amountMinor },
              ]);
              break;
            case 'approveHeld':
              await nystart.invoicesOf(s.n, '2026-04-01');
              break;
            case 'verify': {
              if (isVerified) break;
              const token = await t.login('demo-unverified');
              expect((await verifyAccount(t, token, 'se-norrbanken', 'nb-nystart')).status).toBe('verified');
              isVerified = true;
              break;
            }
            case 'payout': {
              const run = await runPayout(t.db, { payoutDate: day, now: at(), operatorId: null });
              carried += run.carried.filter((c) => c.issuerId === issuer.id).length;
              const nystartPaid = run.settlements.filter((x) => x.issuerId === nystart.issuer.id);
              const nystartHeld = run.held.filter((h) => h.issuerId === nystart.issuer.id);
              if (isVerified) {
                expect(nystartHeld).toEqual([]);
                released += nystartPaid.length;
              } else {
                expect(nystartPaid).toEqual([]);
                held += nystartHeld.length;
              }
              expect(run.held.filter((h) => h.issuerId !== nystart.issuer.id)).toEqual([]);
              const made = run.settlements.map((x) => x.settlementId);
              if (made.length > 0)
                chargeBacksSettled += (
                  await t.db
                    .select()
                    .from(settlementRows)
                    .where(
                      and(inArray(settlementRows.settlementId, made), eq(settlementRows.kind, 'chargeBack')),
                    )
                ).length;
              break;
            }
            case 'daily': {
              day = addDays(day, s.days);
              const r = await runDailyJob(t.db, { date: day, now: at(), referenceRateBp: 200 });
              expect(r.failed).toEqual([]);
              break;
            }
            case 'claim': {
              for (const who of [issuer.id, nystart.issuer.id])
                claimed += (
                  await t.db.transaction((tx) =>
                    claimIssuerDebt(tx, who, { date: day, now: at(), operatorId: null }),
                  )
                ).length;
              break;
            }
            case 'payClaim': {
              const [open] = await t.db
                .select()
                .from(issuerDebtClaims)
                .where(eq(issuerDebtClaims.state, 'open'))
                .limit(1);
              if (!open) break;
              const left = open.amountMinor - open.paidMinor;
              const amountMinor = s.whole ? left : Math.max(1, Math.floor((left * s.partPermille) / 1000));
              const bytes = incomingPaymentsFile({
                paymentDate: day,
                deposits: [{ bankgiro: OUR_BANKGIRO, payments: [{ reference: open.ocr, amountMinor }] }],
                firstSerial: serial,
                firstDeposit: serial,
              });
              serial += 2;
              await importBgmaxFile(t.db, bytes, { filename: `c${serial}.txt`, operatorId: null, now: at() });
              const [after] = await t.db
                .select()
                .from(issuerDebtClaims)
                .where(eq(issuerDebtClaims.id, open.id));
              expect(after?.paidMinor).toBe(open.paidMinor + amountMinor);
              if (after?.state === 'paid') claimsPaid++;
              break;
            }
            case 'assign': {
              const open = await t.db
                .select()
                .from(payments)
                .where(and(eq(payments.status, 'unmatched'), eq(payments.issuerId, issuer.id)));
              if (open.length === 0 || mine.length === 0) break;
              const payment = open[s.pickPayment % open.length];
              const invoiceId = mine[s.pickInvoice % mine.length] as string;
              try {
                await assignPayment(t.db, payment?.id ?? '', invoiceId, TEST_OPERATOR, at(), '127.0.0.1');
              } catch (error) {
                // An invoice that cannot take the payment (paid, queued, …) refuses it with a code.
                if (!(error instanceof ApiError) || error.code !== 'invoices.invalid_transition') throw error;
              }
              break;
            }
          }
          expect(await checkBooks(t.db, issuer.id)).toEqual([]);
          expect(await checkBooks(t.db, nystart.issuer.id)).toEqual([]);
          // Every movement of the bank is an incoming payment (its deposit) or a settlement (its payout).
          expect(
            rows(
              await t.db.execute(
                sql`select id from postings where account = 'bank' and payment_id is null and settlement_id is null`,
              ),
            ),
          ).toEqual([]);
          if (mine.length > 0)
            for (const inv of await t.db
              .select({ state: invoices.state })
              .from(invoices)
              .where(inArray(invoices.id, mine)))
              statesSeen.add(inv.state);
        }
        expect(await checkBooks(t.db)).toEqual([]);
        expect(await settlementsOff()).toEqual([]);
        // The totals kept by triggers (invoice list, dashboard) followed every bulk money write.
        expect(await keptTotalsDrift(t.db)).toEqual([]);
        const mineSet = new Set(mine);
        for (const p of await t.db.select().from(payments).where(eq(payments.issuerId, issuer.id)))
          if (p.createdAt >= new Date('2026-03-02T00:00:00Z') && (!p.invoiceId || mineSet.has(p.invoiceId))) {
            if (p.invoiceId || p.status === 'deduction' || p.status === 'information')
              paymentStatuses.add(p.status);
            else paymentStatuses.add('stray');
            if (p.invoiceId && p.overpaidMinor > 0) overpaid++;
          }
      }),
      {
        numRuns: Number(process.env.BOOKS_PROPERTY_RUNS ?? 12),
        endOnFailure: true,
        // One sequence written out, so that every path is taken whatever the random ones do.
        examples: [
          [
            [
              { kind: 'approve', n: 3, service: 'factoring' },
              { kind: 'approve', n: 1, service: 'invoicingService' },
              { kind: 'payout' },
              {
                kind: 'pay',
                how: 'part',
                pick: 0,
                partPermille: 400,
                extraMinor: 1,
                viaExtraReference: false,
              },
              { kind: 'pay', how: 'full', pick: 1, partPermille: 1, extraMinor: 1, viaExtraReference: true },
              {
                kind: 'pay',
                how: 'over',
                pick: 2,
                partPermille: 1,
                extraMinor: 2_500,
                viaExtraReference: false,
              },
              { kind: 'stray', amountMinor: 12_345 },
              { kind: 'assign', pickPayment: 0, pickInvoice: 0 },
              { kind: 'deduct', pick: 1, amountMinor: 20_000 },
              { kind: 'split', pick: 1, partMinor: 30_000, creditMinor: 5_000, zero: true },
              { kind: 'daily', days: 40 },
              { kind: 'payout' },
              { kind: 'daily', days: 40 },
              { kind: 'daily', days: 40 },
              {
                kind: 'pay',
                how: 'part',
                pick: 0,
                partPermille: 500,
                extraMinor: 1,
                viaExtraReference: true,
              },
              { kind: 'payout' },
            ],
          ],
          // The demo's charge backs leave the issuer owing us; the debt is claimed, paid in two parts,
          // and the next payouts are paid whole.
          [
            [
              { kind: 'daily', days: 40 },
              { kind: 'payout' },
              { kind: 'claim' },
              { kind: 'payClaim', partPermille: 300, whole: false },
              { kind: 'approve', n: 2, service: 'factoring' },
              { kind: 'payClaim', partPermille: 1, whole: true },
              { kind: 'payout' },
              { kind: 'daily', days: 40 },
            ],
          ],
          // Nystart's payouts held while its account is unverified, then paid once it is.
          [
            [
              { kind: 'approveHeld', n: 2 },
              { kind: 'approve', n: 1, service: 'factoring' },
              { kind: 'payout' },
              { kind: 'approveHeld', n: 1 },
              { kind: 'payout' },
              { kind: 'verify' },
              { kind: 'payout' },
            ],
          ],
          // The demo's charge backs leave the issuer owing us: a run carries the debt, and a run with
          // enough new payouts sets it off.
          [
            [
              { kind: 'daily', days: 40 },
              { kind: 'payout' },
              { kind: 'approve', n: 3, service: 'factoring' },
              { kind: 'approve', n: 3, service: 'factoring' },
              { kind: 'payout' },
              { kind: 'approve', n: 3, service: 'factoring' },
              { kind: 'approve', n: 3, service: 'factoring' },
              { kind: 'payout' },
            ],
          ],
        ],
      },
    );
    expect(runs).toBeGreaterThanOrEqual(12);
    // Every kind of step was taken somewhere in the runs.
    for (const kind of STEP_KINDS) expect(applied[kind], kind).toBeGreaterThan(0);
    // And the runs reached paid, part paid and charged-back invoices, matched payments and overpayments.
    expect([...statesSeen]).toEqual(expect.arrayContaining([3, 4, 5]));
    expect([...paymentStatuses]).toEqual(expect.arrayContaining(['matched', 'deduction', 'information']));
    expect(overpaid).toBeGreaterThan(0);
    console.info(
      `books property: states ${[...statesSeen].sort()}, payments ${[...paymentStatuses].sort()}, carried ${carried}, charge backs settled ${chargeBacksSettled}, held ${held}, released ${released}, claimed ${claimed}, claims paid ${claimsPaid}, steps ${JSON.stringify(applied)}`,
    );
    // And runs that left the issuer owing us, and settlements that set charge backs off.
    expect(carried).toBeGreaterThan(0);
    expect(chargeBacksSettled).toBeGreaterThan(0);
    // And runs that held an unverified issuer's payout, and runs that paid it once verified.
    expect(held).toBeGreaterThan(0);
    expect(released).toBeGreaterThan(0);
    // And debts claimed from the issuer and paid by BGMAX.
    expect(claimed).toBeGreaterThan(0);
    expect(claimsPaid).toBeGreaterThan(0);
  }, 600_000);
});
