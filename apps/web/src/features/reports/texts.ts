import { reportsTexts } from '@portal/i18n/namespaces/reports';
import { addTexts } from '../../lib/i18n';

// The report screens' texts travel with their chunks; every report screen imports this module.
addTexts('reports', reportsTexts);
