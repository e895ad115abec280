import {
  assignPaymentBodySchema,
  assignPaymentResponseSchema,
  checkBooksResponseSchema,
  claimIssuerDebtsBodySchema,
  claimIssuerDebtsResponseSchema,
  idParamsSchema,
  importPaymentsQuerySchema,
  importPaymentsResponseSchema,
  issuerFeesBodySchema,
  issuerFeesResponseSchema,
  listDeductionsQuerySchema,
  listDeductionsResponseSchema,
  listHeldPayoutsResponseSchema,
  listIssuerDebtClaimsQuerySchema,
  listIssuerDebtClaimsResponseSchema,
  listUnmatchedQuerySchema,
  listUnmatchedResponseSchema,
  resolveDeductionBodySchema,
  resolveDeductionResponseSchema,
  runDailyBodySchema,
  runDailyResponseSchema,
  runPayoutBodySchema,
  runPayoutResponseSchema,
} from '@portal/contracts';
import {
  asOperator,
  operatorCallOf as callOf,
  operatorBody,
  operatorItem,
  operatorQuery,
  routeModule,
} from '../../routes/define';
import * as money from './backoffice-money.service';

/** Largest BGMAX file the import takes (100,000 payments with names and addresses is about 25 MB). */
const BGMAX_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The back office's money routes (docs/MONEY.md, docs/BACKOFFICE.md): operators only. HTTP only; the
 * work is in backoffice-money.service.ts.
 */
export const backofficeMoneyRoutes = routeModule(['backoffice'], (route, ctx, fastify) => {
  // The import's body is the BGMAX file as bytes whatever type it is sent as; only in this scope.
  fastify.addContentTypeParser(
    ['application/octet-stream', 'text/plain'],
    { parseAs: 'buffer', bodyLimit: BGMAX_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );

  route(
    'runPayout',
    'Pay out everything owed to issuers: one settlement per issuer and currency',
    { body: runPayoutBodySchema, ok: runPayoutResponseSchema },
    operatorBody(ctx, money.runPayout),
  );
  route(
    'listHeldPayouts',
    'The issuers whose payouts a run would hold now, per currency, with the reason (`bank_account_unverified`: no verified bank account)',
    { ok: listHeldPayoutsResponseSchema },
    async (request) => asOperator(request, () => money.listHeldPayouts(ctx.db)),
  );
  route(
    'importPayments',
    'Import a BGMAX file of incoming payments (the body, application/octet-stream): all or nothing, once',
    { querystring: importPaymentsQuerySchema, ok: importPaymentsResponseSchema, bodyLimit: BGMAX_MAX_BYTES },
    async (request) => money.importPayments(ctx, callOf(request), request.body, request.query.filename),
  );
  route(
    'listUnmatchedPayments',
    'Incoming payments no invoice claimed (a split payment part by part), oldest first, for an operator to assign; `status=information`: the zero amounts kept as information',
    { querystring: listUnmatchedQuerySchema, ok: listUnmatchedResponseSchema },
    operatorQuery(ctx, money.listUnmatchedPayments),
  );
  route(
    'assignPayment',
    'Assign an unmatched payment to an invoice; it then counts as paid on it',
    { params: idParamsSchema, body: assignPaymentBodySchema, ok: assignPaymentResponseSchema },
    async (request) => money.assignPayment(ctx, callOf(request), request.params.id, request.body.invoiceID),
  );
  route(
    'listDeductions',
    'BGMAX deductions (TK21) no operator has resolved, oldest first, with issuer, payer’s reference, amount and date',
    { querystring: listDeductionsQuerySchema, ok: listDeductionsResponseSchema },
    operatorQuery(ctx, money.listDeductions),
  );
  route(
    'resolveDeduction',
    'Resolve a deduction once: charge it to the issuer (a negative row of its next settlement) or settle it against an invoice of the issuer’s',
    { params: idParamsSchema, body: resolveDeductionBodySchema, ok: resolveDeductionResponseSchema },
    async (request) => money.resolveDeduction(ctx, callOf(request), request.params.id, request.body),
  );
  route(
    'runDailyJob',
    'Run the daily job for a day (default today): distribution, collection steps, interest, recourse',
    { body: runDailyBodySchema, ok: runDailyResponseSchema },
    operatorBody(ctx, money.runDailyJob),
  );
  route(
    'checkBooks',
    'Check the double-entry book: balanced journals, invoice remaining amounts, settlement totals',
    { ok: checkBooksResponseSchema },
    async (request) => asOperator(request, () => money.checkBooks(ctx.db)),
  );
  route(
    'listIssuerDebtClaims',
    'Every issuer’s debt claims (debts no payouts covered, claimed with an OCR reference), newest first',
    { querystring: listIssuerDebtClaimsQuerySchema, ok: listIssuerDebtClaimsResponseSchema },
    operatorQuery(ctx, money.listIssuerDebtClaims),
  );
  route(
    'claimIssuerDebts',
    'Claim issuers’ open debts: one issuer’s at once, or every debt older than its issuer’s days (the daily job’s step)',
    { body: claimIssuerDebtsBodySchema, ok: claimIssuerDebtsResponseSchema },
    operatorBody(ctx, money.claimIssuerDebts),
  );
  route(
    'getIssuerFees',
    'An issuer’s fees per service and currency',
    { params: idParamsSchema, ok: issuerFeesResponseSchema },
    operatorItem(ctx, money.getIssuerFees),
  );
  route(
    'setIssuerFees',
    'Replace an issuer’s fees (the next payout run uses them)',
    { params: idParamsSchema, body: issuerFeesBodySchema, ok: issuerFeesResponseSchema },
    async (request) => money.setIssuerFees(ctx, callOf(request), request.params.id, request.body),
  );
});
