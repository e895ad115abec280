import enus from '../locales/en-US/errors.json';
import fifi from '../locales/fi-FI/errors.json';
import svse from '../locales/sv-SE/errors.json';

/**
 * The `errors` namespace (the error codes of the signed-in screens' calls) in every locale; those of
 * the pages before sign-in are the startup namespace `sign-in-errors`.
 */
export const errorsTexts = { 'sv-SE': svse, 'en-US': enus, 'fi-FI': fifi } as const;
