/**
 * The contract schemas the web parses with, and the form resolver. Only ever imported dynamically
 * (see loadSchemas): zod is the largest library here, and keeping it out of the login page's static
 * graph keeps that page inside the 150 kB budget. main.tsx prefetches it right after the first render.
 */
export { zodResolver } from '@hookform/resolvers/zod';
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
