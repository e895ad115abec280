import { buildPath, type OperationId, ROUTES } from '@portal/contracts';
import type { InjectOptions } from 'fastify';
import { DEMO_PASSWORD } from '../../src/db/seed/demo';

/** The operationIds of the routes that need a session token. */
export type SessionOperationId = {
  [K in OperationId]: (typeof ROUTES)[K]['auth'] extends 'session' ? K : never;
}[OperationId];

export const NEW_PASSWORD = 'Annat-Lösen-7';

export const VALID_ISSUER_BODY = {
  name: 'Nytt Namn AB',
  email: 'ny@example.se',
  VAT: 'SE999999999901',
  telephone: '08-555 000 00',
  address: 'Nygatan 1',
  city: 'Uppsala',
  zipcode: '753 20',
};

/** An id that names nothing: the sample calls of routes on one object answer 404 with it. */
export const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';

export const VALID_RECIPIENT_BODY = {
  name: 'Kund & Co AB',
  address: 'Storgatan 1',
  zipcode: '111 22',
  city: 'Stockholm',
  email: 'faktura@kund.se',
  // No party number: an issuer's recipients have different ones (issue #11), and many tests add this
  // recipient more than once; recipients-numbers.test.ts sends numbers of its own.
  organizationNumber: '',
};

export const VALID_ARTICLE_BODY = {
  articleNumber: 'T-100',
  name: 'Zyxtimme',
  priceMinor: 65_000,
  unit: 'h',
  vatBasisPoints: 2500,
};

/** The terms of every sample invoice: factoring in SEK, dated 2 March 2026 and due 1 April. */
export const INVOICE_TERMS = {
  service: 'factoring',
  currency: 'SEK',
  invoiceDate: '2026-03-02',
  dueDate: '2026-04-01',
};

/** A valid invoice but for its recipient, which a test creates first. */
export const VALID_INVOICE_BODY = {
  invoiceNumber: '5001',
  ...INVOICE_TERMS,
  rows: [
    { name: 'Arbetstimme', quantityMilli: 8000, unit: 'h', unitPriceMinor: 65_000, vatBasisPoints: 2500 },
    { name: 'Material', quantityMilli: 1000, unit: 'st', unitPriceMinor: 12_345, vatBasisPoints: 1200 },
  ],
};

/** The valid invoice sample for one recipient, numbered `invoiceNumber`, with `extra` laid over it. */
export const invoiceBodyFor = (recipientID: string, invoiceNumber: string, extra: object = {}) => ({
  ...VALID_INVOICE_BODY,
  recipientID,
  invoiceNumber,
  ...extra,
});

/** A valid installment plan but for its buyer (a recipient), which a test creates first. */
export const VALID_PLAN_BODY = {
  description: 'Köksrenovering med vitvaror',
  currency: 'SEK',
  financedAmountMinor: 3_600_000,
  startDate: '2026-12-01',
  noOfInstallments: 12,
  monthlyFee: 2_900,
  initialFee: 49_500,
  administrationFee: 3_900,
  signees: [{ name: 'Anna Andersson', identityNumber: '19811218-9876', email: 'anna@example.se', phone: '' }],
  securities: [],
};

/**
 * A well-formed call of every route. A Record over every operationId: adding a route to ROUTES does
 * not compile until it has a sample here, so the loops of the permission and tenancy tests cover it.
 */
export const ROUTE_SAMPLES: Record<
  OperationId,
  { payload?: Record<string, unknown>; params?: Record<string, string>; query?: string }
