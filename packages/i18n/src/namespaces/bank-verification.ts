import enus from '../locales/en-US/bank-verification.json';
import fifi from '../locales/fi-FI/bank-verification.json';
import svse from '../locales/sv-SE/bank-verification.json';

/** The `bank-verification` namespace in every locale; the two verification screens' chunk adds it (issue #13). */
export const bankVerificationTexts = { 'sv-SE': svse, 'en-US': enus, 'fi-FI': fifi } as const;
