import { PLAN_EVENT, transferCostDetailSchema } from '@portal/contracts';
import { readBgmax } from '@portal/domain/bgmax';
import { feeFor } from '@portal/domain/money-flow';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { freshIssuer } from '../../../test/support/money';
import { bearer } from '../../../test/support/test-app';
import { useTestApp } from '../../../test/support/use-test-app';
import {
  installmentPlanEvents,
  installmentPlanRows,
  installmentPlans,
  invoices,
  issuerFees,
  postings,
  recipients,
  settlementRows,
} from '../../db/schema';
import { todayIn } from '../../lib/today';
import { bookPlanApproval, bookPlanInvoice, checkBooks, PLAN_SERVICE, runPayout } from './money.service';

/**
 * The money of an installment plan (docs/INSTALLMENTS.md "Money"): approval books the financed amount
 * as owed to the issuer and as the plan's receivable; the next payout run pays it once as a
 * `planPayout` row less the issuer's fee for the service `loans`; an installment's invoice moves its
 * principal from the plan to the invoice. The books check holds at every step. The plan rows are
 * written directly here: the installments module that registers plans is not built yet.
 */

const t = useTestApp({ resetEach: true });

const FINANCED = 1_200_000;
const LOANS_FEE = { percentBasisPoints: 300, fixedMinor: 9_900 };

async function approvedPlan() {
  const fresh = await freshIssuer(t);
  const issuerId = fresh.issuer.id;
  const [buyer] = await t.db.select().from(recipients).where(eq(recipients.issuerId, issuerId)).limit(1);
  if (!buyer) throw new Error('no recipient');
  await t.db
    .insert(issuerFees)
    .values({ issuerId, service: PLAN_SERVICE, currency: 'SEK', ...LOANS_FEE })
    .onConflictDoUpdate({
      target: [issuerFees.issuerId, issuerFees.service, issuerFees.currency],
      set: LOANS_FEE,
    });
  const [plan] = await t.db
    .insert(installmentPlans)
    .values({
      issuerId,
      recipientId: buyer.id,
      loanNumber: 'AP-100017',
      state: 9,
      description: 'Köksrenovering',
      currency: 'SEK',
      financedMinor: FINANCED,
      monthlyFeeMinor: 4_900,
      totalMinor: FINANCED + 2 * 4_900,
      noOfInstallments: 2,
      startDate: '2026-12-28',
      endDate: '2027-01-28',
    })
    .returning();
  if (!plan) throw new Error('no plan');
  await t.db.transaction(async (tx) => {
    await tx.update(installmentPlans).set({ state: 2 }).where(eq(installmentPlans.id, plan.id));
    await bookPlanApproval(tx, plan, t.clock.now());
  });
  return { fresh, issuerId, buyer, plan };
}

