import { type Ability, HISTORY_ABILITIES } from './abilities';

/**
 * Which ability opens which page: the one table the web's route paths, its navigation guard (spec §2)
 * and its top menu (spec §6) are built from, beside `ROUTES`, which says the same for each API call.
 * A menu entry names its page, so an entry and the page it opens cannot disagree, and a page that is
 * loaded by a call has that call's abilities (`PAGE_CALLS` in page-calls.ts, pages.test.ts), so a page a user may open never meets a
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
}

const NONE: readonly Ability[] = [];
const HISTORY: readonly Ability[] = HISTORY_ABILITIES;

function page<P extends string>(
  path: P,
  abilities: readonly Ability[] = NONE,
): { path: P; abilities: readonly Ability[] } {
  return { path, abilities };
}

/**
 * Every page of spec §2 by the name the web's `paths` uses. The abilities are written out rather than
 * read from `ROUTES`, so that the login page does not download the whole route table; pages.test.ts
 * checks that each page's abilities are exactly those of its call (`PAGE_CALLS`).
 */
export const PAGES = {
  login: page('/login'),
  groupLogin: page('/:groupid/login'),
  passwordReset: page('/password/reset/:hash'),
  home: page('/'),
  invoiceRegister: page('/invoice/register', ['limited_register_invoice']),
  invoiceFileUpload: page('/invoice/fileupload', ['limited_register_invoice_file_upload']),
  invoiceUpload: page('/invoice/upload', ['limited_register_invoice_upload']),
  invoiceEdit: page('/invoice/edit/:id', ['limited_register_invoice']),
  invoiceSend: page('/invoice/send', ['limited_send_invoice']),
  /** Sending business invoices (Fortnox) is sending: the same ability, until it has a call of its own. */
  invoiceSendBusiness: page('/invoice/send-business', ['limited_send_invoice']),
  recipient: page('/recipient'),
  installmentPlans: page('/installmentplans', ['limited_contract_financing']),
  /** One installment plan with its schedule, signees and timeline (not in spec §2, like `invoiceDetail`). */
  installmentPlanDetail: page('/installmentplans/:id', ['limited_contract_financing']),
  invoices: page('/invoices', HISTORY),
  /** The register form in duplicate mode: it registers a new invoice. */
  invoicesDuplicate: page('/invoices/duplicate/:id', ['limited_register_invoice']),
  /**
   * One invoice with its rows and timeline (not in spec §2, which shows no detail route): open to
   * every ability `getInvoice` accepts, so the history list and the register screen can link to it.
   */
  invoiceDetail: page('/invoices/:id', [
    ...HISTORY,
    'limited_register_invoice',
    'limited_register_invoice_upload',
    'limited_send_invoice',
  ]),
  transferCosts: page('/transfercosts', HISTORY),
  reportsPayments: page('/reports/payments', ['limited_report_payments']),
  reportsLedger: page('/reports/ledger', ['limited_report_ledger']),
  invoiceMessages: page('/invoice/messages'),
  installmentRegister: page('/installment/register', ['limited_contract_financing']),
  articles: page('/articles', HISTORY),
  verifyBankAccount: page('/verify-bank-account', ['limited_verify_bank_account']),
  verifyBankAccountSuccess: page('/verify-bank-account-success', ['limited_verify_bank_account']),
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
