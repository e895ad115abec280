import type {
  claimIssuerDebtsBodySchema,
  issuerFeesBodySchema,
  listDeductionsQuerySchema,
  listIssuerDebtClaimsQuerySchema,
  listUnmatchedQuerySchema,
  ResolveDeductionBody,
  runDailyBodySchema,
  runPayoutBodySchema,
  ServiceType,
} from '@portal/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { AppContext, OperatorContext } from '../../context';
import type { Db } from '../../db/client';
import { auditOperator } from '../../lib/audit';
import { ApiError } from '../../lib/errors';
import { normaliseFileName } from '../../lib/file-names';
import { queueFortnoxPayments, registerFortnoxPayments } from '../fortnox/fortnox.service';
import {
  completePaidPlans,
  recordInstallmentPayments,
  runPlanSteps,
} from '../installments/installments.service';
import {
  assignPayment as assignToInvoice,
  checkBooks as checkLedger,
  claimIssuerDebt,
  listHeldPayouts as heldPayouts,
  importBgmaxFile,
  listAllClaims,
  listOpenDeductions,
  operatorMoneyDay,
  type PaymentsApplied,
  runPayout as payOut,
  resolveDeduction as resolve,
  runDailyJob as runDaily,
  runDebtClaims,
} from '../money/money.service';
import * as repo from './backoffice-money.repository';

/**
 * The back office's money work (docs/MONEY.md, docs/BACKOFFICE.md): payout runs, incoming payment
 * files, unmatched payments, the daily job, the book check and issuers' fees, each written to the
 * audit log with the operator who did it. The money rules themselves are the money module's.
 */

/**
 * What applied payments set off in their transaction: Fortnox's queue (issue #13), an installment's
 * payment on its plan's timeline, and the installment plans they paid up, completed at once (issue #14).
 */
const afterApplied: PaymentsApplied = async (tx, of, at) => {
  await queueFortnoxPayments(tx, of, at);
  await recordInstallmentPayments(tx, of, at);
  await completePaidPlans(tx, of, at);
};

/** The operator's request: who, from where, and where its errors are logged. */
export interface OperatorCall {
  operator: OperatorContext;
  ip: string;
  log: FastifyBaseLogger;
}

/** `runPayout`: everything owed to issuers paid out, one settlement per issuer and currency. */
export async function runPayout(
  ctx: AppContext,
  call: OperatorCall,
  body: z.output<typeof runPayoutBodySchema> | undefined,
) {
  const { operator, ip } = call;
  const now = ctx.now();
  const payoutDate = operatorMoneyDay(now, body?.payoutDate, 'payoutDate');
  const run = await payOut(ctx.db, {
    payoutDate,
    now,
    operatorId: operator.operatorId,
    record: (tx, part) =>
      auditOperator(tx, 'backoffice.payout', operator, ip, {
        details: {
          batchId: part.batchId,
          issuerId:
            part.settlements[0]?.issuerId ?? part.carried[0]?.issuerId ?? part.held[0]?.issuerId ?? null,
          settlements: part.settlements.map((s) => s.settlementId),
          carried: part.carried.length,
          held: part.held.map((h) => ({ currency: h.currency, reason: h.reason })),
          payoutDate,
        },
      }),
    recordRun: (tx, done) =>
      auditOperator(tx, 'backoffice.payout', operator, ip, {
        details: {
          batchId: done.batchId,
          settlements: done.settlements.length,
          carried: done.carried.length,
          held: done.held.length,
          payoutDate,
          failed: done.failed.map((f) => ({ issuerId: f.issuerId, code: f.code, message: f.message })),
        },
      }),
  });
  for (const f of run.failed)
    call.log.error(
      { issuerId: f.issuerId, code: f.code, err: f.message, batchId: run.batchId },
      'payout: the issuer was not settled',
    );
  return {
    batchID: run.batchId,
    settlements: run.settlements.map((s) => ({
      settlementID: s.settlementId,
      number: s.number,
      issuerID: s.issuerId,
      currency: s.currency,
      rowCount: s.rowCount,
      grossMinor: s.grossMinor,
      feeMinor: s.feeMinor,
      totalPayoutMinor: s.totalPayoutMinor,
      paidTo: s.paidTo,
    })),
    carried: run.carried.map((c) => ({
      issuerID: c.issuerId,
      currency: c.currency,
      rowCount: c.rowCount,
      totalMinor: c.totalMinor,
    })),
    held: run.held.map((h) => ({
      issuerID: h.issuerId,
      currency: h.currency,
      rowCount: h.rowCount,
      totalMinor: h.totalMinor,
      reason: h.reason,
    })),
    failed: run.failed.map((f) => ({ issuerID: f.issuerId, code: f.code })),
  };
}

/** `listHeldPayouts`: the issuers whose payouts a run would hold now, per currency, with the reason. */
export async function listHeldPayouts(db: Db) {
  return {
    items: (await heldPayouts(db)).map((h) => ({
      issuerID: h.issuerId,
      issuerName: h.issuerName,
      currency: h.currency,
      rowCount: h.rowCount,
      grossMinor: h.grossMinor,
      reason: h.reason,
    })),
  };
}

