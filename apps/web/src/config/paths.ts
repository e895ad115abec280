import { isPageAllowed, PAGES, type PageDef, type PageName } from '@portal/contracts';
import { matchPath } from 'react-router';

/** A page of the app: its route pattern and abilities from the contracts' `PAGES`, plus its link builder. */
export type AppPath = PageDef;

/**
 * Every route of spec §2 with its link builder. The pattern and the abilities that open each page
 * come from `PAGES` (packages/contracts/src/pages.ts), the table the menu reads as well.
 */
export const paths = {
  login: { ...PAGES.login, getHref: () => '/login' },
  groupLogin: {
    ...PAGES.groupLogin,
    getHref: (groupid: string) => `/${encodeURIComponent(groupid)}/login`,
  },
  /** Named `password.reset` in spec §2; the request view (`password.reset.request`) is part of the login. */
  passwordReset: {
    ...PAGES.passwordReset,
    name: 'password.reset',
    getHref: (hash: string) => `/password/reset/${encodeURIComponent(hash)}`,
  },
  home: { ...PAGES.home, getHref: () => '/' },
  invoiceRegister: { ...PAGES.invoiceRegister, getHref: () => '/invoice/register' },
  invoiceFileUpload: { ...PAGES.invoiceFileUpload, getHref: () => '/invoice/fileupload' },
  invoiceUpload: { ...PAGES.invoiceUpload, getHref: () => '/invoice/upload' },
  invoiceEdit: {
    ...PAGES.invoiceEdit,
    getHref: (id: string) => `/invoice/edit/${encodeURIComponent(id)}`,
  },
  invoiceSend: { ...PAGES.invoiceSend, getHref: () => '/invoice/send' },
  invoiceSendBusiness: { ...PAGES.invoiceSendBusiness, getHref: () => '/invoice/send-business' },
  recipient: { ...PAGES.recipient, getHref: () => '/recipient' },
  installmentPlans: { ...PAGES.installmentPlans, getHref: () => '/installmentplans' },
  invoices: { ...PAGES.invoices, getHref: () => '/invoices' },
  invoicesDuplicate: {
    ...PAGES.invoicesDuplicate,
    getHref: (id: string) => `/invoices/duplicate/${encodeURIComponent(id)}`,
  },
  invoiceDetail: {
    ...PAGES.invoiceDetail,
    getHref: (id: string) => `/invoices/${encodeURIComponent(id)}`,
  },
  transferCosts: { ...PAGES.transferCosts, getHref: () => '/transfercosts' },
  reportsPayments: { ...PAGES.reportsPayments, getHref: () => '/reports/payments' },
  reportsLedger: { ...PAGES.reportsLedger, getHref: () => '/reports/ledger' },
  invoiceMessages: {
    ...PAGES.invoiceMessages,
    /** The optional invoice of spec §2 is a query parameter: `/invoice/messages?invoiceID=…`. */
    getHref: (invoiceID?: string) =>
      invoiceID ? `/invoice/messages?invoiceID=${encodeURIComponent(invoiceID)}` : '/invoice/messages',
  },
  installmentRegister: { ...PAGES.installmentRegister, getHref: () => '/installment/register' },
  articles: { ...PAGES.articles, getHref: () => '/articles' },
  verifyBankAccount: { ...PAGES.verifyBankAccount, getHref: () => '/verify-bank-account' },
  verifyBankAccountSuccess: {
    ...PAGES.verifyBankAccountSuccess,
    getHref: () => '/verify-bank-account-success',
  },
  forbidden: { ...PAGES.forbidden, getHref: () => '/403' },
} as const satisfies {
  // One entry per page of the table, no more and no fewer: a page without a link builder fails here.
  [K in PageName]: (typeof PAGES)[K] & { getHref: (...args: never[]) => string; name?: string };
};

export type PathName = keyof typeof paths;

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
  if (known && !isPageAllowed(abilities, known)) return 'forbidden';
  return 'not-found';
}
