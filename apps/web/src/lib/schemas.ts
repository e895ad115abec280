/**
 * The contract schemas the signed-in screens parse with. Only ever imported dynamically (see
 * loadSchemas): the login page loads none of it (its own are in public-schemas.ts), and a signed-in
 * page fetches it alongside its first API call.
 */
// The money flow: transfer costs (settlements) and the fee preview.
export {
  activeRegressQuerySchema,
  articleSchema,
  changePasswordFormSchema,
  createMessageBodySchema,
  createMessageResponseSchema,
  dashboardResponseSchema,
  enableTwoFactorResponseSchema,
  errorResponseSchema,
  feesPreviewResponseSchema,
  getGroupResponseSchema,
  getSelfResponseSchema,
  importInvoicesResponseSchema,
  importPreviewResponseSchema,
  invoiceDetailSchema,
  invoiceFileSchema,
  invoiceSummarySchema,
  ledgerResponseSchema,
  listArticlesResponseSchema,
  listInvoicesResponseSchema,
  listMessagesResponseSchema,
  listRecipientsResponseSchema,
  listTransferCostsResponseSchema,
  login2faResponseSchema,
  loginBodySchema,
  loginResponseSchema,
  newPasswordSchema,
  okResponseSchema,
  paymentsReportResponseSchema,
  recipientSchema,
  requestPasswordResetBodySchema,
  saveIssuerInfoBodySchema,
  saveIssuerInfoResponseSchema,
  searchCompaniesResponseSchema,
  sendInvoicesResponseSchema,
  transferCostDetailSchema,
  userSchema,
} from '@portal/contracts';
