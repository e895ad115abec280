import { reportsTexts } from '@portal/i18n/namespaces/reports';
import { addTexts } from '../../../lib/i18n';

// The report screens' texts travel with their chunks, not with the login page (its size budget).
addTexts('reports', reportsTexts);
