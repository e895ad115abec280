import { INVOICE_STATE } from '@portal/contracts';
import { addDays } from '@portal/domain/calendar-date';
import { and, asc, desc, eq, inArray, isNotNull } from 'drizzle-orm';
import { auditOperator } from '../../lib/audit';
import { importBgmaxFile, incomingPaymentsFile, resolveDeduction } from '../../modules/money/money.service';
import type { Db, Tx } from '../client';
import { invoices, payments, recipients } from '../schema';
import type { DemoDayStep } from './demo-business';

/** What the payer takes off: SEK 1,250.00, or the open invoice's whole payment if that is less. */
const CREDIT_MINOR = 125_000;

/**
 * The demo's one handled deduction (docs/MONEY.md "Deductions (TK21)"), a step of the simulated days:
 * a week before the seed's day a recipient of Demo Bygg's pays an open invoice and takes a credit note
 * of Demo Bygg's off the deposit (a BGMAX TK21 whose reference is the OCR of the invoice it credits,
 * Demo Bygg's most recently paid one); the operator charges it to Demo Bygg at once, and the next
 * payout run sets it off as a `deduction` row. Through the real import and resolution.
 */
export function demoDeductionStep(input: {
  tx: Tx;
  issuerId: string;
  bankgiro: string;
  operator: { operatorId: string; username: string };
  today: string;
}): DemoDayStep {
  const { tx, issuerId, operator } = input;
  const db = tx as unknown as Db;
  const onDay = addDays(input.today, -7);
  return async (day, clock) => {
    if (day !== onDay) return;
    const ofIssuer = (states: number[]) =>
      tx
        .select({
          id: invoices.id,
          ocr: invoices.ocr,
          remaining: invoices.remainingMinor,
          payer: recipients.name,
        })
        .from(invoices)
        .innerJoin(recipients, eq(recipients.id, invoices.recipientId))
        .where(
          and(
            eq(invoices.issuerId, issuerId),
            eq(invoices.currency, 'SEK'),
            inArray(invoices.state, states),
            isNotNull(invoices.ocr),
          ),
        );
    const [credited] = await ofIssuer([INVOICE_STATE.paid])
      .orderBy(desc(invoices.updatedAt), asc(invoices.id))
      .limit(1);
    const [open] = await ofIssuer([INVOICE_STATE.notPaid, INVOICE_STATE.partPaid])
      .orderBy(asc(invoices.dueDate), asc(invoices.id))
      .limit(1);
    if (!credited || !open) throw new Error('seed: no invoices for the demo deduction');
    const bytes = incomingPaymentsFile({
      paymentDate: day,
      deposits: [
        {
          bankgiro: input.bankgiro,
          payments: [
            // Each payment record names its own payer: the open invoice's recipient pays it, and the
            // credited invoice's recipient takes its credit note off its own payment record.
            { reference: open.ocr ?? '', amountMinor: open.remaining, name: open.payer },
            {
              reference: credited.ocr ?? '',
              amountMinor: Math.min(CREDIT_MINOR, open.remaining),
              deduction: true,
              name: credited.payer,
            },
          ],
        },
      ],
      firstSerial: 980_000,
      firstDeposit: 98_000,
    });
    const file = await importBgmaxFile(db, bytes, {
      filename: `bgmax-${day}-kredit.txt`,
      operatorId: operator.operatorId,
      now: clock('11:45:00'),
    });
    const [deduction] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.fileId, file.fileId), eq(payments.status, 'deduction')));
    if (!deduction) throw new Error('seed: the demo deduction was not registered');
    await resolveDeduction(
      db,
      deduction.id,
      { action: 'chargeIssuer' },
      {
        operatorId: operator.operatorId,
        now: clock('12:00:00'),
        record: (t, done) =>
          auditOperator(t, 'backoffice.deduction.resolved', operator, '127.0.0.1', {
            issuerId: done.issuerId,
            details: { paymentId: done.paymentId, action: done.action, invoiceId: done.invoiceId },
          }),
      },
    );
  };
}
