import { installmentsTexts } from '@portal/i18n/namespaces/installments';
import { invoicesTexts } from '@portal/i18n/namespaces/invoices';
import { addTexts } from '../../lib/i18n';

// The plan screens' texts travel with their chunks, not with the login page (its size budget). The
// schedule names each installment's invoice state, an `invoices` text.
addTexts('installments', installmentsTexts);
addTexts('invoices', invoicesTexts);
