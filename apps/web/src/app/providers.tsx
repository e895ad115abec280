import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BlockingLoader } from '../components/ui/blocking-loader';
import { i18next } from '../lib/i18n';

/**
 * What every page has: the texts and the blocking loader. The react-query client comes with the
 * screens that fetch data (query-scope.tsx), not with the login page.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18next}>
      {children}
      <BlockingLoader />
    </I18nextProvider>
  );
}
