import { reportsTexts } from '@portal/i18n/namespaces/reports';
import { addTexts } from '../../lib/i18n';

// The transfer costs and fee texts travel with their chunks (the login page's size budget).
addTexts('reports', reportsTexts);
