import { PassThrough } from 'node:stream';
import {
  feesPreviewBodySchema,
  feesPreviewResponseSchema,
  idParamsSchema,
  LANGUAGES,
  listTransferCostsQuerySchema,
  listTransferCostsResponseSchema,
  paymentsExportQuerySchema,
  paymentsReportQuerySchema,
  paymentsReportResponseSchema,
  type SettlementRow,
  transferCostDetailSchema,
  transferCostQuerySchema,
} from '@portal/contracts';
import {
  bgmaxEndCounts,
  bgmaxSectionTotals,
  createBgmaxSettlementFile,
  writeBgmax,
} from '@portal/domain/bgmax';
import type { Currency } from '@portal/domain/money';
import { translate } from '@portal/i18n';
import { and, asc, count, desc, eq, gte, ilike, inArray, lte, type SQL, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { invoices, issuers, payments, recipients, settlementRows, settlements } from '../db/schema';
import { CSV_CONTENT_TYPE, csvAmount, csvWriter } from '../lib/csv';
import { ApiError } from '../lib/errors';
import { contentDisposition } from '../lib/file-names';
import { addMinor, minorOf } from '../lib/minor';
import { safeCell } from '../lib/spreadsheet-cells';
import { isFinanced } from '../services/ledger';
import { feeTermsOf, NO_FEE, rowFee } from '../services/payouts';
import { languageOf } from '../services/users';
import { errorResponses, routeOf, signedIn } from './define';

/** The created day of a settlement in Sweden, where the customer reads it. */
const createdDay = sql<string>`(${settlements.createdAt} at time zone 'Europe/Stockholm')::date::text`;

/**
 * A settlement as a BGMAX file (one deposit): each row with a positive net is a TK20 payment, each
 * negative one (a charge back) a TK21 deduction, with the invoice's OCR reference; rows of zero move
 * no money and are left out. The deposit (TK15) is then exactly the settlement's total payout; a
 * settlement whose total is negative (the issuer owes us) is no deposit and cannot be written, nor one
 * of an issuer without a bankgiro (409 `settlements.no_bankgiro`).
 */
export function settlementBgmax(
  settlement: { number: number; payoutDate: string; currency: string; day: string; totalPayoutMinor: number },
  bankgiro: string | null,
  lines: { reference: string; netMinor: number }[],
): Uint8Array {
  if (settlement.totalPayoutMinor < 0) throw new ApiError('settlements.negative_total');
  // The deposit is to the issuer's bankgiro; without one there is no BGMAX file to write (a made-up
  // number would book the payout on a bankgiro that is not the customer's).
  const payeeBankgiro = (bankgiro ?? '').replace(/\D/g, '');
  if (payeeBankgiro === '') throw new ApiError('settlements.no_bankgiro');
  const file = createBgmaxSettlementFile({
    payeeBankgiro,
    paymentDate: settlement.payoutDate,
    currency: settlement.currency as Currency,
    depositSerialNumber: settlement.number % 100_000,
    writtenAt: `${settlement.day}T00:00:00.000000`,
    payments: lines
      .filter((l) => l.netMinor > 0)
      .map((l) => ({ reference: l.reference, amountMinor: l.netMinor })),
  });
  const section = file.sections[0];
  if (!section) throw new Error('a settlement file has one deposit');
  let serial = section.payments.length;
  for (const l of lines.filter((x) => x.netMinor < 0)) {
    serial++;
    section.payments.push({
      kind: 'deduction',
      senderBankgiro: null,
      reference: l.reference,
      amountMinor: -l.netMinor,
      referenceCode: /^[0-9]+$/.test(l.reference) ? 2 : 3,
      channel: 1,
      bgcSerialNumber: String(serial).padStart(12, '0'),
      hasImage: false,
      deductionCode: 0,
      extraReferences: [],
      informationTexts: [],
      name: null,
      address1: null,
      address2: null,
      organisationNumber: null,
    });
  }
  const totals = bgmaxSectionTotals(section.payments);
  section.deposit.amountMinor = minorOf(totals.amountMinor);
  section.deposit.paymentCount = totals.paymentCount;
  return writeBgmax({ ...file, end: bgmaxEndCounts(file.sections) });
}

/** The customer's side of the money flow: transfer costs (settlements), the fee preview and the payments report. */
export async function moneyRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;

  const settlementView = (s: typeof settlements.$inferSelect & { day: string }) => ({
    settlementID: s.id,
    number: s.number,
    createdDate: s.day,
    payoutDate: s.payoutDate,
    currency: s.currency,
    grossMinor: s.grossMinor,
    feeMinor: s.feeMinor,
    totalPayoutMinor: s.totalPayoutMinor,
    rowCount: s.rowCount,
  });

  /** The caller's settlement, or 404 — also for another issuer's. */
  const ownSettlement = async (issuerId: string, id: string) => {
    const [found] = await ctx.db
      .select({ s: settlements, day: createdDay })
      .from(settlements)
      .where(and(eq(settlements.id, id), eq(settlements.issuerId, issuerId)));
    if (!found) throw new ApiError('settlements.not_found');
    return { ...found.s, day: found.day };
  };

  app.route({
    ...routeOf('listTransferCosts'),
    schema: {
      operationId: 'listTransferCosts',
      tags: ['money'],
      summary: 'The caller’s settlements (transfer costs), newest first, filtered by created date',
      querystring: listTransferCostsQuerySchema,
      response: { 200: listTransferCostsResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { issuerId } = signedIn(request);
      const { page, pageSize, from, to } = request.query;
      const where = and(
        eq(settlements.issuerId, issuerId),
        from ? sql`${createdDay} >= ${from}` : undefined,
        to ? sql`${createdDay} <= ${to}` : undefined,
      );
      const [found, [total]] = await Promise.all([
        ctx.db
          .select({ s: settlements, day: createdDay })
          .from(settlements)
          .where(where)
          .orderBy(desc(settlements.createdAt), desc(settlements.number))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        ctx.db.select({ n: count() }).from(settlements).where(where),
      ]);
      return {
        items: found.map((f) => settlementView({ ...f.s, day: f.day })),
        total: total?.n ?? 0,
        page,
        pageSize,
      };
    },
  });

  app.route({
    ...routeOf('getTransferCost'),
    schema: {
      operationId: 'getTransferCost',
      tags: ['money'],
      summary: 'One settlement with its rows (paged): invoice, kind, gross, fee and net',
      params: idParamsSchema,
      querystring: transferCostQuerySchema,
      response: { 200: transferCostDetailSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { issuerId } = signedIn(request);
      const settlement = await ownSettlement(issuerId, request.params.id);
      const { page, pageSize } = request.query;
      const found = await ctx.db
        .select({
          row: settlementRows,
          invoiceNumber: invoices.invoiceNumber,
          recipientName: recipients.name,
        })
        .from(settlementRows)
        .innerJoin(invoices, eq(invoices.id, settlementRows.invoiceId))
        .innerJoin(recipients, eq(recipients.id, invoices.recipientId))
        .where(eq(settlementRows.settlementId, settlement.id))
        .orderBy(asc(settlementRows.position))
        .limit(pageSize)
        .offset((page - 1) * pageSize);
      return {
        settlement: settlementView(settlement),
        rows: {
          items: found.map(
            (f): SettlementRow => ({
              invoiceID: f.row.invoiceId,
              invoiceNumber: f.invoiceNumber,
              recipientName: f.recipientName,
              kind: f.row.kind,
              grossMinor: f.row.grossMinor,
              feeMinor: f.row.feeMinor,
              netMinor: f.row.netMinor,
            }),
          ),
          total: settlement.rowCount,
          page,
          pageSize,
        },
      };
    },
  });

  app.route({
    ...routeOf('getTransferCostBgmax'),
    schema: {
      operationId: 'getTransferCostBgmax',
      tags: ['money'],
      summary:
        'The settlement as a BGMAX file for the customer’s accounting: one payment per row, the net amount, the invoice’s OCR reference',
      params: idParamsSchema,
    },
    handler: async (request, reply) => {
      const { issuerId } = signedIn(request);
      const settlement = await ownSettlement(issuerId, request.params.id);
      const [issuer] = await ctx.db.select().from(issuers).where(eq(issuers.id, issuerId));
      const found = await ctx.db
        .select({ row: settlementRows, ocr: invoices.ocr, invoiceNumber: invoices.invoiceNumber })
        .from(settlementRows)
        .innerJoin(invoices, eq(invoices.id, settlementRows.invoiceId))
        .where(eq(settlementRows.settlementId, settlement.id))
        .orderBy(asc(settlementRows.position));
      const bytes = settlementBgmax(
        settlement,
        issuer?.collectionBankgiro ?? null,
        found.map((f) => ({ reference: f.ocr ?? f.invoiceNumber, netMinor: f.row.netMinor })),
      );
      return reply
        .header('Content-Disposition', contentDisposition(`avrakning-${settlement.number}.bgmax`))
        .type('application/octet-stream')
        .send(Buffer.from(bytes));
    },
  });

  app.route({
    ...routeOf('previewFees'),
    schema: {
      operationId: 'previewFees',
      tags: ['money'],
      summary: 'Before sending: the fees and the payout the next payout run would make for these invoices',
      body: feesPreviewBodySchema,
      response: { 200: feesPreviewResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { issuerId } = signedIn(request);
      const found = await ctx.db
        .select()
        .from(invoices)
        .where(and(eq(invoices.issuerId, issuerId), inArray(invoices.id, request.body.invoiceIDs)));
      const terms = await feeTermsOf(ctx.db, [issuerId]);
      const items = found.map((i) => {
        const financed = isFinanced(i.service);
        const feeTerms = terms.get(`${issuerId}|${i.service}|${i.currency}`) ?? NO_FEE;
        // A financed invoice is paid out whole; one we only collect pays its fee when its payment is passed on.
        const feeMinor = rowFee(financed ? 'payout' : 'payment', i.toPayMinor, i.service, feeTerms, true);
        return {
          invoiceID: i.id,
          currency: i.currency,
          financed,
          grossMinor: i.toPayMinor,
          feeMinor,
          netMinor: i.toPayMinor - feeMinor,
        };
      });
      const totals = new Map<
        string,
        { currency: string; grossMinor: number; feeMinor: number; netMinor: number }
      >();
      for (const item of items) {
        const t = totals.get(item.currency) ?? {
          currency: item.currency,
          grossMinor: 0,
          feeMinor: 0,
          netMinor: 0,
        };
        t.grossMinor = addMinor(t.grossMinor, item.grossMinor);
        t.feeMinor = addMinor(t.feeMinor, item.feeMinor);
        t.netMinor = addMinor(t.netMinor, item.netMinor);
        totals.set(item.currency, t);
      }
      return { items, totals: [...totals.values()] };
    },
  });

  const paymentsWhere = (
    issuerId: string,
    q: { from: string; to: string; recipientID?: string; invoiceNumber?: string },
  ): SQL | undefined =>
    and(
      eq(payments.issuerId, issuerId),
      inArray(payments.status, ['matched', 'assigned']),
      gte(payments.paymentDate, q.from),
      lte(payments.paymentDate, q.to),
      q.recipientID ? eq(invoices.recipientId, q.recipientID) : undefined,
      q.invoiceNumber
        ? ilike(invoices.invoiceNumber, `${q.invoiceNumber.replace(/[\\%_]/g, '\\$&')}%`)
        : undefined,
    );
  const paymentColumns = {
    p: payments,
    invoiceNumber: invoices.invoiceNumber,
    recipientName: recipients.name,
  };
  const paymentView = (f: {
    p: typeof payments.$inferSelect;
    invoiceNumber: string;
    recipientName: string;
  }) => ({
    paymentID: f.p.id,
    paymentDate: f.p.paymentDate,
    invoiceID: f.p.invoiceId ?? '',
    invoiceNumber: f.invoiceNumber,
    recipientName: f.recipientName,
    reference: f.p.reference,
    payerName: f.p.payerName,
    currency: f.p.currency,
    amountMinor: f.p.amountMinor,
    appliedMinor: f.p.appliedMinor,
    overpaidMinor: f.p.overpaidMinor,
  });

  app.route({
    ...routeOf('getPaymentsReport'),
    schema: {
      operationId: 'getPaymentsReport',
      tags: ['money'],
      summary:
        'Payments received on the caller’s invoices in a date range, by recipient and invoice, with totals',
      querystring: paymentsReportQuerySchema,
      response: { 200: paymentsReportResponseSchema, ...errorResponses },
    },
    handler: async (request) => {
      const { issuerId } = signedIn(request);
      const q = request.query;
      const where = paymentsWhere(issuerId, q);
      const base = () =>
        ctx.db
          .select(paymentColumns)
          .from(payments)
          .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
          .innerJoin(recipients, eq(recipients.id, invoices.recipientId));
      const [found, sums] = await Promise.all([
        base()
          .where(where)
          .orderBy(desc(payments.paymentDate), desc(payments.id))
          .limit(q.pageSize)
          .offset((q.page - 1) * q.pageSize),
        ctx.db
          .select({
            currency: payments.currency,
            count: count(),
            amountMinor: sql<string>`coalesce(sum(${payments.amountMinor}), 0)::text`,
          })
          .from(payments)
          .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
          .where(where)
          .groupBy(payments.currency)
          .orderBy(asc(payments.currency)),
      ]);
      return {
        items: found.map(paymentView),
        total: sums.reduce((s, t) => s + t.count, 0),
        page: q.page,
        pageSize: q.pageSize,
        totals: sums.map((t) => ({
          currency: t.currency,
          count: t.count,
          amountMinor: minorOf(t.amountMinor),
        })),
      };
    },
  });

  app.route({
    ...routeOf('exportPaymentsReport'),
    schema: {
      operationId: 'exportPaymentsReport',
      tags: ['money'],
      summary: 'The payments report as Excel or CSV (streamed), in the user’s language',
      querystring: paymentsExportQuerySchema.and(z.object({ language: z.enum(LANGUAGES).optional() })),
    },
    handler: async (request, reply) => {
      const auth = signedIn(request);
      const q = request.query;
      const language = q.language ?? (await languageOf(ctx.db, auth.userId));
      const t = (key: string) => translate(language, 'documents', `paymentsReport.columns.${key}`);
      const header = [
        'paymentDate',
        'invoiceNumber',
        'recipient',
        'reference',
        'payer',
        'amount',
        'applied',
        'overpaid',
        'currency',
      ].map(t);
      const where = paymentsWhere(auth.issuerId, q);
      const name = `${translate(language, 'documents', 'paymentsReport.filename')}-${q.from}-${q.to}`;
      const pageOf = (after: { date: string; id: string } | null) =>
        ctx.db
          .select(paymentColumns)
          .from(payments)
          .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
          .innerJoin(recipients, eq(recipients.id, invoices.recipientId))
          .where(
            and(
              where,
              after
                ? sql`(${payments.paymentDate}, ${payments.id}) < (${after.date}::date, ${after.id}::uuid)`
                : undefined,
            ),
          )
          .orderBy(desc(payments.paymentDate), desc(payments.id))
          .limit(2_000);
      const out = new PassThrough();
      if (q.format === 'csv') {
        const csv = csvWriter(language);
        reply.header('Content-Disposition', contentDisposition(`${name}.csv`)).type(CSV_CONTENT_TYPE);
        void (async () => {
          out.write(csv.start(header));
          let after: { date: string; id: string } | null = null;
          for (;;) {
            const batch = await pageOf(after);
            for (const f of batch) {
              const v = paymentView(f);
              const currency = v.currency as Currency;
              out.write(
                csv.record([
                  v.paymentDate,
                  v.invoiceNumber,
                  v.recipientName,
                  v.reference,
                  v.payerName,
                  csvAmount(v.amountMinor, currency),
                  csvAmount(v.appliedMinor, currency),
                  csvAmount(v.overpaidMinor, currency),
                  v.currency,
                ]),
              );
            }
            const last = batch.at(-1);
            if (!last || batch.length < 2_000) break;
            after = { date: last.p.paymentDate, id: last.p.id };
          }
          out.end();
        })().catch((error) => out.destroy(error));
        return reply.send(out);
      }
      reply
        .header('Content-Disposition', contentDisposition(`${name}.xlsx`))
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      void (async () => {
        const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
        const sheet = book.addWorksheet(translate(language, 'documents', 'paymentsReport.sheet'));
        sheet.columns = header.map((h, i) => ({ header: h, width: i === 2 || i === 4 ? 30 : 16 }));
        let after: { date: string; id: string } | null = null;
        for (;;) {
          const batch = await pageOf(after);
          for (const f of batch) {
            const v = paymentView(f);
            const row = sheet.addRow(
              [
                v.paymentDate,
                v.invoiceNumber,
                v.recipientName,
                v.reference,
                v.payerName,
                v.amountMinor / 100,
                v.appliedMinor / 100,
                v.overpaidMinor / 100,
                v.currency,
              ].map((c) => safeCell(c)),
            );
            for (const c of [6, 7, 8]) row.getCell(c).numFmt = '#,##0.00';
            row.commit();
          }
          const last = batch.at(-1);
          if (!last || batch.length < 2_000) break;
          after = { date: last.p.paymentDate, id: last.p.id };
        }
        await sheet.commit();
        await book.commit();
      })().catch((error) => out.destroy(error));
      return reply.send(out);
    },
  });
}
