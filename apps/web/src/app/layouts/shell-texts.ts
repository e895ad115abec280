import { dashboardTexts } from '@portal/i18n/namespaces/dashboard';
import { layoutTexts } from '@portal/i18n/namespaces/layout';
import { addTexts } from '../../lib/i18n';

// The signed-in shell's texts (menu, banners, home) come with its chunk, not with the login page
// (its size budget); the root layout imports this module, which adds them before it renders.
addTexts('layout', layoutTexts);
addTexts('dashboard', dashboardTexts);
