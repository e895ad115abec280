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
  transferCostDetailSchema,
  transferCostQuerySchema,
} from '@portal/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contentDisposition } from '../../lib/file-names';
import { errorResponses, routeOf, signedIn } from '../../routes/define';
import * as moneyService from './money.service';

/** The customer's side of the money flow: transfer costs (settlements), the fee preview and the payments report. */
export async function moneyRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = fastify;

  app.route({
    ...routeOf('listTransferCosts'),
    schema: {
      tags: ['money'],
      summary: 'The caller’s settlements (transfer costs), newest first, filtered by created date',
      querystring: listTransferCostsQuerySchema,
      response: { 200: listTransferCostsResponseSchema, ...errorResponses },
    },
    handler: async (request) =>
      moneyService.listTransferCosts(ctx.db, signedIn(request).issuerId, request.query),
  });

  app.route({
    ...routeOf('getTransferCost'),
    schema: {
      tags: ['money'],
      summary: 'One settlement with its rows (paged): invoice, kind, gross, fee and net',
      params: idParamsSchema,
      querystring: transferCostQuerySchema,
      response: { 200: transferCostDetailSchema, ...errorResponses },
    },
    handler: async (request) =>
      moneyService.getTransferCost(ctx.db, signedIn(request).issuerId, request.params.id, request.query),
  });

  app.route({
    ...routeOf('getTransferCostBgmax'),
    schema: {
      tags: ['money'],
      summary:
        'The settlement as a BGMAX file for the customer’s accounting: one payment per row, the net amount, the invoice’s OCR reference',
      params: idParamsSchema,
    },
    handler: async (request, reply) => {
      const file = await moneyService.getTransferCostBgmax(
        ctx.db,
        signedIn(request).issuerId,
        request.params.id,
      );
      return reply
        .header('Content-Disposition', contentDisposition(file.fileName))
        .type('application/octet-stream')
        .send(Buffer.from(file.bytes));
    },
  });

  app.route({
    ...routeOf('previewFees'),
    schema: {
      tags: ['money'],
      summary: 'Before sending: the fees and the payout the next payout run would make for these invoices',
      body: feesPreviewBodySchema,
      response: { 200: feesPreviewResponseSchema, ...errorResponses },
    },
    handler: async (request) =>
      moneyService.previewFees(ctx.db, signedIn(request).issuerId, request.body.invoiceIDs),
  });

  app.route({
    ...routeOf('getPaymentsReport'),
    schema: {
      tags: ['money'],
      summary:
        'Payments received on the caller’s invoices in a date range, by recipient and invoice, with totals',
      querystring: paymentsReportQuerySchema,
      response: { 200: paymentsReportResponseSchema, ...errorResponses },
    },
    handler: async (request) =>
      moneyService.getPaymentsReport(ctx.db, signedIn(request).issuerId, request.query),
  });

  app.route({
    ...routeOf('exportPaymentsReport'),
    schema: {
      tags: ['money'],
      summary: 'The payments report as Excel or CSV (streamed), in the user’s language',
      querystring: paymentsExportQuerySchema.and(z.object({ language: z.enum(LANGUAGES).optional() })),
    },
    handler: async (request, reply) => {
      const file = await moneyService.exportPaymentsReport(ctx.db, signedIn(request), request.query);
      reply.header('Content-Disposition', contentDisposition(file.fileName)).type(file.contentType);
      return reply.send(file.stream);
    },
  });
}
