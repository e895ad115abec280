import { errorsTexts } from '@portal/i18n/namespaces/errors';
import { addTexts } from './i18n';

// The texts of every error code, for the pages before sign-in once their form is on screen
// (load-schemas.ts); their first chunk carries only `sign-in-errors` (the login page's size budget).
addTexts('errors', errorsTexts);
