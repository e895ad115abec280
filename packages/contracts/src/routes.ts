// Over 500 lines on purpose: the route table, one entry per call (method, path, permission), so every
// route's permission is written once and the tenancy test can loop over all of them.
import { type Ability, HISTORY_ABILITIES, REPORT_ABILITIES } from './abilities';
import { INSTALLMENT_PLAN_ROUTES } from './installment-plan-routes';
import { SIGN_IN_ROUTES } from './sign-in-routes';

export { SIGN_IN_ROUTES };

/** Who may download invoices' PDFs, one or several: the history's keys and those who register or send. */
const INVOICE_PDF_ABILITIES = [
  ...HISTORY_ABILITIES,
  'limited_register_invoice',
  'limited_send_invoice',
] as const satisfies readonly Ability[];

/**
 * How a route is reached:
 * - `public`: no token (sign-in, reset, group branding);
 * - `session`: a full session token of a customer user;
 * - `operator`: a session token of one of our operators (the back office, docs/BACKOFFICE.md). The two
 *   kinds live in separate tables, so a customer token never opens a back-office route and an operator
 *   token never opens a customer route.
 * The first-step token of a two-factor sign-in is not a session: it is sent in the body of
 * `login2fa` only, so no route accepts it as a bearer token.
 */
export type RouteAuth = 'public' | 'session' | 'operator';

export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Fastify path, with the `/api` prefix. */
  path: string;
  auth: RouteAuth;
  /**
   * The ability a caller needs (spec §6): one key, or a list of which any one will do; null when any
   * signed-in user may call it. Operator routes have none yet: every active operator may call them.
   */
  permission: Ability | readonly Ability[] | null;
  /**
   * True when the route stays open while the account must still change its initial password or
   * set up forced two-factor (the blocking overlay of spec §2). Other session routes answer 403
   * `auth.setup_required` until then.
   */
  allowDuringSetup: boolean;
}

