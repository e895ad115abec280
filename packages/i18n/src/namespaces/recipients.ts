import enus from '../locales/en-US/recipients.json';
import fifi from '../locales/fi-FI/recipients.json';
import svse from '../locales/sv-SE/recipients.json';

/** The `recipients` namespace in every locale; the web adds it with the signed-in shell's chunk. */
export const recipientsTexts = { 'sv-SE': svse, 'en-US': enus, 'fi-FI': fifi } as const;
