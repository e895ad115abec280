import { bankVerificationTexts } from '@portal/i18n/namespaces/bank-verification';
import { addTexts } from '../../lib/i18n';
import './components/bank-verification.css';

// The verification screens' texts and styles travel with their chunk (the login page's size budget).
addTexts('bank-verification', bankVerificationTexts);
