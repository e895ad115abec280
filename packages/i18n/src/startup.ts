/**
 * What the web needs from its first page on: the locales, the namespaces and the startup texts. It
 * imports no deferred namespace, so that the login page's chunk stays small; `index.ts` adds those.
 */
import enus_account from './locales/en-US/account.json';
import enus_auth from './locales/en-US/auth.json';
import enus_common from './locales/en-US/common.json';
import enus_errors from './locales/en-US/errors.json';
import enus_validation from './locales/en-US/validation.json';
import fifi_account from './locales/fi-FI/account.json';
import fifi_auth from './locales/fi-FI/auth.json';
import fifi_common from './locales/fi-FI/common.json';
import fifi_errors from './locales/fi-FI/errors.json';
import fifi_validation from './locales/fi-FI/validation.json';
import svse_account from './locales/sv-SE/account.json';
import svse_auth from './locales/sv-SE/auth.json';
import svse_common from './locales/sv-SE/common.json';
import svse_errors from './locales/sv-SE/errors.json';
import svse_validation from './locales/sv-SE/validation.json';

/** The portal's languages; sv-SE is the default and the fallback (spec §9). */
export const LOCALES = ['sv-SE', 'en-US', 'fi-FI'] as const;
export type Locale = (typeof LOCALES)[number];
export const FALLBACK_LOCALE: Locale = 'sv-SE';

/** One namespace per feature; keys inside follow `screen.element`. */
export const NAMESPACES = [
  'common',
  'auth',
  'layout',
  'account',
  'errors',
  'validation',
  'dashboard',
  'recipients',
  'articles',
  'invoices',
  'email',
  'documents',
  'notices',
  'reports',
] as const;
export type Namespace = (typeof NAMESPACES)[number];

export type Messages = { [key: string]: string | Messages };

/**
 * Namespaces the web does not load with its first page, which the login page's size budget
 * (apps/web/scripts/check-bundle-size.mjs) has no room for: the signed-in shell's and a screen's own
 * texts, which come with those chunks (`@portal/i18n/namespaces/<name>`), and the server's (e-mails,
 * documents, notices: the messages we write to a customer, such as a credit decision).
 */
export const DEFERRED_NAMESPACES = [
  'layout',
  'recipients',
  'articles',
  'dashboard',
  'invoices',
  'email',
  'documents',
  'notices',
  'reports',
] as const;
export type StartupNamespace = Exclude<Namespace, (typeof DEFERRED_NAMESPACES)[number]>;

/** The texts the web starts with: every namespace but the deferred ones. */
export const startupResources: Record<Locale, Record<StartupNamespace, Messages>> = {
  'sv-SE': {
    common: svse_common,
    auth: svse_auth,
    account: svse_account,
    errors: svse_errors,
    validation: svse_validation,
  },
  'en-US': {
    common: enus_common,
    auth: enus_auth,
    account: enus_account,
    errors: enus_errors,
    validation: enus_validation,
  },
  'fi-FI': {
    common: fifi_common,
    auth: fifi_auth,
    account: fifi_account,
    errors: fifi_errors,
    validation: fifi_validation,
  },
};

/** True when the value is one of the portal's locales. */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}
