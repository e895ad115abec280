import { type Ability, HISTORY_ABILITIES, isRouteAllowed } from '@portal/contracts';
import { matchPath } from 'react-router';

export interface AppPath {
  /** The route pattern, exactly as spec §2 writes it. */
  path: string;
  /** Permission keys of spec §6; the route is open when any one of them is held. Empty: no key. */
  permissions: readonly Ability[];
}

const HISTORY: readonly Ability[] = HISTORY_ABILITIES;
const none: readonly Ability[] = [];

function route(path: string, permissions: readonly Ability[] = none): AppPath {
  return { path, permissions };
}

/**
 * Every route of spec §2 with its link builder. The keys come from the menu rules of spec §6:
 * a screen needs the ability that shows its menu entry.
 */
export const paths = {
  login: { ...route('/login'), getHref: () => '/login' },
  groupLogin: {
    ...route('/:groupid/login'),
    getHref: (groupid: string) => `/${encodeURIComponent(groupid)}/login`,
  },
  /** Named `password.reset` in spec §2; the request view (`password.reset.request`) is part of the login. */
  passwordReset: {
    ...route('/password/reset/:hash'),
    name: 'password.reset',
    getHref: (hash: string) => `/password/reset/${encodeURIComponent(hash)}`,
  },
  home: { ...route('/'), getHref: () => '/' },
  invoiceRegister: {
    ...route('/invoice/register', ['limited_register_invoice']),
    getHref: () => '/invoice/register',
  },
  invoiceFileUpload: {
    ...route('/invoice/fileupload', ['limited_register_invoice_file_upload']),
    getHref: () => '/invoice/fileupload',
  },
  invoiceUpload: {
    ...route('/invoice/upload', ['limited_register_invoice_upload']),
    getHref: () => '/invoice/upload',
  },
  invoiceEdit: {
    ...route('/invoice/edit/:id', ['limited_register_invoice']),
    getHref: (id: string) => `/invoice/edit/${encodeURIComponent(id)}`,
  },
  invoiceSend: { ...route('/invoice/send', ['limited_send_invoice']), getHref: () => '/invoice/send' },
  invoiceSendBusiness: {
    ...route('/invoice/send-business', ['limited_send_invoice']),
    getHref: () => '/invoice/send-business',
  },
  recipient: { ...route('/recipient'), getHref: () => '/recipient' },
  installmentPlans: {
    ...route('/installmentplans', ['limited_contract_financing']),
    getHref: () => '/installmentplans',
  },
  invoices: { ...route('/invoices', HISTORY), getHref: () => '/invoices' },
  invoicesDuplicate: {
    ...route('/invoices/duplicate/:id', ['limited_register_invoice']),
    getHref: (id: string) => `/invoices/duplicate/${encodeURIComponent(id)}`,
  },
  /**
   * One invoice with its rows and timeline (not in spec §2, which shows no detail route). Open to every
   * ability the `getInvoice` call accepts, so that the register screen can land here after saving.
   */
  invoiceDetail: {
    ...route('/invoices/:id', [
      'limited_invoices',
      'limited_register_invoice',
      'limited_register_invoice_upload',
      'limited_send_invoice',
    ]),
    getHref: (id: string) => `/invoices/${encodeURIComponent(id)}`,
  },
  transferCosts: { ...route('/transfercosts', HISTORY), getHref: () => '/transfercosts' },
  reportsPayments: {
    ...route('/reports/payments', ['limited_report_payments']),
    getHref: () => '/reports/payments',
  },
  reportsLedger: { ...route('/reports/ledger', ['limited_report_ledger']), getHref: () => '/reports/ledger' },
  invoiceMessages: {
    ...route('/invoice/messages'),
    /** The optional invoice of spec §2 is a query parameter: `/invoice/messages?invoiceID=…`. */
    getHref: (invoiceID?: string) =>
      invoiceID ? `/invoice/messages?invoiceID=${encodeURIComponent(invoiceID)}` : '/invoice/messages',
  },
  installmentRegister: {
    ...route('/installment/register', ['limited_contract_financing']),
    getHref: () => '/installment/register',
  },
  articles: { ...route('/articles', HISTORY), getHref: () => '/articles' },
  verifyBankAccount: {
    ...route('/verify-bank-account', ['limited_verify_bank_account']),
    getHref: () => '/verify-bank-account',
  },
  verifyBankAccountSuccess: {
    ...route('/verify-bank-account-success', ['limited_verify_bank_account']),
    getHref: () => '/verify-bank-account-success',
  },
  forbidden: { ...route('/403'), getHref: () => '/403' },
} as const;

export type PathName = keyof typeof paths;

/** The guard rule of spec §2 for a route with one or more keys (any one of them suffices). */
export function isPathAllowed(abilities: readonly string[], appPath: AppPath): boolean {
  if (appPath.permissions.length === 0) return true;
  return appPath.permissions.some((key) => isRouteAllowed(abilities, key));
}

/** The known route a concrete pathname belongs to, if any. */
export function findAppPath(pathname: string): AppPath | undefined {
  return Object.values(paths).find((p) => matchPath({ path: p.path, end: true }, pathname) !== null);
}

/**
 * What the catch-all shows for a path that has no screen yet: 403 when it is a known gated route the
 * abilities lack (spec §2 navigation guard), otherwise 404.
 */
export function catchAllOutcome(pathname: string, abilities: readonly string[]): 'forbidden' | 'not-found' {
  const known = findAppPath(pathname);
  if (known && !isPathAllowed(abilities, known)) return 'forbidden';
  return 'not-found';
}