> = {
  getHealth: {},
  getOpenApi: {},
  listInstallmentPlans: { query: 'state=2&search=kök&sort=loanNumber&order=asc&page=1&pageSize=10' },
  registerInstallmentPlan: { payload: { ...VALID_PLAN_BODY, recipientID: SAMPLE_ID } },
  getInstallmentPlan: { params: { id: SAMPLE_ID } },
  updateInstallmentPlan: {
    params: { id: SAMPLE_ID },
    payload: { ...VALID_PLAN_BODY, recipientID: SAMPLE_ID },
  },
  sendInstallmentPlanForSigning: { params: { id: SAMPLE_ID } },
  cancelInstallmentPlan: { params: { id: SAMPLE_ID } },
  downloadInstallmentPlanAgreement: { params: { id: SAMPLE_ID } },
  decideInstallmentPlan: { params: { id: SAMPLE_ID }, payload: { decision: 'approved' } },
  receiveESigningCallback: { query: 'token=x', payload: { document_id: '1' } },
  getGroup: { query: 'group=acme' },
  login: { payload: { username: 'demo', password: DEMO_PASSWORD } },
  login2fa: { payload: { token: 'x'.repeat(43), code: '000000' } },
  requestPasswordReset: { payload: { username: 'nobody-at-all' } },
  checkPasswordReset: { params: { hash: 'y'.repeat(43) } },
  resetPassword: { payload: { hash: 'y'.repeat(43), new: NEW_PASSWORD } },
  logout: {},
  getSelf: {},
  changePassword: { payload: { old: DEMO_PASSWORD, new: NEW_PASSWORD } },
  saveIssuerInfo: { payload: VALID_ISSUER_BODY },
  enableTwoFactor: {},
  cancelTwoFactorSetup: {},
  disableTwoFactor: { payload: { code: '000000' } },
  verifyTwoFactor: { payload: { code: '000000' } },
  listRecipients: { query: 'search=bygg&sort=name&order=desc&page=1&pageSize=10' },
  getRecipient: { params: { id: SAMPLE_ID } },
  createRecipient: { payload: VALID_RECIPIENT_BODY },
  updateRecipient: { params: { id: SAMPLE_ID }, payload: VALID_RECIPIENT_BODY },
  deleteRecipient: { params: { id: SAMPLE_ID } },
  searchCompanies: { query: 'query=bygg' },
  listArticles: { query: 'search=timme&sort=priceMinor&order=asc' },
  getArticle: { params: { id: SAMPLE_ID } },
  createArticle: { payload: VALID_ARTICLE_BODY },
  updateArticle: { params: { id: SAMPLE_ID }, payload: VALID_ARTICLE_BODY },
  deleteArticle: { params: { id: SAMPLE_ID } },
  listInvoices: { query: 'filter=overdue&search=100&sort=dueDate&order=desc&from=2026-01-01&to=2026-12-31' },
  listPendingInvoices: {},
  getNextInvoiceNumber: {},
  getInvoice: { params: { id: SAMPLE_ID } },
  createInvoice: { payload: { ...VALID_INVOICE_BODY, recipientID: SAMPLE_ID } },
  uploadInvoice: {
    payload: {
      invoiceFileID: SAMPLE_ID,
      recipientID: SAMPLE_ID,
      invoiceNumber: '5002',
      ...INVOICE_TERMS,
      ocr: '1234574',
      amounts: [{ vatBasisPoints: 2500, netMinor: 100_000 }],
    },
  },
  updateInvoice: { params: { id: SAMPLE_ID }, payload: { ...VALID_INVOICE_BODY, recipientID: SAMPLE_ID } },
  deleteInvoice: { params: { id: SAMPLE_ID } },
  sendInvoices: { payload: { invoiceIDs: [SAMPLE_ID] } },
  listMessages: { query: 'unreadOnly=true&page=1&pageSize=10' },
  createMessage: { payload: { title: 'Fråga', message: 'Hej! När betalas faktura 10042 ut?' } },
  markMessageRead: { params: { id: SAMPLE_ID } },
  uploadFile: { query: 'role=attachment&filename=bilaga.pdf', payload: { not: 'a pdf' } },
  downloadFile: { params: { id: SAMPLE_ID } },
  getInvoicePdf: { params: { id: SAMPLE_ID } },
  getInvoicesPdf: { payload: { invoiceIDs: [SAMPLE_ID] } },
  previewInvoiceImport: { query: 'format=csv', payload: { not: 'a file' } },
  importInvoices: { query: 'format=csv', payload: { not: 'a file' } },
  getImportTemplate: { query: 'format=csv' },
  backofficeLogin: { payload: { username: 'operator', password: DEMO_PASSWORD } },
  runPayout: { payload: { payoutDate: '2026-03-02' } },
  importPayments: { query: 'filename=in.bgmax', payload: { not: 'a bgmax file' } },
  listUnmatchedPayments: { query: 'page=1&pageSize=10' },
  assignPayment: { params: { id: SAMPLE_ID }, payload: { invoiceID: SAMPLE_ID } },
  listDeductions: { query: 'page=1&pageSize=10' },
  resolveDeduction: { params: { id: SAMPLE_ID }, payload: { action: 'chargeIssuer' } },
  runDailyJob: { payload: { date: '2026-03-02' } },
  checkBooks: {},
  listHeldPayouts: {},
  getIssuerFees: { params: { id: SAMPLE_ID } },
  setIssuerFees: { params: { id: SAMPLE_ID }, payload: { fees: [] } },
  listIssuerDebtClaims: { query: 'state=open' },
  claimIssuerDebts: { payload: { date: '2026-03-02' } },
  listDebtClaims: {},
  getDebtClaim: { params: { id: SAMPLE_ID } },
  listTransferCosts: { query: 'page=1&pageSize=10&from=2026-01-01&to=2026-03-02' },
  getTransferCost: { params: { id: SAMPLE_ID } },
  getTransferCostBgmax: { params: { id: SAMPLE_ID } },
  previewFees: { payload: { invoiceIDs: [SAMPLE_ID] } },
  getPaymentsReport: { query: 'from=2026-01-01&to=2026-03-02' },
  exportPaymentsReport: { query: 'from=2026-01-01&to=2026-03-02&format=csv' },
  downloadActiveInvoices: {},
  getLedgerReport: { query: 'date=2026-03-02' },
  exportLedgerReport: { query: 'date=2026-03-02&fileType=excel' },
  downloadActiveRegress: { query: 'from=2026-01-01&to=2026-03-02&fileType=excel' },
  getDashboard: {},
  backofficeLogin2fa: { payload: { token: 'no-such-step-token', code: '123456' } },
  backofficeLogout: {},
  listPendingDecisions: { query: 'page=1&pageSize=10' },
  approveInvoice: { params: { id: SAMPLE_ID } },
  rejectInvoice: {
    params: { id: SAMPLE_ID },
    payload: { reason: 'Mottagarens kreditvärdighet räcker inte.' },
  },
  getBankVerification: {},
  listVerificationBanks: {},
  startBankVerification: { payload: { bankId: 'se-norrbanken', language: 'sv-SE' } },
  completeBankVerification: { payload: { state: 'z'.repeat(43) } },
  confirmBankAccountChange: { payload: { state: 'z'.repeat(43), code: '123456' } },
  receiveBankVerificationWebhook: { payload: { event: 'session.completed', session_id: 'no-such-session' } },
  getFortnoxConnection: {},
  startFortnoxConnection: {},
  completeFortnoxConnection: { payload: { state: 'z'.repeat(43), code: 'no-such-code' } },
  disconnectFortnox: {},
  listFortnoxInvoices: { query: 'page=1' },
  takeOverFortnoxInvoices: { payload: { documentNumbers: ['2001'] } },
};

/** The inject options of the sample call of `op`, with a bearer token when given. */
export function sampleRequest(op: OperationId, token?: string): InjectOptions {
  const def = ROUTES[op];
  const sample = ROUTE_SAMPLES[op];
  const path = buildPath(def.path, sample.params);
  return {
    method: def.method,
    url: sample.query ? `${path}?${sample.query}` : path,
    ...(sample.payload ? { payload: sample.payload } : {}),
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
  };
}

export const ALL_OPERATIONS = Object.keys(ROUTES) as OperationId[];

/** Back-office routes (an operator's token), in an order that can run on one token: logout last. */
export const OPERATOR_OPERATIONS = ALL_OPERATIONS.filter((op) => ROUTES[op].auth === 'operator').sort(
  (a, b) => Number(a === 'backofficeLogout') - Number(b === 'backofficeLogout'),
);

/** Session routes in an order that can run one after the other on one token: logout last. */
export const SESSION_OPERATIONS = ALL_OPERATIONS.filter(
  (op): op is SessionOperationId => ROUTES[op].auth === 'session',
).sort((a, b) => Number(a === 'logout') - Number(b === 'logout'));
