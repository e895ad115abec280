import {
  feesPreviewBodySchema,
  feesPreviewResponseSchema,
  idParamsSchema,
  languageQuerySchema,
  listTransferCostsQuerySchema,
  listTransferCostsResponseSchema,
  paymentsExportQuerySchema,
  paymentsReportQuerySchema,
  paymentsReportResponseSchema,
  transferCostDetailSchema,
  transferCostQuerySchema,
} from '@portal/contracts';
import { issuerQuery, routeModule, routesTagged, sendFile, signedIn } from '../../routes/define';
import * as moneyService from './money.service';

/** The customer's side of the money flow: transfer costs (settlements), the fee preview and the payments report. */
export const moneyRoutes = routeModule((app, ctx) => {
  const route = routesTagged(['money']);

  app.route({
    ...route('listTransferCosts', {
      summary: 'The caller’s settlements (transfer costs), newest first, filtered by created date',
      querystring: listTransferCostsQuerySchema,
      ok: listTransferCostsResponseSchema,
    }),
    handler: issuerQuery(ctx, moneyService.listTransferCosts),
  });

  app.route({
    ...route('getTransferCost', {
      summary: 'One settlement with its rows (paged): invoice, kind, gross, fee and net',
      params: idParamsSchema,
      querystring: transferCostQuerySchema,
      ok: transferCostDetailSchema,
    }),
    handler: async (request) =>
      moneyService.getTransferCost(ctx.db, signedIn(request).issuerId, request.params.id, request.query),
  });

  app.route({
    ...route('getTransferCostBgmax', {
      summary:
        'The settlement as a BGMAX file for the customer’s accounting: one payment per row, the net amount, the invoice’s OCR reference',
      params: idParamsSchema,
    }),
    handler: async (request, reply) => {
      const file = await moneyService.getTransferCostBgmax(
        ctx.db,
        signedIn(request).issuerId,
        request.params.id,
      );
      return sendFile(reply, file.fileName, 'application/octet-stream', file.bytes);
    },
  });

  app.route({
    ...route('previewFees', {
      summary: 'Before sending: the fees and the payout the next payout run would make for these invoices',
      body: feesPreviewBodySchema,
      ok: feesPreviewResponseSchema,
    }),
    handler: async (request) =>
      moneyService.previewFees(ctx.db, signedIn(request).issuerId, request.body.invoiceIDs),
  });

  app.route({
    ...route('getPaymentsReport', {
      summary:
        'Payments received on the caller’s invoices in a date range, by recipient and invoice, with totals',
      querystring: paymentsReportQuerySchema,
      ok: paymentsReportResponseSchema,
    }),
    handler: issuerQuery(ctx, moneyService.getPaymentsReport),
  });

  app.route({
    ...route('exportPaymentsReport', {
      summary: 'The payments report as Excel or CSV (streamed), in the user’s language',
      querystring: paymentsExportQuerySchema.and(languageQuerySchema),
    }),
    handler: async (request, reply) => {
      const file = await moneyService.exportPaymentsReport(ctx.db, signedIn(request), request.query);
      return sendFile(reply, file.fileName, file.contentType, file.stream);
    },
  });
});
