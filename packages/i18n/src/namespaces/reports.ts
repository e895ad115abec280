import enus from '../locales/en-US/reports.json';
import fifi from '../locales/fi-FI/reports.json';
import svse from '../locales/sv-SE/reports.json';

/** The `reports` namespace (transfer costs, payments, fees) in every locale; the report screens' chunks add it. */
export const reportsTexts = { 'sv-SE': svse, 'en-US': enus, 'fi-FI': fifi } as const;
