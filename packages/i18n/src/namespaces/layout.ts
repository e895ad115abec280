import enus from '../locales/en-US/layout.json';
import fifi from '../locales/fi-FI/layout.json';
import svse from '../locales/sv-SE/layout.json';

/** The `layout` namespace in every locale; the web adds it with the signed-in shell's chunk. */
export const layoutTexts = { 'sv-SE': svse, 'en-US': enus, 'fi-FI': fifi } as const;
