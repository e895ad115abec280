import {
  assignPaymentBodySchema,
  assignPaymentResponseSchema,
  checkBooksResponseSchema,
  idParamsSchema,
  importPaymentsQuerySchema,
  importPaymentsResponseSchema,
  issuerFeesBodySchema,
  issuerFeesResponseSchema,
  listHeldPayoutsResponseSchema,
  listUnmatchedQuerySchema,
  listUnmatchedResponseSchema,
  runDailyBodySchema,
  runDailyResponseSchema,
  runPayoutBodySchema,
  runPayoutResponseSchema,
  type ServiceType,
} from '@portal/contracts';
import { asc, count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { issuerFees, issuers, payments } from '../db/schema';
import { audit } from '../lib/audit';
import { ApiError } from '../lib/errors';
import { normaliseFileName } from '../lib/file-names';
import { todayIn } from '../lib/today';
import { queueFortnoxPayments, registerFortnoxPayments } from '../modules/fortnox/fortnox.service';
import { recordInstallmentPayments, runPlanSteps } from '../modules/installments/installments.service';
import {
  assertNearToday,
  assignPayment,
  checkBooks,
  importBgmaxFile,
  listHeldPayouts,
  type PaymentsApplied,
  runDailyJob,
  runPayout,
} from '../modules/money/money.service';
import { errorResponses, operatorOf, routeOf } from './define';

/**
 * What an applied payment does besides the invoice, in the import's (or assignment's) transaction:
 * queued for the issuer's Fortnox (issue #13), and an installment's payment on its plan's timeline.
 */
const afterPaymentsApplied: PaymentsApplied = async (tx, of, at) => {
  await queueFortnoxPayments(tx, of, at);
  await recordInstallmentPayments(tx, of, at);
};

/** Largest BGMAX file the import takes (100,000 payments with names and addresses is about 25 MB). */
const BGMAX_MAX_BYTES = 64 * 1024 * 1024;

/** The back office's money routes (docs/MONEY.md, docs/BACKOFFICE.md): operators only. */
export async function backofficeMoneyRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;
  // The import's body is the BGMAX file as bytes whatever type it is sent as; only in this scope.
  fastify.addContentTypeParser(
    ['application/octet-stream', 'text/plain'],
    { parseAs: 'buffer', bodyLimit: BGMAX_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );

  app.route({
    ...routeOf('runPayout'),
    schema: {
      tags: ['backoffice'],
      summary: 'Pay out everything owed to issuers: one settlement per issuer and currency',
      body: runPayoutBodySchema,
      response: { 200: runPayoutResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const operator = operatorOf(request);
      const now = ctx.now();
      const today = todayIn(now);
      const payoutDate = request.body?.payoutDate ?? today;
      assertNearToday(payoutDate, today, 'payoutDate');
      const run = await runPayout(ctx.db, {
        payoutDate,
        now,
        operatorId: operator.operatorId,
        record: (tx, part) =>
          audit(tx, 'backoffice.payout', {
            operatorId: operator.operatorId,
            username: operator.username,
            ip: request.ip,
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
          audit(tx, 'backoffice.payout', {
            operatorId: operator.operatorId,
            username: operator.username,
            ip: request.ip,
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
        request.log.error(
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
    },
  });

  app.route({
    ...routeOf('listHeldPayouts'),
    schema: {
      operationId: 'listHeldPayouts',
      tags: ['backoffice'],
      summary:
        'The issuers whose payouts a run would hold now, per currency, with the reason (`bank_account_unverified`: no verified bank account)',
      response: { 200: listHeldPayoutsResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      operatorOf(request);
      return {
        items: (await listHeldPayouts(ctx.db)).map((h) => ({
          issuerID: h.issuerId,
          issuerName: h.issuerName,
          currency: h.currency,
          rowCount: h.rowCount,
          grossMinor: h.grossMinor,
          reason: h.reason,
        })),
      };
    },
  });

  app.route({
    ...routeOf('importPayments'),
    bodyLimit: BGMAX_MAX_BYTES,
    schema: {
      tags: ['backoffice'],
      summary:
        'Import a BGMAX file of incoming payments (the body, application/octet-stream): all or nothing, once',
      querystring: importPaymentsQuerySchema,
      response: { 200: importPaymentsResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const operator = operatorOf(request);
      const bytes = request.body;
      if (!Buffer.isBuffer(bytes) || bytes.length === 0) throw new ApiError('files.required');
      const filename = normaliseFileName(request.query.filename);
      const result = await importBgmaxFile(ctx.db, bytes, {
        filename,
        operatorId: operator.operatorId,
        now: ctx.now(),
        afterApplied: afterPaymentsApplied,
        record: (tx, done) =>
          audit(tx, 'backoffice.payments.imported', {
            operatorId: operator.operatorId,
            username: operator.username,
            ip: request.ip,
            details: { ...done, filename },
          }),
      });
      // Issue #13: the payments it queued for Fortnox are registered there right away (not awaited:
      // Fortnox's answer is not the import's; what fails now the daily job tries again).
      void registerFortnoxPayments(ctx, request.log).catch((err) =>
        request.log.warn({ err }, 'fortnox: registering payments failed'),
      );
      const { fileId, ...counts } = result;
      return { fileID: fileId, ...counts };
    },
  });

  app.route({
    ...routeOf('listUnmatchedPayments'),
    schema: {
      tags: ['backoffice'],
      summary: 'Incoming payments no invoice claimed, oldest first, for an operator to assign',
      querystring: listUnmatchedQuerySchema,
      response: { 200: listUnmatchedResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      operatorOf(request);
      const { page, pageSize } = request.query;
      const unmatched = eq(payments.status, 'unmatched');
      const [found, [total]] = await Promise.all([
        ctx.db
          .select()
          .from(payments)
          .where(unmatched)
          .orderBy(asc(payments.createdAt), asc(payments.id))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        ctx.db.select({ n: count() }).from(payments).where(unmatched),
      ]);
      return {
        items: found.map((p) => ({
          paymentID: p.id,
          receivingBankgiro: p.receivingBankgiro,
          issuerID: p.issuerId,
          reference: p.reference,
          amountMinor: p.amountMinor,
          currency: p.currency,
          paymentDate: p.paymentDate,
          payerName: p.payerName,
        })),
        total: total?.n ?? 0,
        page,
        pageSize,
      };
    },
  });

  app.route({
    ...routeOf('assignPayment'),
    schema: {
      tags: ['backoffice'],
      summary: 'Assign an unmatched payment to an invoice; it then counts as paid on it',
      params: idParamsSchema,
      body: assignPaymentBodySchema,
      response: { 200: assignPaymentResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const operator = operatorOf(request);
      const done = await assignPayment(
        ctx.db,
        request.params.id,
        request.body.invoiceID,
        operator,
        ctx.now(),
        request.ip,
        afterPaymentsApplied,
      );
      return {
        paymentID: done.paymentId,
        invoiceID: done.invoiceId,
        appliedMinor: done.appliedMinor,
        overpaidMinor: done.overpaidMinor,
        state: done.state,
        remainingMinor: done.remainingMinor,
      };
    },
  });

  app.route({
    ...routeOf('runDailyJob'),
    schema: {
      tags: ['backoffice'],
      summary:
        'Run the daily job for a day (default today): distribution, collection steps, interest, recourse',
      body: runDailyBodySchema,
      response: { 200: runDailyResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const operator = operatorOf(request);
      const now = ctx.now();
      const today = todayIn(now);
      const date = request.body?.date ?? today;
      assertNearToday(date, today, 'date');
      const result = await runDailyJob(ctx.db, {
        date,
        now,
        referenceRateBp: ctx.config.referenceRateBp,
        plans: runPlanSteps,
      });
      await audit(ctx.db, 'backoffice.daily_job', {
        operatorId: operator.operatorId,
        username: operator.username,
        ip: request.ip,
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
        request.log.error(
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
    },
  });

  app.route({
    ...routeOf('checkBooks'),
    schema: {
      tags: ['backoffice'],
      summary: 'Check the double-entry book: balanced journals, invoice remaining amounts, settlement totals',
      response: { 200: checkBooksResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      operatorOf(request);
      return { violations: await checkBooks(ctx.db) };
    },
  });

  const feesOf = async (issuerId: string) => {
    const [issuer] = await ctx.db.select({ id: issuers.id }).from(issuers).where(eq(issuers.id, issuerId));
    if (!issuer) throw new ApiError('issuer.not_found');
    const fees = await ctx.db
      .select()
      .from(issuerFees)
      .where(eq(issuerFees.issuerId, issuerId))
      .orderBy(asc(issuerFees.service), asc(issuerFees.currency));
    return {
      issuerID: issuerId,
      fees: fees.map((f) => ({
        service: f.service as ServiceType,
        currency: f.currency as 'SEK' | 'EUR',
        percentBasisPoints: f.percentBasisPoints,
        fixedMinor: f.fixedMinor,
      })),
    };
  };

  app.route({
    ...routeOf('getIssuerFees'),
    schema: {
      tags: ['backoffice'],
      summary: 'An issuer’s fees per service and currency',
      params: idParamsSchema,
      response: { 200: issuerFeesResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      operatorOf(request);
      return feesOf(request.params.id);
    },
  });

  app.route({
    ...routeOf('setIssuerFees'),
    schema: {
      tags: ['backoffice'],
      summary: 'Replace an issuer’s fees (the next payout run uses them)',
      params: idParamsSchema,
      body: issuerFeesBodySchema,
      response: { 200: issuerFeesResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const operator = operatorOf(request);
      const issuerId = request.params.id;
      await feesOf(issuerId);
      const now = ctx.now();
      await ctx.db.transaction(async (tx) => {
        await tx.delete(issuerFees).where(eq(issuerFees.issuerId, issuerId));
        if (request.body.fees.length > 0)
          await tx
            .insert(issuerFees)
            .values(request.body.fees.map((f) => ({ issuerId, ...f, updatedAt: now })));
        await audit(tx, 'backoffice.fees.updated', {
          operatorId: operator.operatorId,
          username: operator.username,
          issuerId,
          ip: request.ip,
          details: { fees: request.body.fees },
        });
      });
      return feesOf(issuerId);
    },
  });
}
