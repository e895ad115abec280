import enus from '../locales/en-US/invoices.json';
import fifi from '../locales/fi-FI/invoices.json';
import svse from '../locales/sv-SE/invoices.json';

/**
 * The `invoices` namespace in every locale, on its own subpath (`@portal/i18n/namespaces/invoices`):
 * the web adds it with the invoice screens' chunk instead of with the first page.
 */
export const invoicesTexts = { 'sv-SE': svse, 'en-US': enus, 'fi-FI': fifi } as const;
