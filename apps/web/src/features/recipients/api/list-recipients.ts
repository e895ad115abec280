import { type listRecipientsQuerySchema, ROUTES } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { registerListCall } from '../../../lib/api-hooks';

export type RecipientListQuery = z.output<typeof listRecipientsQuerySchema>;

/** `GET limited/recipients`: a page of the caller's recipients, searched and sorted. */
const call = registerListCall<RecipientListQuery>()(
  'recipients',
  ROUTES.listRecipients,
  (s) => s.listRecipientsResponseSchema,
);

export const recipientKeys = call.keys;
export const listRecipients = call.list;
export const listRecipientsQueryOptions = call.queryOptions;

export function useRecipients(query: RecipientListQuery, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...listRecipientsQueryOptions(query), enabled });
}
