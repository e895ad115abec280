/**
 * What the web needs from its first page on: the locales, the namespaces and the loader of the startup
 * texts. It imports no text itself, so that the login page's chunk stays small; `index.ts` has them all.
 */

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
  'sign-in-errors',
  'validation',
  'dashboard',
  'recipients',
  'articles',
  'invoices',
  'installments',
  'email',
  'documents',
  'notices',
  'reports',
  'bank-verification',
  'fortnox',
] as const;
export type Namespace = (typeof NAMESPACES)[number];

export type Messages = { [key: string]: string | Messages };

/**
 * The namespaces the web loads with its first page: those the login page's size budget
 * (apps/web/scripts/check-bundle-size.mjs) has room for. Every other one is deferred: the signed-in
 * shell's and a screen's own texts, which come with those chunks (`@portal/i18n/namespaces/<name>`),
 * and the server's (e-mails, documents, notices: the messages we write to a customer, such as a credit
 * decision). The error codes of the signed-in screens (`errors`) are deferred too; those a page before
 * sign-in meets are in `sign-in-errors`, which the web looks in whenever a key is not found (i18next's
 * `fallbackNS`), so a code is always written `errors:<code>`.
 */
export const STARTUP_NAMESPACES = [
  'common',
  'auth',
  'sign-in-errors',
  'validation',
] as const satisfies readonly Namespace[];
export type StartupNamespace = (typeof STARTUP_NAMESPACES)[number];
/** The namespaces the web does not load with its first page: all but `STARTUP_NAMESPACES`. */
export type DeferredNamespace = Exclude<Namespace, StartupNamespace>;
export const DEFERRED_NAMESPACES = NAMESPACES.filter(
  (namespace): namespace is DeferredNamespace =>
    !(STARTUP_NAMESPACES as readonly string[]).includes(namespace),
);

/**
 * The texts the web starts with (every namespace but the deferred ones) in one locale. Each locale is
 * its own module, imported on demand: the browser downloads the texts of the language it shows, not
 * of all three.
 */
export function loadStartupTexts(locale: Locale): Promise<Record<StartupNamespace, Messages>> {
  switch (locale) {
    case 'en-US':
      return import('./startup/en-us').then((m) => m.texts);
    case 'fi-FI':
      return import('./startup/fi-fi').then((m) => m.texts);
    default:
      return import('./startup/sv-se').then((m) => m.texts);
  }
}

/** True when the value is one of the portal's locales. */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}