/**
 * `importPayments`: a BGMAX file of incoming payments, all or nothing, once. The payments it queued
 * for Fortnox (issue #13) are registered there right away, not awaited: Fortnox's answer is not the
 * import's; what fails now the daily job tries again.
 */
export async function importPayments(
  ctx: AppContext,
  call: OperatorCall,
  bytes: unknown,
  rawFilename: string,
) {
  const { operator, ip } = call;
  if (!Buffer.isBuffer(bytes) || bytes.length === 0) throw new ApiError('files.required');
  const filename = normaliseFileName(rawFilename);
  const result = await importBgmaxFile(ctx.db, bytes, {
    filename,
    operatorId: operator.operatorId,
    now: ctx.now(),
    afterApplied,
    record: (tx, done) =>
      auditOperator(tx, 'backoffice.payments.imported', operator, ip, { details: { ...done, filename } }),
  });
  void registerFortnoxPayments(ctx, call.log).catch((err) =>
    call.log.warn({ err }, 'fortnox: registering payments failed'),
  );
  const { fileId, ...counts } = result;
  return { fileID: fileId, ...counts };
}

/**
 * `listUnmatchedPayments`: incoming payments no invoice claimed (a split payment's parts one by one),
 * or with `status=information` the zero amounts kept as information, oldest first.
 */
export async function listUnmatchedPayments(db: Db, query: z.output<typeof listUnmatchedQuerySchema>) {
  const { page, pageSize, status } = query;
  const { found, total } = await repo.listUnmatchedPayments(db, status, page, pageSize);
  return {
    items: found.map((p) => ({
      paymentID: p.id,
      status,
      part: p.part,
      bgcSerial: p.bgcSerial,
      receivingBankgiro: p.receivingBankgiro,
      issuerID: p.issuerId,
      reference: p.reference,
      amountMinor: p.amountMinor,
      currency: p.currency,
      paymentDate: p.paymentDate,
      payerName: p.payerName,
    })),
    total,
    page,
    pageSize,
  };
}

/** `assignPayment`: an unmatched payment assigned to an invoice; it then counts as paid on it. */
export async function assignPayment(
  ctx: AppContext,
  call: OperatorCall,
  paymentId: string,
  invoiceId: string,
) {
  const done = await assignToInvoice(
    ctx.db,
    paymentId,
    invoiceId,
    call.operator,
    ctx.now(),
    call.ip,
    afterApplied,
  );
  return {
    paymentID: done.paymentId,
    invoiceID: done.invoiceId,
    appliedMinor: done.appliedMinor,
    overpaidMinor: done.overpaidMinor,
    state: done.state,
    remainingMinor: done.remainingMinor,
  };
}

/** `listDeductions`: the BGMAX deductions no operator has resolved, oldest first. */
export async function listDeductions(db: Db, query: z.output<typeof listDeductionsQuerySchema>) {
  const { page, pageSize } = query;
  const { rows, total } = await listOpenDeductions(db, page, pageSize);
  return {
    items: rows.map((d) => ({
      paymentID: d.id,
      issuerID: d.issuerId,
      issuerName: d.issuerName,
      receivingBankgiro: d.receivingBankgiro,
      reference: d.reference,
      payerName: d.payerName,
      amountMinor: -d.amountMinor,
      currency: d.currency,
      paymentDate: d.paymentDate,
    })),
    total,
    page,
    pageSize,
  };
}

/**
 * `resolveDeduction`: a deduction charged to the issuer or settled against an invoice of its, once,
 * with its audit row in the same transaction (docs/MONEY.md "Deductions (TK21)").
 */
export async function resolveDeduction(
  ctx: AppContext,
  call: OperatorCall,
  paymentId: string,
  body: ResolveDeductionBody,
) {
  const { operator, ip } = call;
  const done = await resolve(
    ctx.db,
    paymentId,
    body.action === 'chargeIssuer' ? body : { action: body.action, invoiceId: body.invoiceID },
    {
      operatorId: operator.operatorId,
      now: ctx.now(),
      record: (tx, d) =>
        auditOperator(tx, 'backoffice.deduction.resolved', operator, ip, {
          issuerId: d.issuerId,
          details: {
            paymentId: d.paymentId,
            action: d.action,
            invoiceId: d.invoiceId,
            amountMinor: d.amountMinor,
          },
        }),
    },
  );
  return {
    paymentID: done.paymentId,
    action: done.action,
    issuerID: done.issuerId,
    invoiceID: done.invoiceId,
    amountMinor: done.amountMinor,
    currency: done.currency,
    invoiceState: done.invoiceState,
    remainingMinor: done.remainingMinor,
  };
}

