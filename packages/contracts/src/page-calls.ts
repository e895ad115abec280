import type { PageDef, PageName } from './pages';
import type { OperationId } from './routes';

/*
 * What the signed-in screens read about pages beside `PAGES`: the call of each page and whether a
 * user's abilities open a page for a link. Kept apart from pages.ts, which the navigation guard reads
 * on the login page, so that the login page downloads neither.
 */

/**
 * The call that loads each page (or that the page is for), for the checks that a page and its call
 * agree: a page's abilities are exactly its call's (pages.test.ts), so a user who may open a page never
 * meets a 403 from it. Pages without a call of their own yet are not listed.
 */
export const PAGE_CALLS: Readonly<Partial<Record<PageName, OperationId>>> = {
  home: 'getDashboard',
  invoiceRegister: 'createInvoice',
  invoiceFileUpload: 'previewInvoiceImport',
  invoiceUpload: 'uploadInvoice',
  invoiceEdit: 'updateInvoice',
  invoiceSend: 'listPendingInvoices',
  recipient: 'listRecipients',
  invoices: 'listInvoices',
  invoicesDuplicate: 'createInvoice',
  invoiceDetail: 'getInvoice',
  transferCosts: 'listTransferCosts',
  reportsPayments: 'getPaymentsReport',
  reportsLedger: 'getLedgerReport',
  invoiceMessages: 'listMessages',
  articles: 'listArticles',
  verifyBankAccount: 'getBankVerification',
  verifyBankAccountSuccess: 'getBankVerification',
  installmentPlans: 'listInstallmentPlans',
  installmentPlanDetail: 'getInstallmentPlan',
  installmentRegister: 'registerInstallmentPlan',
};

/**
 * Whether a user's abilities open a page, for what links to it (the menu of spec §6, links between
 * screens): a page without abilities always (home, recipient), another when one of its abilities is
 * held. Unlike the guard, an empty list opens nothing gated.
 */
export function canOpenPage(abilities: readonly string[], page: Pick<PageDef, 'abilities'>): boolean {
  return page.abilities.length === 0 || page.abilities.some((key) => abilities.includes(key));
}
