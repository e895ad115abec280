import enus_documents from './locales/en-US/documents.json';
import enus_email from './locales/en-US/email.json';
import enus_notices from './locales/en-US/notices.json';
import fifi_documents from './locales/fi-FI/documents.json';
import fifi_email from './locales/fi-FI/email.json';
import fifi_notices from './locales/fi-FI/notices.json';
import svse_documents from './locales/sv-SE/documents.json';
import svse_email from './locales/sv-SE/email.json';
import svse_notices from './locales/sv-SE/notices.json';
import { accountTexts } from './namespaces/account';
import { articlesTexts } from './namespaces/articles';
import { bankVerificationTexts } from './namespaces/bank-verification';
import { dashboardTexts } from './namespaces/dashboard';
import { errorsTexts } from './namespaces/errors';
import { fortnoxTexts } from './namespaces/fortnox';
import { installmentsTexts } from './namespaces/installments';
import { invoicesTexts } from './namespaces/invoices';
import { layoutTexts } from './namespaces/layout';
import { recipientsTexts } from './namespaces/recipients';
import { reportsTexts } from './namespaces/reports';
import {
  FALLBACK_LOCALE,
  type Locale,
  type Messages,
  type Namespace,
  type StartupNamespace,
} from './startup';
import { texts as enusStartup } from './startup/en-us';
import { texts as fifiStartup } from './startup/fi-fi';
import { texts as svseStartup } from './startup/sv-se';

export * from './startup';

/** The texts the web starts with (startup.ts), in every locale. */
export const startupResources: Record<Locale, Record<StartupNamespace, Messages>> = {
  'sv-SE': svseStartup,
  'en-US': enusStartup,
  'fi-FI': fifiStartup,
};

/** The server's own namespaces (e-mails, documents, notices) in every locale. */
const serverTexts: Record<Locale, Record<'email' | 'documents' | 'notices', Messages>> = {
  'sv-SE': { email: svse_email, documents: svse_documents, notices: svse_notices },
  'en-US': { email: enus_email, documents: enus_documents, notices: enus_notices },
  'fi-FI': { email: fifi_email, documents: fifi_documents, notices: fifi_notices },
};

/** Every namespace of one locale. */
function localeTexts(locale: Locale): Record<Namespace, Messages> {
  const server = serverTexts[locale];
  return {
    ...startupResources[locale],
    errors: errorsTexts[locale],
    account: accountTexts[locale],
    layout: layoutTexts[locale],
    recipients: recipientsTexts[locale],
    articles: articlesTexts[locale],
    dashboard: dashboardTexts[locale],
    invoices: invoicesTexts[locale],
    installments: installmentsTexts[locale],
    email: server.email,
    documents: server.documents,
    notices: server.notices,
    reports: reportsTexts[locale],
    'bank-verification': bankVerificationTexts[locale],
    fortnox: fortnoxTexts[locale],
  };
}

/** Every text of the portal: resources[locale][namespace] is a nested object of strings. */
export const resources: Record<Locale, Record<Namespace, Messages>> = {
  'sv-SE': localeTexts('sv-SE'),
  'en-US': localeTexts('en-US'),
  'fi-FI': localeTexts('fi-FI'),
};

/**
 * Looks a dotted key up in one locale's namespace, falling back to sv-SE; returns the key itself when
 * neither has it. `{{name}}` placeholders are filled from `values`. Used by server-rendered texts
 * (e-mails, reports); the web uses i18next over the same resources.
 */
export function translate(
  locale: Locale,
  namespace: Namespace,
  key: string,
  values: Record<string, string | number> = {},
): string {
  const find = (l: Locale): string | undefined => {
    let node: string | Messages | undefined = resources[l][namespace];
    for (const part of key.split('.')) {
      if (node === undefined || typeof node === 'string') return undefined;
      node = node[part];
    }
    return typeof node === 'string' ? node : undefined;
  };
  const text = find(locale) ?? find(FALLBACK_LOCALE) ?? key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, name: string) =>
    values[name] === undefined ? m : String(values[name]),
  );
}