/** `runDailyJob` for a day (default today): distribution, collection steps, interest, recourse. */
export async function runDailyJob(
  ctx: AppContext,
  call: OperatorCall,
  body: z.output<typeof runDailyBodySchema> | undefined,
) {
  const { operator, ip } = call;
  const now = ctx.now();
  const date = operatorMoneyDay(now, body?.date, 'date');
  const result = await runDaily(ctx.db, {
    date,
    now,
    referenceRateBp: ctx.config.referenceRateBp,
    plans: runPlanSteps,
  });
  await auditOperator(ctx.db, 'backoffice.daily_job', operator, ip, {
    details: {
      ...result,
      failed: result.failed.length,
      failures: result.failures.map((f) => ({
        issuerId: f.issuerId,
        invoiceId: f.invoiceId,
        planId: f.planId ?? null,
        code: f.code,
        message: f.message,
      })),
    },
  });
  for (const f of result.failures)
    call.log.error(
      { issuerId: f.issuerId, invoiceId: f.invoiceId, planId: f.planId, code: f.code, err: f.message },
      'daily job: left as it was',
    );
  return {
    ...result,
    failures: result.failures.map((f) => ({
      issuerID: f.issuerId,
      invoiceID: f.invoiceId,
      planID: f.planId ?? null,
      code: f.code,
    })),
  };
}

/** `checkBooks`: the double-entry book's violations, if any. */
export async function checkBooks(db: Db) {
  return { violations: await checkLedger(db) };
}

/**
 * `getIssuerFees`: an issuer's fees per service and currency, and its days before an open debt is
 * claimed; an unknown issuer is not found.
 */
export async function getIssuerFees(db: Db, issuerId: string) {
  const debtClaimDays = await repo.debtClaimDaysOf(db, issuerId);
  if (debtClaimDays === undefined) throw new ApiError('issuer.not_found');
  const fees = await repo.feesOf(db, issuerId);
  return {
    issuerID: issuerId,
    debtClaimDays,
    fees: fees.map((f) => ({
      service: f.service as ServiceType,
      currency: f.currency as 'SEK' | 'EUR',
      percentBasisPoints: f.percentBasisPoints,
      fixedMinor: f.fixedMinor,
    })),
  };
}

/** `setIssuerFees`: the issuer's fees replaced in one transaction (the next payout run uses them). */
export async function setIssuerFees(
  ctx: AppContext,
  call: OperatorCall,
  issuerId: string,
  body: z.output<typeof issuerFeesBodySchema>,
) {
  const { operator, ip } = call;
  await getIssuerFees(ctx.db, issuerId);
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await repo.replaceFees(tx, issuerId, body.fees, now);
    if (body.debtClaimDays !== undefined) await repo.setDebtClaimDays(tx, issuerId, body.debtClaimDays);
    await auditOperator(tx, 'backoffice.fees.updated', operator, ip, {
      issuerId,
      details: { fees: body.fees, debtClaimDays: body.debtClaimDays ?? null },
    });
  });
  return getIssuerFees(ctx.db, issuerId);
}

/** `listIssuerDebtClaims`: every issuer's debt claims, newest first, open or paid. */
export async function listIssuerDebtClaims(db: Db, query: z.output<typeof listIssuerDebtClaimsQuerySchema>) {
  return listAllClaims(db, query.state);
}

/**
 * `claimIssuerDebts` (docs/MONEY.md "Debt claims"): with an issuer, its open debt claimed at once in
 * one transaction with the audit row (404 for no such issuer); without, the daily job's claim step for
 * the day (every debt old enough, each issuer in its own transaction, and the reminders due).
 */
export async function claimIssuerDebts(
  ctx: AppContext,
  call: OperatorCall,
  body: z.output<typeof claimIssuerDebtsBodySchema> | undefined,
) {
  const { operator, ip } = call;
  const now = ctx.now();
  const date = operatorMoneyDay(now, body?.date, 'date');
  const issuerId = body?.issuerID;
  const done = issuerId
    ? {
        claims: await ctx.db.transaction(async (tx) => {
          if ((await repo.debtClaimDaysOf(tx, issuerId)) === undefined)
            throw new ApiError('issuer.not_found');
          const made = await claimIssuerDebt(tx, issuerId, { date, now, operatorId: operator.operatorId });
          await auditOperator(tx, 'backoffice.debt_claims', operator, ip, {
            issuerId,
            details: { date, claims: made.map((c) => c.claimId) },
          });
          return made;
        }),
        reminders: 0,
        failures: [],
      }
    : await runDebtClaims(ctx.db, { date, now });
  if (!issuerId)
    await auditOperator(ctx.db, 'backoffice.debt_claims', operator, ip, {
      details: {
        date,
        claims: done.claims.map((c) => c.claimId),
        reminders: done.reminders,
        failures: done.failures.map((f) => ({ issuerId: f.issuerId, code: f.code, message: f.message })),
      },
    });
  for (const f of done.failures)
    call.log.error({ issuerId: f.issuerId, code: f.code, err: f.message }, 'debt claims: left as it was');
  return {
    claims: done.claims.map((c) => ({
      claimID: c.claimId,
      number: c.number,
      issuerID: c.issuerId,
      currency: c.currency,
      amountMinor: c.amountMinor,
      rowCount: c.rowCount,
      ocr: c.ocr,
      dueDate: c.dueDate,
    })),
    reminders: done.reminders,
    failed: done.failures.map((f) => ({ issuerID: f.issuerId, code: f.code })),
  };
}
