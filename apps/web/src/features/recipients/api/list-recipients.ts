import { type listRecipientsQuerySchema, ROUTES } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { pageQueryOptions } from '../../../lib/api-hooks';

export type RecipientListQuery = z.output<typeof listRecipientsQuerySchema>;

export const recipientKeys = {
  all: ['recipients'] as const,
  list: (query: RecipientListQuery) => ['recipients', 'list', query] as const,
};

/** `GET limited/recipients`: a page of the caller's recipients, searched and sorted. */
export function listRecipients(query: RecipientListQuery, signal?: AbortSignal) {
  return apiRequest(ROUTES.listRecipients, (s) => s.listRecipientsResponseSchema, {
    query: { ...query, search: query.search || undefined },
    signal,
  });
}

export function listRecipientsQueryOptions(query: RecipientListQuery) {
  return pageQueryOptions(recipientKeys.list(query), (signal) => listRecipients(query, signal));
}

export function useRecipients(query: RecipientListQuery, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...listRecipientsQueryOptions(query), enabled });
}
