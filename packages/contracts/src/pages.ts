import { type Ability, HISTORY_ABILITIES } from './abilities';
import type { OperationId } from './routes';

/**
 * Which ability opens which page: the one table the web's route paths, its navigation guard (spec §2)
 * and its top menu (spec §6) are built from, beside `ROUTES`, which says the same for each API call.
 * A menu entry names its page, so an entry and the page it opens cannot disagree, and a page that is
 * loaded by a call has that call's abilities (pages.test.ts), so a page a user may open never meets a
 * 403 from its own call.
 */
export interface PageDef {
  /** The route pattern, exactly as spec §2 writes it (`:id` for a parameter). */
  path: string;
  /**
   * The abilities that open the page, any one of them (spec §6 keys); empty: every signed-in user
   * (or anyone, for the pages reachable without a session).
   */
  abilities: readonly Ability[];
  /** The call that loads the page or that the page is for; null while the page has no call of its own. */
  loadedBy: OperationId | null;
}

const NONE: readonly Ability[] = [];
const HISTORY: readonly Ability[] = HISTORY_ABILITIES;

function page(
  path: string,
  abilities: readonly Ability[] = NONE,
  loadedBy: OperationId | null = null,
): PageDef {
  return { path, abilities, loadedBy };
}

/**
 * Every page of spec §2 by the name the web's `paths` uses. The abilities are written out rather than
 * read from `ROUTES`, so that the login page does not download the whole route table; pages.test.ts
 * checks that each page's abilities are exactly those of the call that loads it.
 */
export const PAGES = {
  login: page('/login'),
  groupLogin: page('/:groupid/login'),
  passwordReset: page('/password/reset/:hash'),
  home: page('/', NONE, 'getDashboard'),
  invoiceRegister: page('/invoice/register', ['limited_register_invoice'], 'createInvoice'),
  invoiceFileUpload: page(
    '/invoice/fileupload',
    ['limited_register_invoice_file_upload'],
    'previewInvoiceImport',
  ),
  invoiceUpload: page('/invoice/upload', ['limited_register_invoice_upload'], 'uploadInvoice'),
  invoiceEdit: page('/invoice/edit/:id', ['limited_register_invoice'], 'updateInvoice'),
  invoiceSend: page('/invoice/send', ['limited_send_invoice'], 'listPendingInvoices'),
  /** Sending business invoices (Fortnox) is sending: the same ability, until it has a call of its own. */
  invoiceSendBusiness: page('/invoice/send-business', ['limited_send_invoice']),
  recipient: page('/recipient', NONE, 'listRecipients'),
  installmentPlans: page('/installmentplans', ['limited_contract_financing']),
  invoices: page('/invoices', HISTORY, 'listInvoices'),
  /** The register form in duplicate mode: it registers a new invoice. */
  invoicesDuplicate: page('/invoices/duplicate/:id', ['limited_register_invoice'], 'createInvoice'),
  /**
   * One invoice with its rows and timeline (not in spec §2, which shows no detail route): open to
   * every ability `getInvoice` accepts, so the history list and the register screen can link to it.
   */
  invoiceDetail: page(
    '/invoices/:id',
    [
      'limited_invoices',
      'limited_transfercosts',
      'limited_register_invoice',
      'limited_register_invoice_upload',
      'limited_send_invoice',
    ],
    'getInvoice',
  ),
  transferCosts: page('/transfercosts', HISTORY, 'listTransferCosts'),
  reportsPayments: page('/reports/payments', ['limited_report_payments'], 'getPaymentsReport'),
  reportsLedger: page('/reports/ledger', ['limited_report_ledger'], 'getLedgerReport'),
  invoiceMessages: page('/invoice/messages', NONE, 'listMessages'),
  installmentRegister: page('/installment/register', ['limited_contract_financing']),
  articles: page('/articles', HISTORY, 'listArticles'),
  verifyBankAccount: page('/verify-bank-account', ['limited_verify_bank_account'], 'getBankVerification'),
  verifyBankAccountSuccess: page(
    '/verify-bank-account-success',
    ['limited_verify_bank_account'],
    'getBankVerification',
  ),
  forbidden: page('/403'),
} as const satisfies Record<string, PageDef>;

export type PageName = keyof typeof PAGES;

/**
 * The navigation guard of spec §2: a page with abilities is blocked when the loaded abilities list
 * is non-empty and holds none of them. An empty list (not loaded yet) blocks nothing; the server
 * still refuses the page's call with 403, so this only decides what the browser shows.
 */
export function isPageAllowed(abilities: readonly string[], page: Pick<PageDef, 'abilities'>): boolean {
  if (page.abilities.length === 0 || abilities.length === 0) return true;
  return page.abilities.some((key) => abilities.includes(key));
}

/**
 * Whether a user's abilities open a page, for what links to it (the menu of spec §6, links between
 * screens): a page without abilities always (home, recipient), another when one of its abilities is
 * held. Unlike the guard, an empty list opens nothing gated.
 */
export function canOpenPage(abilities: readonly string[], page: Pick<PageDef, 'abilities'>): boolean {
  return page.abilities.length === 0 || page.abilities.some((key) => abilities.includes(key));
}
