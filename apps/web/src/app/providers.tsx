import { type QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BlockingLoader } from '../components/ui/blocking-loader';
import { selfKeys } from '../features/account/api/get-self';
import { RELOAD_ABILITIES_EVENT } from '../lib/events';
import { i18next } from '../lib/i18n';

/** A 403 from any call makes the API client emit this event; abilities come from `self` (spec §4). */
function ReloadAbilitiesListener() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const reload = () => void queryClient.invalidateQueries({ queryKey: selfKeys.all });
    window.addEventListener(RELOAD_ABILITIES_EVENT, reload);
    return () => window.removeEventListener(RELOAD_ABILITIES_EVENT, reload);
  }, [queryClient]);
  return null;
}

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={queryClient}>
        <ReloadAbilitiesListener />
        {children}
        <BlockingLoader />
      </QueryClientProvider>
    </I18nextProvider>
  );
}
