import enus from '../locales/en-US/fortnox.json';
import fifi from '../locales/fi-FI/fortnox.json';
import svse from '../locales/sv-SE/fortnox.json';

/** The `fortnox` namespace in every locale; the business invoices screen's chunk adds it (issue #13). */
export const fortnoxTexts = { 'sv-SE': svse, 'en-US': enus, 'fi-FI': fifi } as const;