describe('an installment plan’s payout', () => {
  it('pays the financed amount less the issuer’s loans fee once, shown as the plan’s row with its loan number', async () => {
    const { fresh, issuerId, plan } = await approvedPlan();
    expect(await checkBooks(t.db, issuerId)).toEqual([]);

    const run = await runPayout(t.db, {
      payoutDate: todayIn(t.clock.now()),
      now: t.clock.now(),
      operatorId: null,
    });
    const mine = run.settlements.find((s) => s.issuerId === issuerId);
    const fee = feeFor(FINANCED, LOANS_FEE, true);
    expect(fee).toBe(36_000 + 9_900);
    expect(mine).toMatchObject({
      rowCount: 1,
      grossMinor: FINANCED,
      feeMinor: fee,
      totalPayoutMinor: FINANCED - fee,
    });
    const stored = await t.db.select().from(settlementRows).where(eq(settlementRows.planId, plan.id));
    expect(stored).toEqual([
      expect.objectContaining({
        kind: 'planPayout',
        invoiceId: null,
        grossMinor: FINANCED,
        netMinor: FINANCED - fee,
      }),
    ]);
    const events = await t.db
      .select()
      .from(installmentPlanEvents)
      .where(eq(installmentPlanEvents.planId, plan.id));
    expect(events.map((e) => [e.event, e.state, e.details?.netMinor])).toEqual([
      [PLAN_EVENT.paidOut, 2, FINANCED - fee],
    ]);
    expect(await checkBooks(t.db, issuerId)).toEqual([]);

    // Paid once: the next run finds nothing of the plan's open.
    const again = await runPayout(t.db, {
      payoutDate: todayIn(t.clock.now()),
      now: t.clock.now(),
      operatorId: null,
    });
    expect(again.settlements.filter((s) => s.issuerId === issuerId)).toEqual([]);

    const token = await t.login(fresh.username);
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/limited/transfercosts/${mine?.settlementId}`,
      headers: bearer(token),
    });
    expect(detail.statusCode).toBe(200);
    const body = transferCostDetailSchema.parse(detail.json());
    expect(body.rows.items).toEqual([
      {
        invoiceID: null,
        planID: plan.id,
        invoiceNumber: 'AP-100017',
        recipientName: expect.any(String),
        kind: 'planPayout',
        reference: null,
        grossMinor: FINANCED,
        feeMinor: fee,
        netMinor: FINANCED - fee,
      },
    ]);
    const file = await t.app.inject({
      method: 'GET',
      url: `/api/limited/transfercosts/${mine?.settlementId}/bgmax`,
      headers: bearer(token),
    });
    expect(file.statusCode).toBe(200);
    const payments = readBgmax(new Uint8Array(file.rawPayload)).file.sections[0]?.payments ?? [];
    expect(payments.map((p) => [p.kind, p.reference, p.amountMinor])).toEqual([
      ['payment', 'AP-100017', FINANCED - fee],
    ]);
  });

  it('moves an installment’s principal from the plan to its invoice, and the books check finds a wrong amount', async () => {
    const { fresh, issuerId, plan } = await approvedPlan();
    // A sent invoice of the buyer (awaiting our decision, not on the book) stands in for the
    // installment's, which the daily job will issue.
    const [invoice] = await fresh.invoicesOf(1, '2026-12-28', false);
    if (!invoice) throw new Error('no invoice');
    const amount = invoice.toPayMinor;
    const fee = 4_900;
    await t.db.transaction(async (tx) => {
      await tx
        .update(invoices)
        .set({ state: 2, service: PLAN_SERVICE, remainingMinor: amount })
        .where(eq(invoices.id, invoice.id));
      await tx.delete(postings).where(eq(postings.invoiceId, invoice.id));
      await tx.insert(installmentPlanRows).values([
        {
          planId: plan.id,
          number: 1,
          dueDate: '2026-12-28',
          principalMinor: amount - fee,
          monthlyFeeMinor: fee,
          feeMinor: fee,
          amountMinor: amount,
          invoiceId: invoice.id,
        },
        {
          planId: plan.id,
          number: 2,
          dueDate: '2027-01-28',
          principalMinor: FINANCED - (amount - fee),
          monthlyFeeMinor: fee,
          feeMinor: fee,
          amountMinor: FINANCED - amount + 2 * fee,
        },
      ]);
      await bookPlanInvoice(
        tx,
        {
          planId: plan.id,
          issuerId,
          currency: 'SEK',
          invoiceId: invoice.id,
          principalMinor: amount - fee,
          feeMinor: fee,
          kind: 'planInstallment',
        },
        t.clock.now(),
      );
    });
    expect(await checkBooks(t.db, issuerId)).toEqual([]);
    const open = await t.db
      .select({ amountMinor: postings.amountMinor })
      .from(postings)
      .where(and(eq(postings.planId, plan.id), eq(postings.account, 'plan_receivable')));
    expect(open.reduce((s, p) => s + p.amountMinor, 0)).toBe(FINANCED - (amount - fee));

    // A plan completed on paper with principal still booked on it is a violation.
    await t.db.update(installmentPlans).set({ state: 3 }).where(eq(installmentPlans.id, plan.id));
    expect(await checkBooks(t.db, issuerId)).toEqual([
      expect.objectContaining({ rule: 'plan_receivable', id: plan.id }),
    ]);
  });
});
