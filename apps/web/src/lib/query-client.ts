import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/** A client error (4xx) will not change by asking again; a network or 5xx failure is retried once. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

let shared: QueryClient | null = null;

/** The app's one client, made when a screen first needs it (app/query-scope.tsx). */
export function appQueryClient(): QueryClient {
  shared ??= createQueryClient();
  return shared;
}
