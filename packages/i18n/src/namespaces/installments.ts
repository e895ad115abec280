import enus from '../locales/en-US/installments.json';
import fifi from '../locales/fi-FI/installments.json';
import svse from '../locales/sv-SE/installments.json';

/** The `installments` namespace in every locale; the web adds it with the installment plan screens' chunks. */
export const installmentsTexts = { 'sv-SE': svse, 'en-US': enus, 'fi-FI': fifi } as const;