/** Every API route, by operationId. A server test fails when a registered route is missing here. */
export const ROUTES = {
  getHealth: { method: 'GET', path: '/api/health', auth: 'public', permission: null, allowDuringSetup: true },
  getOpenApi: {
    method: 'GET',
    path: '/api/openapi.json',
    auth: 'public',
    permission: null,
    allowDuringSetup: true,
  },
  ...SIGN_IN_ROUTES,
  ...INSTALLMENT_PLAN_ROUTES,
  logout: { method: 'POST', path: '/api/logout', auth: 'session', permission: null, allowDuringSetup: true },
  getSelf: { method: 'GET', path: '/api/self', auth: 'session', permission: null, allowDuringSetup: true },
  changePassword: {
    method: 'POST',
    path: '/api/limited/account',
    auth: 'session',
    permission: null,
    allowDuringSetup: true,
  },
  saveIssuerInfo: {
    method: 'POST',
    path: '/api/limited/issuerInfo',
    auth: 'session',
    permission: null,
    allowDuringSetup: false,
  },
  enableTwoFactor: {
    method: 'GET',
    path: '/api/limited/2fa/enable',
    auth: 'session',
    permission: null,
    allowDuringSetup: true,
  },
  cancelTwoFactorSetup: {
    method: 'GET',
    path: '/api/limited/2fa/disable',
    auth: 'session',
    permission: null,
    allowDuringSetup: true,
  },
  disableTwoFactor: {
    method: 'POST',
    path: '/api/limited/2fa/disable',
    auth: 'session',
    permission: null,
    allowDuringSetup: true,
  },
  verifyTwoFactor: {
    method: 'POST',
    path: '/api/limited/2fa/verify',
    auth: 'session',
    permission: null,
    allowDuringSetup: true,
  },
  listRecipients: {
    method: 'GET',
    path: '/api/limited/recipients',
    auth: 'session',
    permission: null,
    allowDuringSetup: false,
  },
  getRecipient: {
    method: 'GET',
    path: '/api/limited/recipients/:id',
    auth: 'session',
    permission: null,
    allowDuringSetup: false,
  },
  createRecipient: {
    method: 'POST',
    path: '/api/limited/recipients',
    auth: 'session',
    permission: null,
    allowDuringSetup: false,
  },
  updateRecipient: {
    method: 'PUT',
    path: '/api/limited/recipients/:id',
    auth: 'session',
    permission: null,
    allowDuringSetup: false,
  },
  deleteRecipient: {
    method: 'DELETE',
    path: '/api/limited/recipients/:id',
    auth: 'session',
    permission: null,
    allowDuringSetup: false,
  },
  searchCompanies: {
    method: 'GET',
    path: '/api/limited/companies',
    auth: 'session',
    permission: null,
    allowDuringSetup: false,
  },
  listArticles: {
    method: 'GET',
    path: '/api/limited/articles',
    auth: 'session',
    permission: HISTORY_ABILITIES,
    allowDuringSetup: false,
  },
  getArticle: {
    method: 'GET',
    path: '/api/limited/articles/:id',
    auth: 'session',
    permission: HISTORY_ABILITIES,
    allowDuringSetup: false,
  },
  createArticle: {
    method: 'POST',
    path: '/api/limited/articles',
    auth: 'session',
    permission: HISTORY_ABILITIES,
    allowDuringSetup: false,
  },
  updateArticle: {
    method: 'PUT',
    path: '/api/limited/articles/:id',
    auth: 'session',
    permission: HISTORY_ABILITIES,
    allowDuringSetup: false,
  },
  deleteArticle: {
    method: 'DELETE',
    path: '/api/limited/articles/:id',
    auth: 'session',
    permission: HISTORY_ABILITIES,
    allowDuringSetup: false,
  },
  listInvoices: {
    method: 'GET',
    path: '/api/limited/invoices',
    auth: 'session',
    permission: HISTORY_ABILITIES,
    allowDuringSetup: false,
  },
  listPendingInvoices: {
    method: 'GET',
    path: '/api/limited/invoices/pending',
    auth: 'session',
    permission: 'limited_send_invoice',
    allowDuringSetup: false,
  },
  getNextInvoiceNumber: {
    method: 'GET',
    path: '/api/limited/invoices/next-number',
    auth: 'session',
    permission: ['limited_register_invoice', 'limited_register_invoice_upload'],
    allowDuringSetup: false,
  },
  getInvoice: {
    method: 'GET',
    path: '/api/limited/invoices/:id',
    auth: 'session',
    permission: [
      'limited_invoices',
      'limited_transfercosts',
      'limited_register_invoice',
      'limited_register_invoice_upload',
      'limited_send_invoice',
    ],
    allowDuringSetup: false,
  },
  createInvoice: {
    method: 'POST',
    path: '/api/limited/invoices',
    auth: 'session',
    permission: 'limited_register_invoice',
    allowDuringSetup: false,
  },
  /** `/invoice/upload`: the customer's own invoice PDF with its facts (docs/INVOICES.md). */
  uploadInvoice: {
    method: 'POST',
    path: '/api/limited/invoices/upload',
    auth: 'session',
    permission: 'limited_register_invoice_upload',
    allowDuringSetup: false,
  },
  updateInvoice: {
    method: 'PUT',
    path: '/api/limited/invoices/:id',
    auth: 'session',
    permission: 'limited_register_invoice',
    allowDuringSetup: false,
  },
  deleteInvoice: {
    method: 'DELETE',
    path: '/api/limited/invoices/:id',
    auth: 'session',
    permission: 'limited_register_invoice',
    allowDuringSetup: false,
  },
  sendInvoices: {
    method: 'POST',
    path: '/api/limited/invoices/send',
    auth: 'session',
    permission: 'limited_send_invoice',
    allowDuringSetup: false,
  },
  listMessages: {
    method: 'GET',
    path: '/api/limited/messages',
    auth: 'session',
    permission: null,
    allowDuringSetup: false,
  },
  createMessage: {
    method: 'POST',
    path: '/api/limited/messages',
    auth: 'session',
    permission: null,
    allowDuringSetup: false,
  },
  markMessageRead: {
    method: 'POST',
    path: '/api/limited/messages/:id/read',
    auth: 'session',
    permission: null,
    allowDuringSetup: false,
  },
  uploadFile: {
    method: 'POST',
    path: '/api/limited/files',
    auth: 'session',
    permission: [
      'limited_register_invoice',
      'limited_register_invoice_upload',
      'limited_register_invoice_file_upload',
    ],
    allowDuringSetup: false,
  },
  downloadFile: {
    method: 'GET',
    path: '/api/limited/files/:id',
    auth: 'session',
    permission: [
      'limited_invoices',
      'limited_register_invoice',
      'limited_register_invoice_upload',
      'limited_send_invoice',
    ],
    allowDuringSetup: false,
  },
  getInvoicePdf: {
    method: 'GET',
    path: '/api/limited/invoices/:id/pdf',
    auth: 'session',
    permission: INVOICE_PDF_ABILITIES,
    allowDuringSetup: false,
  },
  getInvoicesPdf: {
    method: 'POST',
    path: '/api/limited/invoices/pdf',
    auth: 'session',
    permission: INVOICE_PDF_ABILITIES,
    allowDuringSetup: false,
  },
  previewInvoiceImport: {
    method: 'POST',
    path: '/api/limited/invoices/import/preview',
    auth: 'session',
    permission: 'limited_register_invoice_file_upload',
    allowDuringSetup: false,
  },
  importInvoices: {
    method: 'POST',
    path: '/api/limited/invoices/import',
    auth: 'session',
    permission: 'limited_register_invoice_file_upload',
    allowDuringSetup: false,
  },
  getImportTemplate: {
    method: 'GET',
    path: '/api/limited/invoices/import/template',
    auth: 'session',
    permission: 'limited_register_invoice_file_upload',
    allowDuringSetup: false,
  },
  backofficeLogin: {
    method: 'POST',
    path: '/api/backoffice/login',
    auth: 'public',
    permission: null,
    allowDuringSetup: true,
  },
  runPayout: {
    method: 'POST',
    path: '/api/backoffice/payouts',
    auth: 'operator',
    permission: null,
    allowDuringSetup: true,
  },
  listHeldPayouts: {
    method: 'GET',
    path: '/api/backoffice/payouts/held',
    auth: 'operator',
    permission: null,
    allowDuringSetup: true,
  },
  importPayments: {
    method: 'POST',
    path: '/api/backoffice/payments/import',
    auth: 'operator',
    permission: null,
    allowDuringSetup: true,
  },
  listUnmatchedPayments: {
    method: 'GET',
    path: '/api/backoffice/payments/unmatched',
    auth: 'operator',
    permission: null,
    allowDuringSetup: true,
  },
  assignPayment: {
    method: 'POST',
    path: '/api/backoffice/payments/:id/assign',
    auth: 'operator',
    permission: null,
    allowDuringSetup: true,
  },
  listDeductions: {
    method: 'GET',
    path: '/api/backoffice/deductions',
    auth: 'operator',
    permission: null,
    allowDuringSetup: true,
  },
  resolveDeduction: {
    method: 'POST',
    path: '/api/backoffice/deductions/:id/resolve',
    auth: 'operator',
    permission: null,
    allowDuringSetup: true,
  },
  runDailyJob: {
    method: 'POST',
    path: '/api/backoffice/daily',
    auth: 'operator',
    permission: null,
    allowDuringSetup: true,
  },
  checkBooks: {
    method: 'GET',
    path: '/api/backoffice/books/check',
    auth: 'operator',
    permission: null,
    allowDuringSetup: true,
  },
  getIssuerFees: {
    method: 'GET',
    path: '/api/backoffice/issuers/:id/fees',
    auth: 'operator',
    permission: null,
    allowDuringSetup: true,
  },
  setIssuerFees: {
    method: 'PUT',
    path: '/api/backoffice/issuers/:id/fees',
    auth: 'operator',
    permission: null,
    allowDuringSetup: true,
  },
  listIssuerDebtClaims: {
    method: 'GET',
    path: '/api/backoffice/debtclaims',
    auth: 'operator',
    permission: null,
    allowDuringSetup: true,
  },
  claimIssuerDebts: {
    method: 'POST',
    path: '/api/backoffice/debtclaims',
    auth: 'operator',
    permission: null,
    allowDuringSetup: true,
  },
  listDebtClaims: {
    method: 'GET',
    path: '/api/limited/debtclaims',
    auth: 'session',
    permission: HISTORY_ABILITIES,
    allowDuringSetup: false,
  },
  getDebtClaim: {
    method: 'GET',
    path: '/api/limited/debtclaims/:id',
    auth: 'session',
    permission: HISTORY_ABILITIES,
    allowDuringSetup: false,
  },
  listTransferCosts: {
    method: 'GET',
    path: '/api/limited/transfercosts',
    auth: 'session',
    permission: HISTORY_ABILITIES,
    allowDuringSetup: false,
  },
  getTransferCost: {
    method: 'GET',
    path: '/api/limited/transfercosts/:id',
    auth: 'session',
    permission: HISTORY_ABILITIES,
    allowDuringSetup: false,
  },
  getTransferCostBgmax: {
    method: 'GET',
    path: '/api/limited/transfercosts/:id/bgmax',
    auth: 'session',
    permission: HISTORY_ABILITIES,
    allowDuringSetup: false,
  },
  previewFees: {
    method: 'POST',
    path: '/api/limited/invoices/fees-preview',
    auth: 'session',
    permission: 'limited_send_invoice',
    allowDuringSetup: false,
  },
  getPaymentsReport: {
    method: 'GET',
    path: '/api/limited/reports/payments',
    auth: 'session',
    permission: 'limited_report_payments',
    allowDuringSetup: false,
  },
  exportPaymentsReport: {
    method: 'GET',
    path: '/api/limited/reports/payments/export',
    auth: 'session',
    permission: 'limited_report_payments',
    allowDuringSetup: false,
  },
  getDashboard: {
    method: 'GET',
    path: '/api/limited/dashboard',
    auth: 'session',
    permission: null,
    allowDuringSetup: false,
  },
  backofficeLogin2fa: {
    method: 'POST',
    path: '/api/backoffice/login-2fa',
    auth: 'public',
    permission: null,
    allowDuringSetup: true,
  },
  backofficeLogout: {
    method: 'POST',
    path: '/api/backoffice/logout',
    auth: 'operator',
    permission: null,
    allowDuringSetup: true,
  },
  listPendingDecisions: {
    method: 'GET',
    path: '/api/backoffice/invoices/pending-decision',
    auth: 'operator',
    permission: null,
    allowDuringSetup: true,
  },
  approveInvoice: {
    method: 'POST',
    path: '/api/backoffice/invoices/:id/approve',
    auth: 'operator',
    permission: null,
    allowDuringSetup: true,
  },
  rejectInvoice: {
    method: 'POST',
    path: '/api/backoffice/invoices/:id/reject',
    auth: 'operator',
    permission: null,
    allowDuringSetup: true,
  },
  downloadActiveInvoices: {
    method: 'GET',
    path: '/api/limited/reports/activeInvoices',
    auth: 'session',
    permission: REPORT_ABILITIES,
    allowDuringSetup: false,
  },
  downloadActiveRegress: {
    method: 'GET',
    path: '/api/limited/reports/activeRegress',
    auth: 'session',
    permission: REPORT_ABILITIES,
    allowDuringSetup: false,
  },
  getLedgerReport: {
    method: 'GET',
    path: '/api/limited/reports/ledger',
    auth: 'session',
    permission: 'limited_report_ledger',
    allowDuringSetup: false,
  },
  exportLedgerReport: {
    method: 'GET',
    path: '/api/limited/reports/ledger/export',
    auth: 'session',
    permission: 'limited_report_ledger',
    allowDuringSetup: false,
  },
  getBankVerification: {
    method: 'GET',
    path: '/api/limited/bank-verification',
    auth: 'session',
    permission: 'limited_verify_bank_account',
    allowDuringSetup: false,
  },
  listVerificationBanks: {
    method: 'GET',
    path: '/api/limited/bank-verification/banks',
    auth: 'session',
    permission: 'limited_verify_bank_account',
    allowDuringSetup: false,
  },
  startBankVerification: {
    method: 'POST',
    path: '/api/limited/bank-verification/start',
    auth: 'session',
    permission: 'limited_verify_bank_account',
    allowDuringSetup: false,
  },
  completeBankVerification: {
    method: 'POST',
    path: '/api/limited/bank-verification/callback',
    auth: 'session',
    permission: 'limited_verify_bank_account',
    allowDuringSetup: false,
  },
  confirmBankAccountChange: {
    method: 'POST',
    path: '/api/limited/bank-verification/confirm',
    auth: 'session',
    permission: 'limited_verify_bank_account',
    allowDuringSetup: false,
  },
  /** The provider's server-to-server notice: no session, a signature (docs/SECURITY.md). */
  receiveBankVerificationWebhook: {
    method: 'POST',
    path: '/api/bank-verification/webhook',
    auth: 'public',
    permission: null,
    allowDuringSetup: true,
  },
  /** Fortnox business invoices (issue #13): the sender's ability; the user's fortnoxSetting is checked too. */
  getFortnoxConnection: {
    method: 'GET',
    path: '/api/limited/fortnox',
    auth: 'session',
    permission: 'limited_send_invoice',
    allowDuringSetup: false,
  },
  startFortnoxConnection: {
    method: 'POST',
    path: '/api/limited/fortnox/connect',
    auth: 'session',
    permission: 'limited_send_invoice',
    allowDuringSetup: false,
  },
  completeFortnoxConnection: {
    method: 'POST',
    path: '/api/limited/fortnox/callback',
    auth: 'session',
    permission: 'limited_send_invoice',
    allowDuringSetup: false,
  },
  disconnectFortnox: {
    method: 'POST',
    path: '/api/limited/fortnox/disconnect',
    auth: 'session',
    permission: 'limited_send_invoice',
    allowDuringSetup: false,
  },
  listFortnoxInvoices: {
    method: 'GET',
    path: '/api/limited/fortnox/invoices',
    auth: 'session',
    permission: 'limited_send_invoice',
    allowDuringSetup: false,
  },
  takeOverFortnoxInvoices: {
    method: 'POST',
    path: '/api/limited/fortnox/invoices/take-over',
    auth: 'session',
    permission: 'limited_send_invoice',
    allowDuringSetup: false,
  },
} as const satisfies Record<string, RouteDef>;

export type OperationId = keyof typeof ROUTES;

/** The permission keys of a route as a list: empty when any signed-in user may call it. */
export function routePermissions(def: RouteDef): readonly Ability[] {
  if (def.permission === null) return [];
  return typeof def.permission === 'string' ? [def.permission] : def.permission;
}

/** Builds a concrete path from a route path and its params (`:hash` → value, URL-encoded). */
export function buildPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path param ${name}`);
    return encodeURIComponent(value);
  });
}
