import { accountTexts } from '@portal/i18n/namespaces/account';
import { articlesTexts } from '@portal/i18n/namespaces/articles';
import { dashboardTexts } from '@portal/i18n/namespaces/dashboard';
import { errorsTexts } from '@portal/i18n/namespaces/errors';
import { layoutTexts } from '@portal/i18n/namespaces/layout';
import { recipientsTexts } from '@portal/i18n/namespaces/recipients';
import { reportsTexts } from '@portal/i18n/namespaces/reports';
import { addTexts } from '../../lib/i18n';

// The signed-in shell's texts (menu, banners, home, and the registers and reports every signed-in page
// may open) come with its chunk, not with the login page (its size budget); the root layout imports
// this module, which adds them before it renders.
addTexts('errors', errorsTexts);
addTexts('account', accountTexts);
addTexts('layout', layoutTexts);
addTexts('dashboard', dashboardTexts);
addTexts('recipients', recipientsTexts);
addTexts('articles', articlesTexts);
addTexts('reports', reportsTexts);
