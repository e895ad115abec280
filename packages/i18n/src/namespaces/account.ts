import enus from '../locales/en-US/account.json';
import fifi from '../locales/fi-FI/account.json';
import svse from '../locales/sv-SE/account.json';

/** The `account` namespace in every locale; the web adds it with the signed-in shell and the reset page. */
export const accountTexts = { 'sv-SE': svse, 'en-US': enus, 'fi-FI': fifi } as const;
