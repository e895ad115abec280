import {
  debtClaimDetailSchema,
  feesPreviewBodySchema,
  feesPreviewResponseSchema,
  idParamsSchema,
  languageQuerySchema,
  listDebtClaimsResponseSchema,
  listTransferCostsQuerySchema,
  listTransferCostsResponseSchema,
  paymentsExportQuerySchema,
  paymentsReportQuerySchema,
  paymentsReportResponseSchema,
  transferCostDetailSchema,
  transferCostQuerySchema,
} from '@portal/contracts';
import {
  issuerDownload,
  issuerItem,
  issuerItemQuery,
  issuerQuery,
  routeModule,
  sendFile,
  signedIn,
} from '../../routes/define';
import * as moneyService from './money.service';

/** The customer's side of the money flow: transfer costs (settlements), the fee preview and the payments report. */
export const moneyRoutes = routeModule(['money'], (route, ctx) => {
  route(
    'listTransferCosts',
    'The caller’s settlements (transfer costs), newest first, filtered by created date',
    { querystring: listTransferCostsQuerySchema, ok: listTransferCostsResponseSchema },
    issuerQuery(ctx, moneyService.listTransferCosts),
  );
  route(
    'getTransferCost',
    'One settlement with its rows (paged): invoice, kind, gross, fee and net',
    { params: idParamsSchema, querystring: transferCostQuerySchema, ok: transferCostDetailSchema },
    issuerItemQuery(ctx, moneyService.getTransferCost),
  );
  route(
    'getTransferCostBgmax',
    'The settlement as a BGMAX file for the customer’s accounting: one payment per row, the net amount, the invoice’s OCR reference',
    { params: idParamsSchema },
    issuerDownload(ctx, 'application/octet-stream', moneyService.getTransferCostBgmax),
  );
  route(
    'listDebtClaims',
    'The caller’s debt claims (what it owes us after charge backs no payouts covered), newest first',
    { ok: listDebtClaimsResponseSchema },
    async (request) => moneyService.listIssuerClaims(ctx.db, signedIn(request).issuerId),
  );
  route(
    'getDebtClaim',
    'One debt claim as its statement: each charge back and set-off it took, its OCR, due date and payments',
    { params: idParamsSchema, ok: debtClaimDetailSchema },
    issuerItem(ctx, moneyService.getIssuerClaim),
  );
  route(
    'previewFees',
    'Before sending: the fees and the payout the next payout run would make for these invoices',
    { body: feesPreviewBodySchema, ok: feesPreviewResponseSchema },
    async (request) => moneyService.previewFees(ctx.db, signedIn(request).issuerId, request.body.invoiceIDs),
  );
  route(
    'getPaymentsReport',
    'Payments received on the caller’s invoices in a date range, by recipient and invoice, with totals',
    { querystring: paymentsReportQuerySchema, ok: paymentsReportResponseSchema },
    issuerQuery(ctx, moneyService.getPaymentsReport),
  );
  route(
    'exportPaymentsReport',
    'The payments report as Excel or CSV (streamed), in the user’s language',
    { querystring: paymentsExportQuerySchema.and(languageQuerySchema) },
    async (request, reply) => {
      const file = await moneyService.exportPaymentsReport(ctx.db, signedIn(request), request.query);
      return sendFile(reply, file.fileName, file.contentType, file.stream);
    },
  );
});
