import enus from '../locales/en-US/dashboard.json';
import fifi from '../locales/fi-FI/dashboard.json';
import svse from '../locales/sv-SE/dashboard.json';

/** The `dashboard` namespace in every locale; the web adds it with the signed-in shell's chunk. */
export const dashboardTexts = { 'sv-SE': svse, 'en-US': enus, 'fi-FI': fifi } as const;
