import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useContext } from 'react';
import { appQueryClient } from '../lib/query-client';

/**
 * The react-query client for the screens that fetch data: the signed-in layout and the public pages
 * that load something (group login, password reset). It is not in the app's root, so that the login
 * page, which fetches nothing, does not download react-query. One client for the whole app, so the
 * cache is shared; a client given from outside (a test's) is kept.
 */
export function QueryScope({ children }: { children: ReactNode }) {
  const outer = useContext(QueryClientContext);
  if (outer) return children;
  return <QueryClientProvider client={appQueryClient()}>{children}</QueryClientProvider>;
}
