import { fortnoxTexts } from '@portal/i18n/namespaces/fortnox';
import { addTexts } from '../../lib/i18n';
import './components/fortnox.css';

// The business invoices screen's texts and styles travel with its chunk (the login page's size budget).
addTexts('fortnox', fortnoxTexts);
