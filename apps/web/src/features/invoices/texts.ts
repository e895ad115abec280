import { invoicesTexts } from '@portal/i18n/namespaces/invoices';
import { addTexts } from '../../lib/i18n';

// The invoice screens' texts travel with their chunks, not with the login page (its size budget).
// Every invoice screen imports this module, which adds them before the screen first renders.
addTexts('invoices', invoicesTexts);
